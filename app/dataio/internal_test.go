package dataio

import (
	"fmt"
	"slices"
)

// Check reports the first ballot of the import a VoteDesk election would
// not hold: an unknown candidate, a rank outside 1 to the number of
// candidates, a candidate ranked twice, or a missing or repeated source id.
func (im *CVRImport) Check(names []string) error {
	ids := map[string]bool{}
	for i, b := range im.ballots {
		if b.SourceID == "" || ids[b.SourceID] {
			return fmt.Errorf("ballot %d: source id %q is empty or repeated", i+1, b.SourceID)
		}
		ids[b.SourceID] = true
		seen := map[string]bool{}
		for _, r := range b.Rankings {
			if !slices.Contains(names, r.Candidate) || r.Rank < 1 || r.Rank > len(names) || seen[r.Candidate] {
				return fmt.Errorf("ballot %d (%s): ranking %+v of %+v", i+1, b.SourceID, r, b.Rankings)
			}
			seen[r.Candidate] = true
		}
	}
	if len(im.ballots) != im.Ballots {
		return fmt.Errorf("%d ballots, summary says %d", len(im.ballots), im.Ballots)
	}
	return nil
}
