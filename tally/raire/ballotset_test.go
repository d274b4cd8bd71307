package raire

import (
	"slices"
	"strings"
	"testing"

	"votedesk/tally"
)

// TestFromBallots: under RCTab's default rules, ranks in order, a repeat
// kept at its first rank, a skip passed over, an overvote ending the
// ballot, an excluded candidate left off, identical ballots merged.
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
	got, err := FromBallots(c, tally.DefaultRules(), b)
	if err != nil {
		t.Fatal(err)
	}
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

// TestFromBallotsRefusesABallotWithNoList: under exhaustIfMultipleContinuing
// an overvote of two continuing candidates has no fixed list; the error
// names the ballot.
func TestFromBallotsRefusesABallotWithNoList(t *testing.T) {
	c := tally.Contest{Candidates: []tally.Candidate{{Name: "A"}, {Name: "B"}, {Name: "C"}}}
	b := &tally.BallotSet{}
	for _, marks := range [][]tally.Mark{{{Rank: 1, Candidate: 0}}, {{Rank: 1, Candidate: 1}, {Rank: 1, Candidate: 2}}} {
		if err := b.Add("", 1, marks); err != nil {
			t.Fatal(err)
		}
	}
	r := tally.DefaultRules()
	r.OvervoteRule = tally.ExhaustIfMultipleContinuing
	_, err := FromBallots(c, r, b)
	if err == nil || !strings.HasPrefix(err.Error(), "raire: ballot 2: an overvote under exhaustIfMultipleContinuing") {
		t.Fatalf("err = %v", err)
	}
}
