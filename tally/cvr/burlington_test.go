package cvr

import (
	"context"
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"

	"votedesk/tally"
)

// TestBurlingtonBLTAndTOIAgree reads the 2009 Burlington mayoral election
// from its BLT and its PrefLib TOI file: 8,980 valid and 4 blank ballots,
// which aggregate to the TOI's 384 distinct orders with the same counts.
func TestBurlingtonBLTAndTOIAgree(t *testing.T) {
	ctx := context.Background()
	blt, err := ReadFile(ctx, Source{Provider: FormatBLT, FilePath: shared(t, "real/burlington_2009_mayor/2009-Burlington-Mayor.blt")}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	toi, err := ReadFile(ctx, Source{FilePath: shared(t, "real/burlington_2009_mayor/00005-00000002.toi")}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if toi.Format != FormatPrefLib {
		t.Errorf("detected %s for the .toi file", toi.Format)
	}
	if blt.Stats.Records != 8984 || blt.Stats.Undervotes != 4 || blt.Ballots.Total() != 8984 {
		t.Errorf("BLT stats %+v, want 8,984 ballots of which 4 blank", blt.Stats)
	}
	if blt.Title != "2009 Burlington Mayor Election" || blt.Seats != 1 || len(blt.Candidates) != 6 || blt.Candidates[0] != "Bob Kiss" {
		t.Errorf("BLT title %q, seats %d, candidates %q", blt.Title, blt.Seats, blt.Candidates)
	}
	if toi.Ballots.Len() != 384 || toi.Ballots.Total() != 8980 || toi.Title != "2009 Burlington Mayoral Election" {
		t.Errorf("TOI has %d orders, %d voters, title %q; want 384, 8,980", toi.Ballots.Len(), toi.Ballots.Total(), toi.Title)
	}
	fromBLT, fromTOI := aggregate(&blt.Ballots), aggregate(&toi.Ballots)
	delete(fromBLT, "")
	if !maps.Equal(fromBLT, fromTOI) {
		for _, k := range slices.Sorted(maps.Keys(fromTOI)) {
			if fromBLT[k] != fromTOI[k] {
				t.Errorf("order %q: BLT %d, TOI %d", k, fromBLT[k], fromTOI[k])
			}
		}
		t.Fatalf("aggregates differ: %d orders from the BLT, %d in the TOI", len(fromBLT), len(fromTOI))
	}
}

// aggregate counts ballots by their order, written with candidate numbers
// (tied candidates sorted), so files that spell names differently compare.
func aggregate(set *tally.BallotSet) map[string]uint64 {
	out := map[string]uint64{}
	for i := range set.Len() {
		marks, n := set.Ballot(i)
		var ranks []string
		for k := 0; k < len(marks); {
			var group []string
			r := marks[k].Rank
			for ; k < len(marks) && marks[k].Rank == r; k++ {
				group = append(group, strconv.Itoa(int(marks[k].Candidate)))
			}
			slices.Sort(group)
			ranks = append(ranks, strconv.Itoa(int(r))+":"+strings.Join(group, "="))
		}
		out[strings.Join(ranks, " ")] += uint64(n)
	}
	return out
}
