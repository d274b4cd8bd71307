// Package tally counts ranked ballots. It is pure: standard library only,
// no I/O. Same inputs give the same Result, byte for byte, on every run and
// machine: no map order reaches a result, counts are integers or exact
// decimals (never floats), and work split between goroutines is merged by
// exact addition.
//
// # Ballots
//
// A ballot is a list of marks (rank, candidate), sorted by rank; ranks
// count from 1. A rank with several candidates is an overvote for
// ranked-choice counts and a tie for the pairwise methods; the candidate
// Overvote is an explicit overvote label (the rank was overvoted, the
// candidates are not known). A rank with no mark is a skipped ranking. A
// ballot record may stand for several identical ballots (Counts).
//
// # Ranked-choice counts (IRV, STV): RCTab's rules
//
// The count follows RCTab (the Universal RCV Tabulator) rule for rule, with
// its config names (Rules), so reports match RCTab's digit for digit.
//
// Each round, every ballot counts for its highest-ranked continuing
// candidate. Reading a ballot from the top, for each rank with marks:
// the ballot becomes inactive (skipped rankings) if more than
// maxSkippedRanksAllowed ranks were skipped since the previous marked rank
// (or the top), unless that is "unlimited"; with exhaustOnDuplicateCandidate
// it becomes inactive (repeated rankings) when a candidate (or the
// overvote label) was already marked at a higher rank or earlier at this
// rank; a rank with several candidates or the overvote label exhausts the
// ballot (overvotes) under exhaustImmediately, is passed over under
// alwaysSkipToNextRank (at the last marked rank that makes the ballot
// inactive by exhausted choices), and under exhaustIfMultipleContinuing
// exhausts the ballot only when two or more of its candidates are
// continuing (the overvote label is refused under this rule); otherwise
// the first continuing candidate at the rank gets the ballot; if none is
// continuing and this is the last marked rank, the ballot is inactive by
// exhausted choices. A ballot with no marks is inactive with no rankings.
// A ballot stays with its candidate while that candidate continues. Ranks
// beyond maxRankingsAllowed ("max": the number of declared candidates) are
// refused before counting.
//
// Continuing candidates are those neither eliminated, elected nor excluded;
// with continueUntilTwoCandidatesRemain, winners stay continuing. Excluded
// candidates (and earlier winners in multi-pass IRV) take no part: ballots
// pass over them.
//
// The threshold: with bottomsUpUsingPercentageThreshold it is the active
// votes times the percentage. Otherwise, with S seats and V active votes
// (the votes held by continuing candidates), it is floor(V/(S+1)) + 1
// (Droop), or with nonIntegerWinningThreshold V/(S+1) truncated to
// decimalPlacesForVoteArithmetic places plus one unit of the last place, or
// with hareQuota V/S rounded up to a whole number. It never falls below
// minimumVoteThreshold. Multi-seat counts set it in round 1 only;
// single-seat counts recompute it every round, unless
// doesFirstRoundDetermineThreshold keeps round 1's, and freeze it once a
// winner is elected (when counting continues until two remain).
//
// Winners, each round: none while the undeclared write-in entry holds
// votes. In percentage bottoms-up every continuing candidate wins once all
// have more than the threshold. Otherwise, while seats are unfilled: if no
// more candidates continue than seats remain, they all win; with
// doesFirstRoundDetermineThreshold, when one more candidate continues than
// there are seats, the top candidates win; except in bottoms-up mode,
// every candidate (not the undeclared write-in entry) at or above the
// threshold wins. When several qualify but only one may win per round
// (multiWinnerAllowOnlyOneWinnerPerRound, or a first-round threshold), the
// top candidate wins, a tie broken by the tie-break. In a single-seat
// count with two candidates left, neither at the threshold and both at or
// above the minimum, the top one wins, a tie broken by the tie-break.
//
// Surpluses (multi-seat counts other than bottoms-up): a winner with V
// votes over threshold T keeps, from each ballot of value v, v minus the
// moving part v × ((V−T)/V); the fraction is divided and each product
// truncated to decimalPlacesForVoteArithmetic places, and the ballot moves
// on next round with the moving part as its value. The winner's tally next
// round is what it kept; any excess over T (lost to truncation) is
// residual surplus and the winner is shown at exactly T. Once every seat is
// filled, one last round moves the winners' ballots to "final round
// surplus" rather than to other candidates. Decimal arithmetic follows
// Java's BigDecimal (see Decimal), so scales print as RCTab's.
//
// Eliminations, in a round without winners, when seats remain (or counting
// continues until two candidates remain, or in percentage bottoms-up), by
// the first rule that applies: the undeclared write-in entry if it has
// votes; every candidate below minimumVoteThreshold (the count stops if
// that is every declared candidate); with batchElimination, every
// candidate whose votes, added up from the bottom, cannot reach the next
// candidate up, when that is more than one candidate (keeping two
// candidates when continuing until two remain); else the single candidate
// with the fewest votes, a tie broken by the tie-break.
//
// The count stops after stopTabulationEarlyAfterRound rounds; when every
// declared candidate has won; with continueUntilTwoCandidatesRemain, when
// two candidates remain and the last elimination has been counted; in
// percentage bottoms-up, once there are winners; otherwise once every
// seat is filled, after one more round to move the last surpluses in
// multi-seat counts. multiPassIrv counts one seat per pass, each pass's
// winner left out of the next.
//
// # Tie-breaks
//
// Tied candidates are first sorted by name (Java string order). Then, by
// tiebreakMode: useCandidateOrder (or usePermutationInConfig) picks the
// winner that comes first in the contest's candidate order, or the loser
// that comes last; generatePermutation does the same with the candidate
// names sorted and shuffled by java.util.Random(randomSeed) exactly as
// Collections.shuffle does; random draws java.util.Random(randomSeed)'s
// next nextDouble d and takes the sorted list's entry floor(d × n), one
// generator per pass, so seeds reproduce RCTab's draws; previousRoundCounts
// looks back one round at a time for the single candidate with the most
// votes (picking a winner) or fewest (a loser) among those still tied,
// keeping them in the order of a Java HashSet as RCTab does, then falls
// back to a random draw (previousRoundCountsThenRandom) or to a person
// (previousRoundCountsThenAsk); stopCountingAndAsk asks a person at once.
// A person answers through a Decider; without one the count stops with
// ErrTieNeedsDecision. Every decision is recorded (Result.TieBreaks,
// Round.TieBroken) so reports can mark it.
//
// # Pairwise and positional methods
//
// The preference matrix P[i][j] counts ballots ranking i strictly above j;
// a candidate left off a ballot ranks below every candidate on it (with
// WithExplicitRanking it takes part in no comparison), candidates at the
// same rank are tied, excluded candidates and the overvote label are left
// out. i beats j when P[i][j] > P[j][i]. These results are pure: ties are
// never broken, tied candidates share a place and the next place skips.
//
// Schulze (winning votes): the strength of a path is its weakest link, a
// link i→j existing when i beats j with strength P[i][j]; i is ahead of j
// when the strongest path from i to j is stronger than from j to i. Places
// go to the remaining candidates nobody remaining is ahead of, repeatedly.
// The widest paths over every link weighted by its raw count are reported
// too, as VoteDesk's seed system shows them. Ranked Pairs (Tideman) locks
// defeats from strongest to weakest, skipping any that would close a
// cycle; strength is the winning votes (more winning votes first, then
// fewer losing votes) or the margin; defeats of equal strength are locked
// together and those that close a cycle among themselves are left out.
// Copeland scores wins minus losses. Minimax scores each candidate by its
// worst result: the largest winning vote against it in a defeat (winning),
// the largest margin against it (margin), or the largest vote against it
// (opposition); lowest wins. Kemeny-Young finds the rankings maximising the
// sum of P[i][j] over i ranked above j, exactly, for up to ten candidates;
// i is ahead of j when it is in every best ranking. Borda gives each ballot
// candidate one point plus one per counted candidate ranked below it
// (unranked candidates get one point); Dowdall gives 1/(1+p) to a
// candidate with p candidates ranked above it (exact fractions; scores
// shown to six places). Plurality counts first choices, ignoring ballots
// whose first rank is an overvote. The Smith set is the smallest set whose
// members each beat or tie everyone outside it; the Schwartz set is the
// union of the minimal sets nobody outside beats.
package tally
