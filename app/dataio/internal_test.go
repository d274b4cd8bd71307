package dataio

import (
	"fmt"
	"slices"

	"votedesk/app"
)

// Check reports the first ballot of the import a VoteDesk election would
// not hold (app.CheckCast), not sorted by rank, or with a missing or
// repeated source id.
func (im *CVRImport) Check(names []string) error {
	ids := map[string]bool{}
	ballots := im.Batch(0, im.Len())
	for i, b := range ballots {
		if id := im.SourceID(i); id != b.SourceID {
			return fmt.Errorf("ballot %d: SourceID says %q, Batch %q", i+1, id, b.SourceID)
		}
		if b.SourceID == "" || ids[b.SourceID] {
			return fmt.Errorf("ballot %d: source id %q is empty or repeated", i+1, b.SourceID)
		}
		ids[b.SourceID] = true
		if err := app.CheckCast(b.Rankings, names); err != nil {
			return fmt.Errorf("ballot %d (%s): %v: %+v", i+1, b.SourceID, err, b.Rankings)
		}
		if !slices.IsSortedFunc(b.Rankings, func(x, y app.Ranking) int { return x.Rank - y.Rank }) {
			return fmt.Errorf("ballot %d (%s): not sorted by rank: %+v", i+1, b.SourceID, b.Rankings)
		}
	}
	if len(ballots) != im.Ballots {
		return fmt.Errorf("%d ballots, summary says %d", len(ballots), im.Ballots)
	}
	return nil
}
