// Package rla is the mathematics of a risk-limiting audit of an IRV
// contest: the ballot manifest, the public seed, the sample anyone can
// reproduce, and the measured risk of each of RAIRE's assertions. It
// follows Stark, "Sets of half-average nulls generate risk-limiting
// audits: SHANGRLA" (2020), for the assorters, and Stark, "ALPHA: Audit
// that Learns from Previously Hand-Audited Ballots" (2023), for the test;
// nothing is taken from SHANGRLA's, Arlo's or raire-rs's code. It uses the
// standard library only.
//
// A risk-limiting audit either confirms the reported winner or leads to a
// full hand count, and if the reported winner is wrong the chance that it
// confirms is at most the risk limit α (say 5%).
//
// # Manifest and sample
//
// The manifest (ReadManifest) lists the batches of paper ballots and how
// many each holds. Ballots are numbered 1 to N in manifest order: the
// batches in file order, and within a batch by position.
//
// The seed is at least 20 digits rolled with dice in public (CheckSeed).
// Sample draws ballots as Rivest's sampler.py does (the method of
// ColoradoRLA and of Stark's online SHA-256 sampler): draw i = 1, 2, ... is
// ballot number
//
//	1 + (SHA-256(seed + "," + i) read as a hexadecimal number) mod N
//
// with i in decimal and the seed as entered (spaces at its ends removed).
// The tests check it against the published test vectors of sampler.py
// (github.com/cjerdonek/rivest-sampler-tests). An observer can repeat it
// in a few lines of Python:
//
//	import hashlib
//	def draw(seed, i, N):
//	    h = hashlib.sha256(f"{seed},{i}".encode()).hexdigest()
//	    return 1 + int(h, 16) % N
//
// Draws are with replacement, independent and uniform, so every draw has
// the same null mean (below) however many came before; a ballot drawn
// twice is examined once and counts twice. Round k's sample is the first
// n_k draws, so each round extends the last.
//
// # Assorters
//
// Each RAIRE assertion becomes an assorter A: a number for each ballot,
// between 0 and u = 1, whose mean over all the ballots exceeds 1/2 exactly
// when the assertion is true (Assort):
//
//   - NEB(w, l), "w is not eliminated before l": A = (1 + [w is the first
//     preference] - [l is ranked above w, or ranked and w is not]) / 2.
//   - NEN(w, l, S), "with S left, w is not eliminated next": counting the
//     ballot for its first candidate in S, A = (1 + [it is w] - [it is
//     l]) / 2.
//
// So A is 1 for a ballot that counts for w, 0 for one that counts for l,
// and 1/2 otherwise. Over the N manifest ballots the mean is 1/2 + (W -
// L)/(2N), W and L the assertion's tallies. The audit tests, for each
// assertion, the null hypothesis that the mean is at most 1/2; rejecting
// every null at level α confirms the outcome, since if the reported winner
// lost some assertion is false, and its test rejects with chance at most
// α.
//
// The reported diluted margin of an assertion is v = 2 Ā - 1 = (W - L)/N,
// Ā the mean over the cast vote records, the N minus (number of records)
// phantoms counted 1/2 (no vote), as SHANGRLA section 3.4 does.
//
// # Phantoms and missing ballots
//
// Following SHANGRLA section 3.4 and Bañuelos and Stark, "Limiting risk by
// turning manifest phantoms into evil zombies" (2012), whatever cannot be
// checked is taken at its worst: a ballot not found reads A = 0 (a vote
// for the loser) in every assertion; in a comparison audit a phantom (a
// manifest ballot with no record) has record value 1/2 and paper value 0,
// whatever the board finds. In a polling audit there are no records, and a
// phantom ballot that is found is read like any other.
//
// # Comparison audits
//
// A comparison audit compares each drawn paper ballot with its record. The
// overstatement is ω = A(record) - A(paper), one of -1, -1/2, 0, 1/2, 1,
// and SHANGRLA's overstatement assorter
//
//	B = (1 - ω/u) / (2 - v/u),  u = 1
//
// has mean above 1/2 exactly when A's mean over the paper is above 1/2.
// Writing b = 1/(2 - v), B is b for no discrepancy, b/2 for a one-vote
// overstatement (O1, ω = 1/2), 0 for a two-vote overstatement (O2, ω = 1),
// 3b/2 and 2b for one- and two-vote understatements (U1, U2). A two-vote
// overstatement is a ballot recorded for the assertion's winner whose
// paper counts for its loser. The draws X_i are values of B (comparison)
// or of A (polling).
//
// # The risk
//
// Each assertion is tested with ALPHA's test supermartingale, written as
// a bet:
//
//	T_0 = 1,  T_j = T_{j-1} (1 + λ_j (X_j - 1/2)),  0 <= λ_j < 2
//
// where λ_j depends only on the draws before j. ALPHA writes the same
// factor as (X_j η_j/μ + (u - X_j)(u - η_j)/(u - μ)) / u with μ = 1/2 and
// η_j = μ(1 + λ_j(u - μ)) the estimated mean. Under the null each draw's
// mean is at most 1/2 (with replacement, μ stays 1/2), so E[factor] <= 1
// and T is a nonnegative supermartingale; by Ville's inequality the chance
// it ever reaches 1/α is at most α. The measured risk after n draws is
//
//	risk = min(1, 1 / max_{j<=n} T_j)
//
// and an assertion is confirmed when risk <= α. The audit may stop or go
// on at any point without spoiling this: the risk is anytime-valid.
//
// How λ_j is chosen decides only how quickly a true outcome is confirmed,
// never the risk limit:
//
//   - Polling: ALPHA's truncated shrinkage estimator (section 2.5.2), from
//     the reported mean η_0 = (1 + v)/2: η_j = (d η_0 + S)/(d + j - 1), S
//     the sum of the j - 1 draws so far, with d = 100 (the default of
//     rlauxe, a port of SHANGRLA, chosen from its simulations), kept at
//     least 1/2 + c/sqrt(d + j - 1) with c = (η_0 - 1/2)/2 and below u(1 -
//     10⁻⁶); λ_j = (η_j/μ - 1)/(u - μ). With η_j fixed at η_0 and no
//     ballot worth 1/2 this is BRAVO; shrinkage lets the bet follow the
//     sample when the reported shares were wrong.
//   - Comparison: the bet that maximizes the expected log growth of T
//     (Kelly's bet, as in Spertus, "COBRA: Comparison-Optimal Betting for
//     Risk-limiting Audits", 2023), for the discrepancy rates estimated
//     from the draws so far: each kind's count shrunk toward the planning
//     rates DefaultExpect (one-vote overstatements 1 in 1,000, two-vote 1
//     in 10,000: SHANGRLA's planning rates) with the weight of d = 100
//     draws, so a long clean run lets the bet grow, even where the margin
//     is smaller than the planning rates would allow. A comparison needs
//     bets near 2 to be efficient: ALPHA's shrinkage
//     toward B's no-discrepancy mean b would bet about 0.05 at v = 0.05 and
//     need thousands of draws; a fixed bet near 2 is ruined by a few
//     overstatements; the estimated rates make the bet back off as
//     overstatements appear. Kaplan-Markov (super-simple) is not used: it
//     needs an error inflation γ chosen in advance, and ALPHA covers both
//     kinds of audit in one test.
//
// # Sample sizes
//
// The estimates use the expected log growth: a projected draw adds to log
// T the expected log factor of the bet it would get, E[log(1 + λ(X -
// 1/2))], over the outcome shares expected, and advances the counts the
// next bet is chosen from by those shares. (Projecting discrepancies
// deterministically spread through the sample instead makes the adaptive
// bet chase the sequence's pattern and overstate the need.) The estimate
// is the first n at which every assertion's projected risk reaches α:
// roughly the median sample size if the sample is as expected.
//
// InitialSampleSize projects, for comparison, the discrepancy rates of its
// Expect argument (zero means DefaultExpect); for polling, the reported
// shares of 1, 1/2 and 0. For a diluted margin of 0.05 at α = 0.05 a
// comparison needs 125 draws: the least any test with these bounds can
// need is ⌈ln(1/α)/ln(2/(2 - v))⌉ = 119, Kaplan-Markov with γ = 1.03905
// and no discrepancies 2γ ln(1/α)/v = 124.5, and Arlo, planning one
// one-vote over- and understatement, 136. For polling the estimate is
// within 3% of BRAVO's expected sample size.
//
// Status.NextRound, after n draws, projects each unconfirmed assertion
// from its current T with the rates its bet now expects (the observed
// counts shrunk toward the planning rates, or toward the reported shares
// in polling), takes the largest need, and asks for at least half the
// sample so far again. The audit escalates to a full hand count
// (Status.FullHandCount) when n plus that round reaches the manifest's
// size, or when some assertion's projection does not reach α within the
// rest of the manifest, or never can (the bet its rule settles on at those
// rates does not gain). A projection goes draw by draw for 100,000 draws,
// then extrapolates at the growth of the last one, so even a manifest of
// 100 million ballots is estimated quickly. Escalation is advice: when a
// projection escalated the audit but a round of half the sample again still
// fits within the manifest, Status.Continue is that round, which officials
// may draw instead (the risk measurement stays valid however many ballots
// are drawn, and whenever it is looked at).
//
// Draws are with replacement, which wastes a little when the sample is a
// large fraction of the manifest; in exchange the null mean never changes
// and the sample is one line of Python to check.
package rla
