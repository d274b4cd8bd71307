package tally

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
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

// TestCheckedPairwiseAgrees: addChecked (the check and the pairwise count
// in one reading of a ballot's marks) refuses what check.run refuses, with
// the same message, and counts what add counts, on sets of usual and odd
// ballots: ties at a rank, skipped and repeated ranks, ranks out of order
// or past maxRankingsAllowed, overvote labels, unknown and excluded
// candidates, zero counts, ends out of order.
func TestCheckedPairwiseAgrees(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 28))
	refused := 0
	for trial := range 600 {
		nc := 1 + rng.IntN(maskCandidates)
		// Every third set holds only ballots the check lets through (sorted,
		// nothing out of range: ties, skips, overvote labels), every third a
		// few it refuses, every third marks in any order.
		odd := []int{0, 150, 10}[trial%3]
		b := &BallotSet{}
		var counts []uint32
		for range 1 + rng.IntN(60) {
			var marks []Mark
			rank := uint16(0)
			for range rng.IntN(12) {
				switch rng.IntN(10) {
				case 0: // a tie at a rank
					rank = max(rank, 1)
				case 1:
					rank += 2
				default:
					rank++
				}
				cand := uint16(rng.IntN(nc))
				if rng.IntN(30) == 0 {
					cand = Overvote
				}
				if odd > 0 && rng.IntN(odd) == 0 {
					if rng.IntN(2) == 0 {
						cand = uint16(nc + rng.IntN(3)) // not a candidate
					} else {
						rank = uint16(rng.IntN(4)) // out of order, or 0
					}
				}
				marks = append(marks, Mark{Rank: rank, Candidate: cand})
			}
			if trial%3 != 2 { // as Add builds a set: marks sorted by rank
				sortMarks(marks)
			}
			b.Marks = append(b.Marks, marks...)
			b.Ends = append(b.Ends, uint32(len(b.Marks)))
			count := uint32(1 + rng.IntN(20))
			if odd > 0 && rng.IntN(odd) == 0 {
				count = 0
			}
			counts = append(counts, count)
		}
		if trial%2 == 0 {
			b.Counts = counts // some zero
		}
		if trial%3 == 1 && trial%7 == 0 { // ends out of order or past the marks
			b.Ends[rng.IntN(len(b.Ends))] = uint32(rng.IntN(len(b.Marks) + 5))
		}
		c := benchContest(nc)
		pos := make([]int, nc)
		next := 0
		for i := range pos {
			pos[i] = -1
			if rng.IntN(6) != 0 { // the rest excluded
				pos[i], next = next, next+1
			}
		}
		maxRank := uint16(0xFFFF)
		if trial%3 == 1 && trial%4 == 0 {
			maxRank = uint16(2 + rng.IntN(8))
		}
		chk := ballotCheck{c: c, b: b, maxRank: maxRank, nc: uint16(nc)}
		lo, hi := 0, b.Len()
		if trial%5 == 0 { // a block from the middle, as newPairwise counts
			lo = rng.IntN(hi)
			hi = lo + rng.IntN(hi-lo+1)
		}
		got, want := newPairCounts(next), newPairCounts(next)
		gotErr := got.addChecked(b, pos, lo, hi, &chk)
		wantErr := chk.run(lo, hi)
		if wantErr == nil {
			want.add(b, pos, lo, hi)
		}
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
			t.Fatalf("trial %d: addChecked says %v, the check %v", trial, gotErr, wantErr)
		}
		if wantErr != nil {
			refused++
			continue
		}
		got.spread()
		want.spread()
		if !slices.Equal(got.above, want.above) || !slices.Equal(got.tied, want.tied) || !slices.Equal(got.ranked, want.ranked) {
			t.Fatalf("trial %d: addChecked counted\nabove %v tied %v ranked %v\nadd counted\nabove %v tied %v ranked %v",
				trial, got.above, got.tied, got.ranked, want.above, want.tied, want.ranked)
		}
	}
	if refused < 100 || refused > 500 {
		t.Fatalf("%d of 600 sets refused: the test should see both refused and counted sets", refused)
	}
}
