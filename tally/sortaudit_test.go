package tally

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortAudit: a round's audit entries (each ballot record at most once)
// come out in record order whatever runs they arrive in: one run, a few
// (merged), many (placed), and few entries (sorted); scratch is all -1
// again after each call.
func TestSortAudit(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	var scratch []int32
	var buf []AuditEntry
	placed := 0
	for trial := range 400 {
		n := rng.IntN(5000)
		switch {
		case trial%50 == 0:
			n = rng.IntN(3)
		case trial%10 == 0:
			n = 3 * maxAuditRuns // enough runs to place, not merge
		}
		// Distinct records, cut into runs each sorted.
		recs := rng.Perm(n * 3)[:n]
		runs := 1 + rng.IntN(n+1)
		switch {
		case trial%10 == 0:
			runs = n
		case trial%3 == 0:
			runs = 1 + rng.IntN(4)
		}
		es := make([]AuditEntry, n)
		for i, r := range recs {
			es[i] = AuditEntry{Round: 2, Ballot: int32(r), Candidate: int32(r % 7), value: int32(i)}
		}
		cuts := []int{0}
		for range runs - 1 {
			cuts = append(cuts, rng.IntN(n+1))
		}
		cuts = append(cuts, n)
		slices.Sort(cuts)
		for i := 0; i+1 < len(cuts); i++ {
			slices.SortFunc(es[cuts[i]:cuts[i+1]], func(a, b AuditEntry) int { return cmp.Compare(a.Ballot, b.Ballot) })
		}
		descents := 0
		for i := 1; i < n; i++ {
			if es[i].Ballot < es[i-1].Ballot {
				descents++
			}
		}
		if descents > maxAuditRuns {
			placed++
		}
		want := slices.Clone(es)
		slices.SortFunc(want, func(a, b AuditEntry) int { return cmp.Compare(a.Ballot, b.Ballot) })
		scratch, buf = sortAudit(es, scratch, buf)
		if !slices.Equal(es, want) {
			t.Fatalf("trial %d (%d entries, %d runs): not in record order", trial, n, runs)
		}
		for i, s := range scratch {
			if s != -1 {
				t.Fatalf("trial %d: scratch[%d] = %d after the call", trial, i, s)
			}
		}
	}
	if placed == 0 {
		t.Error("no trial had enough runs to be placed rather than merged")
	}
}
