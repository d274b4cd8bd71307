package tally

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
)

// withoutCursors places every ballot from its marks in every round, as the
// count did before cursors (see cursor).
func withoutCursors() Option { return func(o *options) { o.noCursors = true } }

// oddBallots returns n ballots over k candidates with what real ballots
// hold besides plain rankings: skipped ranks, overvotes (two candidates at
// a rank, or the overvote label), candidates ranked twice, ballots longer
// than a cursor's six choices, and empty ballots.
// label says whether the overvote label may appear (exhaustIfMultipleContinuing
// refuses it).
func oddBallots(rng *rand.Rand, n, k int, label bool) *BallotSet {
	b := &BallotSet{}
	for range n {
		var marks []Mark
		rank := uint16(0)
		for range rng.IntN(k + 3) {
			switch x := rng.IntN(40); {
			case x == 0:
				rank += 2 // a rank skipped
			case x == 1 && rank > 0: // another mark at the same rank
			default:
				rank++
			}
			if int(rank) > k {
				break
			}
			c := uint16(rng.IntN(k))
			if label && rng.IntN(60) == 0 {
				c = Overvote
			}
			if len(marks) > 0 && marks[len(marks)-1].Rank == rank && (c == Overvote || marks[len(marks)-1].Candidate == Overvote) {
				continue // the overvote label stands alone at its rank
			}
			marks = append(marks, Mark{Rank: rank, Candidate: c})
		}
		b.Add("", 1+uint32(rng.IntN(2)), marks)
	}
	return b
}

// TestCursorsSameAsMarks counts the same ballots with cursors and from
// the marks in every round, under every overvote rule, skipped-rank limit
// and repeated-candidate rule, for one seat and three, with the audit
// trail and precinct tallies, and compares everything.
func TestCursorsSameAsMarks(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 27))
	for _, k := range []int{4, 12, 16, 17} {
		c := benchContest(k)
		c.Candidates[k-1].Excluded = k%2 == 0
		labelled, unlabelled := oddBallots(rng, 3000, k, true), oddBallots(rng, 3000, k, false)
		precinct := Grouping{Name: "precinct", Names: []string{"P1", "P2", "P3"}, Of: make([]uint32, labelled.Len())}
		for i := range precinct.Of {
			precinct.Of[i] = uint32(rng.IntN(3))
		}
		for _, ov := range OvervoteRules {
			b := labelled
			if ov == ExhaustIfMultipleContinuing {
				b = unlabelled
			}
			for skip := -1; skip <= 1; skip++ {
				for _, dup := range []bool{false, true} {
					for _, seats := range []int{1, 3} {
						r := DefaultRules()
						r.OvervoteRule, r.MaxSkippedRanksAllowed, r.ExhaustOnDuplicateCandidate = ov, skip, dup
						r.MaxRankingsAllowed = MaxRankingsAll
						m := IRV
						if seats > 1 {
							m, r.NumberOfWinners, r.WinnerElectionMode = STV, seats, MultiWinnerAllowMultipleWinnersPerRound
						}
						name := fmt.Sprintf("%d candidates/%s/skip %d/dup %v/%d seats", k, ov, skip, dup, seats)
						with, err := Tabulate(c, b, m, r, WithAudit(), WithGroups(precinct))
						if err != nil {
							t.Fatalf("%s: %v", name, err)
						}
						without, err := Tabulate(c, b, m, r, WithAudit(), WithGroups(precinct), withoutCursors())
						if err != nil {
							t.Fatalf("%s: %v", name, err)
						}
						if !reflect.DeepEqual(with, without) {
							t.Errorf("%s: the count with cursors differs from the count from the marks", name)
						}
						if len(with.Passes[0].Rounds) < min(k/2, 4) {
							t.Errorf("%s: %d rounds; the test moves too few ballots", name, len(with.Passes[0].Rounds))
						}
					}
				}
			}
		}
	}
}

// TestCursorsSameAsMarksMillion: the benchmark's million ballots, counted
// both ways on both cores.
func TestCursorsSameAsMarksMillion(t *testing.T) {
	if testing.Short() {
		t.Skip("a million ballots")
	}
	b := benchBallots(300_000, 10)
	c := benchContest(10)
	with, err := Tabulate(c, b, IRV, DefaultRules(), WithAudit())
	if err != nil {
		t.Fatal(err)
	}
	without, err := Tabulate(c, b, IRV, DefaultRules(), WithAudit(), withoutCursors())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(with, without) {
		t.Error("the count with cursors differs from the count from the marks")
	}
}
