package tally

// Preferences reads a ballot's marks as one fixed preference list, for
// methods that see each ballot as a list (RAIRE's assertions and the
// audits built on them): the candidates the instant-runoff count would give
// the ballot to, in order, as the candidates before them are eliminated.
// It reads the marks as the count does (counter.place), with the rules'
// limits on skipped ranks, repeated candidates and overvotes ending the
// list where the count would exhaust the ballot; excluded candidates
// (c.Candidates[i].Excluded) are passed over, and a candidate marked again
// keeps its first place. It appends to out.
//
// It reports false when no fixed list reads the ballot as the count does:
// under exhaustIfMultipleContinuing, a rank marking two or more candidates
// exhausts the ballot only while two of them continue, so what the ballot
// counts for depends on who is left.
func Preferences(out []int, c Contest, r Rules, marks []Mark) ([]int, bool) {
	if len(marks) == 0 {
		return out, true
	}
	start := len(out)
	listed := func(cand int) bool {
		for _, p := range out[start:] {
			if p == cand {
				return true
			}
		}
		return false
	}
	live := func(cand uint16) bool {
		return cand != Overvote && int(cand) < len(c.Candidates) && !c.Candidates[cand].Excluded
	}
	lastRank := 0
	for i := 0; i < len(marks); {
		rank := int(marks[i].Rank)
		if r.MaxSkippedRanksAllowed != Unlimited && rank-lastRank > r.MaxSkippedRanksAllowed+1 {
			return out, true
		}
		lastRank = rank
		j := i + 1
		for j < len(marks) && int(marks[j].Rank) == rank {
			j++
		}
		if r.ExhaustOnDuplicateCandidate && repeats(marks, i, j) {
			return out, true
		}
		if j-i == 1 && marks[i].Candidate != Overvote {
			if cand := int(marks[i].Candidate); live(marks[i].Candidate) && !listed(cand) {
				out = append(out, cand)
			}
			i = j
			continue
		}
		switch r.OvervoteRule {
		case ExhaustImmediately:
			return out, true
		case AlwaysSkipToNextRank:
			i = j
			continue
		}
		// exhaustIfMultipleContinuing: the rank counts for its one mark
		// still in the running, or is passed over when none is (a
		// candidate marked twice at the rank is two marks, as the count
		// sees them).
		var only []int
		for _, m := range marks[i:j] {
			if live(m.Candidate) && !listed(int(m.Candidate)) {
				only = append(only, int(m.Candidate))
			}
		}
		if len(only) > 1 {
			return out, false
		}
		out = append(out, only...)
		i = j
	}
	return out, true
}
