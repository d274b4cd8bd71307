package tally

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortMarksStable checks sortMarks against a stable sort by rank on
// random ballots: short and long, ranks small and large, some repeated.
func TestSortMarksStable(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	for range 20000 {
		n := rng.IntN(40)
		maxRank := []int{3, 10, 31, 32, 40, 70000}[rng.IntN(6)]
		m := make([]Mark, n)
		for i := range m {
			m[i] = Mark{Rank: uint16(1 + rng.IntN(min(maxRank, 0xFFFF))), Candidate: uint16(i)}
		}
		want := slices.Clone(m)
		slices.SortStableFunc(want, func(a, b Mark) int { return int(a.Rank) - int(b.Rank) })
		sortMarks(m)
		if !slices.Equal(m, want) {
			t.Fatalf("sorted %v, want %v", m, want)
		}
	}
}
