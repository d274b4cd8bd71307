package raire

import (
	"slices"

	"votedesk/tally"
)

// FromBallots turns a contest's ballots into RAIRE's votes: each ballot's
// candidates in rank order, a candidate ranked again kept at its first
// rank, skipped ranks passed over, and the ballot ending at an overvote (a
// rank with two candidates, or a CVR's overvote mark), as an audit of an
// IRV count whose overvotes exhaust the ballot reads it. Excluded
// candidates are left off. Identical ballots are merged.
func FromBallots(c tally.Contest, b *tally.BallotSet) []Vote {
	index := map[string]int{}
	var votes []Vote
	key := make([]byte, 0, 32)
	for i := range b.Len() {
		marks, n := b.Ballot(i)
		var prefs []int
	read:
		for j := 0; j < len(marks); {
			k := j
			for k < len(marks) && marks[k].Rank == marks[j].Rank {
				k++
			}
			if k-j > 1 || marks[j].Candidate == tally.Overvote {
				break read
			}
			cand := int(marks[j].Candidate)
			if cand < len(c.Candidates) && !c.Candidates[cand].Excluded && !slices.Contains(prefs, cand) {
				prefs = append(prefs, cand)
			}
			j = k
		}
		key = key[:0]
		for _, p := range prefs {
			key = append(key, byte(p), byte(p>>8))
		}
		if at, ok := index[string(key)]; ok {
			votes[at].N += uint64(n)
			continue
		}
		index[string(key)] = len(votes)
		votes = append(votes, Vote{N: uint64(n), Prefs: prefs})
	}
	return votes
}
