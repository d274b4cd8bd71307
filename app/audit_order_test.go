package app

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
)

// TestNaturalCompare: record ids order with their numbers compared as
// numbers, and the order is total (antisymmetric, transitive, zero only
// for equal text), so a batch's records have one order on every device.
func TestNaturalCompare(t *testing.T) {
	in := []string{"5-12-10", "5-12-9", "b10", "b2", "007", "7", "", "a", "5-12-100", "5-2-99", "x1y2", "x1y10", "10", "9"}
	got := slices.Clone(in)
	slices.SortFunc(got, naturalCompare)
	want := []string{"", "5-2-99", "5-12-9", "5-12-10", "5-12-100", "007", "7", "9", "10", "a", "b2", "b10", "x1y2", "x1y10"}
	if !slices.Equal(got, want) {
		t.Errorf("sorted: %q\nwant    %q", got, want)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	word := func() string {
		b := make([]byte, rng.IntN(6))
		for i := range b {
			b[i] = "01-9a0"[rng.IntN(6)]
		}
		return string(b)
	}
	for range 20000 {
		a, b, c := word(), word(), word()
		ab, ba := naturalCompare(a, b), naturalCompare(b, a)
		if ab != -ba || (ab == 0) != (a == b) {
			t.Fatalf("compare(%q, %q) = %d, reversed %d", a, b, ab, ba)
		}
		if ab <= 0 && naturalCompare(b, c) <= 0 && naturalCompare(a, c) > 0 {
			t.Fatalf("not transitive: %q <= %q <= %q but %q > %q", a, b, c, a, c)
		}
	}
	// Plain numbers order as numbers, as the record ids of most files are.
	for range 1000 {
		x, y := rng.IntN(100000), rng.IntN(100000)
		if got := naturalCompare(strconv.Itoa(x), strconv.Itoa(y)); got != cmp.Compare(x, y) {
			t.Fatalf("compare(%d, %d) = %d", x, y, got)
		}
	}
}
