// Package raire generates assertions for risk-limiting audits of IRV
// (instant-runoff) contests, as RAIRE does: a set of simple claims about
// the ballots that an audit can test one by one and that, if all true,
// prove the reported winner won. It is implemented from Blom, Stuckey and
// Teague, "RAIRE: Risk-Limiting Audits for IRV Elections"
// (arXiv:1903.08804), and "A Guide to RAIRE" (Blom, Stuckey, Teague,
// Conway et al.), and reads and writes the JSON formats of raire-rs; no
// code is taken from raire-rs. It uses the standard library only.
//
// # Ballots and elimination orders
//
// A ballot (Vote, with a count N) lists distinct candidates, most
// preferred first. IRV eliminates, round by round, a candidate with the
// fewest votes, each ballot counting for its first continuing candidate;
// the last one left wins. An elimination order lists the candidates in the
// order they go, the winner last. The package counts the election itself,
// following every way of breaking ties: if different tie-breaks give
// different winners the contest is tied (TiedWinners) and cannot be
// audited; if the stated winner is not the one the ballots elect the
// result is WrongWinner.
//
// # Assertions
//
// NEB(w, l), "w is not eliminated before l": w's first preferences exceed
// every ballot that could count for l while w is still in the count (the
// ballots ranking l above w or ranking l but not w). Then l always has
// fewer votes than w while both continue, so w cannot go first. It rules
// out every order in which w is eliminated before l.
//
// NEN(w, l, S), "with exactly S continuing, w is not eliminated next": when
// each ballot counts for its first candidate in S, w has more votes than l.
// It rules out every order that reaches S and eliminates w there.
//
// An assertion's margin is the winner's tally minus the loser's, in
// ballots; it must be positive for the assertion to hold.
//
// # Difficulty
//
// Each assertion gets a difficulty, an estimate of the audit effort to
// confirm it, from its winner's tally w, its loser's tally l, the margin
// m = w - l and the total auditable ballots N (Audit.Difficulty). A false
// assertion (m <= 0) has infinite difficulty.
//
//   - OneOnMargin (ballot-level comparison): N / m, one over the diluted
//     margin (RAIRE paper, section 3; the "A Guide to RAIRE" examples).
//   - OneOnMarginSq: (N / m)², one over the diluted margin squared, the
//     rough scaling of ballot polling (raire-rs's audit types).
//   - BRAVO (ballot polling, risk limit α = Confidence): BRAVO's expected
//     sample size when the reported tallies are right, as used in the
//     RAIRE paper (from Lindeman, Stark and Yates, "BRAVO: Ballot-polling
//     Risk-limiting Audits to Verify Outcomes", 2012): with s = w/(w+l),
//     (ln(1/α) + ln(2s)/2) / ((w ln(2s) + l ln(2 - 2s)) / N).
//   - MACRO (ballot-level comparison, risk limit α, error inflation γ ≥ 1):
//     the expected sample size with no errors found, as used in the RAIRE
//     paper (from Stark, "Super-simple simultaneous single-ballot
//     risk-limiting audits", 2010): 2γ N ln(1/α) / m.
//
// These are the formulas of raire-rs's audit types, which its README
// documents for the JSON "audit" field.
//
// # The search
//
// The assertions must rule out every elimination order in which someone
// else wins. An order is ruled out through one of its tails (the last k
// candidates, ending with its winner): NEB(w, l) rules out a tail that
// holds l with w absent (eliminated earlier) or before l; NEN(w, l, S)
// rules out a tail whose last |S| candidates are S, starting with w. The
// best possible audit has difficulty D = the maximum, over the complete
// orders with another winner, of the easiest assertion ruling out each.
//
// The search (the RAIRE paper's algorithm) keeps a frontier of tails in a
// priority queue, each with its best assertion: the easiest that rules it
// out, which is its parent's or one using its first candidate (NEB(x, c)
// for x eliminated before it, NEN(c, l, tail) against the weakest l). It
// starts from the one-candidate tails of every candidate but the winner,
// and repeatedly takes the tail whose best assertion is hardest and
// extends it at the front by each candidate not yet in it. A complete
// order's best assertion is kept and raises the lower bound LB (the
// hardest complete order met so far, never more than D). A tail whose
// best assertion is no harder than LB, or that a kept assertion already
// rules out, needs no more work: its best assertion is kept (or none).
// When the queue is empty every alternative is ruled out and LB = D: the
// answer is optimal. To raise LB early, each expansion dives: it goes on
// expanding the hardest child down to a complete order, queueing the other
// children; ties in the queue go to the longer tail. Tallies for a
// continuing set are counted once, over the ballots aggregated into a
// prefix tree (a ballot group's shared prefix is walked once), and cached
// by the set; kept assertions are indexed so a tail is checked against
// them in one step per suffix.
//
// # Trimming
//
// The search may keep redundant assertions. Trimming walks the tree of
// tails (each alternative winner at a root, a child putting one more
// candidate in front), stopping at the first node some assertion rules
// out. MinimizeTree (RAIRE's default) keeps few assertions that still
// stop the walk at the same nodes: those that are a node's only option,
// then greedily the one stopping most remaining nodes, then drops any the
// others make unnecessary; the tree an official checks stays as small as
// the search's. MinimizeAssertions then tries to drop each kept
// assertion, hardest first, keeping the drop whenever the rest still rule
// out every alternative deeper in the tree. None keeps everything.
// Trimming never changes the difficulty.
//
// # Limits
//
// Candidates are bits of a uint64, so a contest has at most MaxCandidates
// (64); the search is exponential in the worst case and suits contests of
// up to a few tens of candidates when a few lead (a field of many
// near-equal candidates can need millions of tails). Options.MaxWork
// bounds each stage (DefaultMaxWork when 0) and Contest.TimeLimit
// (time_limit_seconds) the whole: running out gives TimeoutCheckingWinner or
// TimeoutFindingAssertions; when trimming runs out, the assertions are
// returned partly trimmed with Solution.WarningTrimTimedOut set. Check
// verifies a solution independently of the search.
package raire
