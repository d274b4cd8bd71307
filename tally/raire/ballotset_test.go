package raire

import (
	"slices"
	"testing"

	"votedesk/tally"
)

// TestFromBallots: ranks in order, a repeat kept at its first rank, a skip
// passed over, an overvote ending the ballot, an excluded candidate left
// off, identical ballots merged.
func TestFromBallots(t *testing.T) {
	c := tally.Contest{Candidates: []tally.Candidate{{Name: "A"}, {Name: "B"}, {Name: "C"}, {Name: "X", Excluded: true}}}
	b := &tally.BallotSet{}
	add := func(n uint32, marks ...tally.Mark) {
		if err := b.Add("", n, marks); err != nil {
			t.Fatal(err)
		}
	}
	m := func(rank, cand uint16) tally.Mark { return tally.Mark{Rank: rank, Candidate: cand} }
	add(2, m(1, 0), m(2, 1))
	add(1, m(1, 0), m(3, 1))                   // skipped rank 2
	add(1, m(1, 2), m(2, 2), m(3, 0))          // C twice
	add(1, m(1, 1), m(2, 0), m(2, 2), m(3, 2)) // overvote at rank 2
	add(1, m(1, 3), m(2, 2))                   // excluded X
	add(1, m(1, tally.Overvote))
	got := FromBallots(c, b)
	want := []Vote{{N: 3, Prefs: []int{0, 1}}, {N: 1, Prefs: []int{2, 0}}, {N: 1, Prefs: []int{1}}, {N: 1, Prefs: []int{2}}, {N: 1, Prefs: nil}}
	if len(got) != len(want) {
		t.Fatalf("votes %v, want %v", got, want)
	}
	for i := range want {
		if got[i].N != want[i].N || !slices.Equal(got[i].Prefs, want[i].Prefs) {
			t.Errorf("vote %d: %v, want %v", i, got[i], want[i])
		}
	}
}
