package app

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestIDSetAgreesWithAMap holds IDSet to a map of strings on random ids
// with many repeats. Half the rounds keep two bits of each hash, so most
// ids share their hash with others and take the path that compares text.
func TestIDSetAgreesWithAMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for round := range 400 {
		n := 1 + rng.IntN(300)
		ids := make([]string, n)
		for i := range ids {
			ids[i] = fmt.Sprintf("r%d", rng.IntN(2*n))
		}
		set := NewIDSet(0, func(i int) string { return ids[i] })
		if round%2 == 1 {
			set.mask = 3
		}
		want := map[string]int{}
		for i, id := range ids {
			j, dup := set.Add(id, i)
			w, wdup := want[id]
			if dup != wdup || dup && j != w {
				t.Fatalf("round %d: Add(%q, %d) = %d, %v; a map says %d, %v", round, id, i, j, dup, w, wdup)
			}
			if !wdup {
				want[id] = i
			}
		}
		if set.Len() != len(want) {
			t.Fatalf("round %d: Len %d, want %d", round, set.Len(), len(want))
		}
		for k := range 2 * n {
			id := fmt.Sprintf("r%d", k)
			j, ok := set.Find([]byte(id))
			w, wok := want[id]
			if ok != wok || ok && j != w {
				t.Fatalf("round %d: Find(%q) = %d, %v; want %d, %v", round, id, j, ok, w, wok)
			}
		}
	}
}
