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

// TestCondorcetWinner: the candidate who beats each other one head to head
// is the Condorcet winner; in a cycle nobody is; an excluded candidate
// never is; a head-to-head tie is no win.
func TestCondorcetWinner(t *testing.T) {
	p := &Pairwise{Candidates: []int{2, 0, 1}, Preferences: [][]int64{
		{0, 6, 7}, // candidate 2
		{4, 0, 5}, // candidate 0
		{3, 5, 0}, // candidate 1
	}}
	for c, want := range map[int]bool{2: true, 0: false, 1: false, 3: false} {
		if got := p.CondorcetWinner(c); got != want {
			t.Errorf("CondorcetWinner(%d) = %v, want %v", c, got, want)
		}
	}
	cycle := &Pairwise{Candidates: []int{0, 1, 2}, Preferences: [][]int64{{0, 6, 4}, {4, 0, 6}, {6, 4, 0}}}
	tie := &Pairwise{Candidates: []int{0, 1}, Preferences: [][]int64{{0, 5}, {5, 0}}}
	for c := range 3 {
		if cycle.CondorcetWinner(c) || tie.CondorcetWinner(c%2) {
			t.Errorf("candidate %d is a Condorcet winner of a cycle or a tie", c)
		}
	}
}
