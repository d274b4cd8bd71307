package tally

import (
	"reflect"
	"testing"
)

// TestPairCountsTableSameAsPairs checks the per-candidate table against
// the plain pair-by-pair count, ties, duplicates and counts included.
func TestPairCountsTableSameAsPairs(t *testing.T) {
	b := benchBallots(20000, 8)
	b.Add("", 3, []Mark{{1, 2}, {1, 5}, {2, 2}, {3, 7}, {3, Overvote}})
	b.Add("", 2, []Mark{{1, 4}, {2, 4}, {4, 1}})
	pos := []int{0, 1, 2, 3, 4, 5, 6, 7}
	withTable, plain := newPairCounts(8), newPairCounts(8)
	plain.byMask = nil
	withTable.add(b, pos, 0, b.Len())
	withTable.spread()
	plain.add(b, pos, 0, b.Len())
	for _, explicit := range []bool{false, true} {
		if got, want := withTable.preferences(explicit), plain.preferences(explicit); !reflect.DeepEqual(got, want) {
			t.Errorf("explicit=%v: table gives %v, pairs give %v", explicit, got, want)
		}
	}
}
