package raire

import (
	"fmt"

	"votedesk/tally"
)

// FromBallots turns a contest's ballots into RAIRE's votes: each ballot
// read as the instant-runoff count under rules reads it
// (tally.Preferences), so skipped ranks, repeated candidates and overvotes
// end or pass over a ballot's list exactly where the count would; excluded
// candidates are left off. Identical ballots are merged. It fails, naming
// the first such ballot (numbered from 1), when a ballot has no fixed list
// under the rules (an overvote under exhaustIfMultipleContinuing): RAIRE's
// assertions assume each ballot is one list.
func FromBallots(c tally.Contest, r tally.Rules, b *tally.BallotSet) ([]Vote, error) {
	index := map[string]int{}
	var votes []Vote
	key := make([]byte, 0, 32)
	var prefs []int
	for i := range b.Len() {
		marks, n := b.Ballot(i)
		var fixed bool
		prefs, fixed = tally.Preferences(prefs[:0], c, r, marks)
		if !fixed {
			return nil, &FieldError{Field: fmt.Sprintf("ballot %d", i+1),
				Msg: fmt.Sprintf("an overvote under %s makes what it counts for depend on who is still in the count; RAIRE's assertions need every ballot to be one list of preferences (audit under %s or %s)",
					r.OvervoteRule, tally.ExhaustImmediately, tally.AlwaysSkipToNextRank)}
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
		votes = append(votes, Vote{N: uint64(n), Prefs: append([]int(nil), prefs...)})
	}
	return votes, nil
}
