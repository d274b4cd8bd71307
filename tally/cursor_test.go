package tally

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"runtime"
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
						// Without the trail and groups, round 1 takes the
						// usual ballot's own loop (firstRound).
						bare, err := Tabulate(c, b, m, r)
						if err != nil {
							t.Fatalf("%s: %v", name, err)
						}
						bareWithout, err := Tabulate(c, b, m, r, withoutCursors())
						if err != nil {
							t.Fatalf("%s: %v", name, err)
						}
						if !reflect.DeepEqual(bare, bareWithout) {
							t.Errorf("%s, no audit trail: the count with cursors differs from the count from the marks", name)
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

// TestCheckedCompileAgrees: round 1 checks and compiles the usual ballot
// in one reading (ballotCheck.compilePlain). It must take exactly the
// ballots the check passes without a closer look and compilePlain
// compiles, and give the same cursor: a ballot it took that the check
// refuses would be counted, and one it left would only be slower.
func TestCheckedCompileAgrees(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 27))
	for trial := range 400 {
		nc := 1 + rng.IntN(16)
		b := &BallotSet{}
		var counts []uint32
		for range 50 {
			var marks []Mark
			rank := uint16(0)
			for range rng.IntN(10) {
				switch rng.IntN(12) {
				case 0: // a rank repeated
				case 1:
					rank += 2
				case 2:
					rank = uint16(rng.IntN(4)) // out of order, or 0
				default:
					rank++
				}
				marks = append(marks, Mark{Rank: rank, Candidate: uint16(rng.IntN(nc + 2))})
			}
			// Straight into the set, unsorted, as a caller may build it.
			b.Marks = append(b.Marks, marks...)
			b.Ends = append(b.Ends, uint32(len(b.Marks)))
			counts = append(counts, uint32(rng.IntN(20)))
		}
		if trial%2 == 0 {
			b.Counts = counts // some zero
		}
		if trial%5 == 0 { // ends out of order or past the marks
			b.Ends[rng.IntN(len(b.Ends))] = uint32(rng.IntN(len(b.Marks) + 5))
		}
		c := benchContest(nc)
		chk := ballotCheck{c: c, b: b, maxRank: uint16(3 + rng.IntN(10)), nc: uint16(nc)}
		for i := range b.Len() {
			start := uint32(0)
			if i > 0 {
				start = b.Ends[i-1]
			}
			w, ok := chk.compilePlain(i)
			if !chk.plain(i, start, b.Ends[i]) {
				if ok {
					t.Fatalf("trial %d, ballot %d: taken, though the check looks closer at it", trial, i)
				}
				continue
			}
			marks := b.Marks[start:b.Ends[i]]
			want, _, plainOK := compilePlain(marks)
			if wantOK := len(marks) > 0 && plainOK; ok != wantOK || ok && w != want {
				t.Fatalf("trial %d, ballot %v (%d candidates, max rank %d): took %v cursor %x; compilePlain %v cursor %x",
					trial, marks, nc, chk.maxRank, ok, w, plainOK, want)
			}
			if ok && chk.one(i) != nil {
				t.Fatalf("trial %d, ballot %v: taken, but the check refuses it: %v", trial, marks, chk.one(i))
			}
		}
	}
}

// TestSurplusOnBothCoresSameAsOne: a big winner's surplus is cut on both
// cores (cut, splitSegs). Its exact sums must give the count one core
// gives, round by round, with fractional transfers and with counts, and
// with groups (which keep it on one core) too.
func TestSurplusOnBothCoresSameAsOne(t *testing.T) {
	if testing.Short() {
		t.Skip("300,000 ballots")
	}
	b := benchBallots(300_000, 10)
	c := benchContest(10)
	r := DefaultRules()
	r.WinnerElectionMode = MultiWinnerAllowMultipleWinnersPerRound
	r.NumberOfWinners = 3
	count := func(procs int) Result {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		res, err := Tabulate(c, b, STV, r)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	both, one := count(2), count(1)
	if !reflect.DeepEqual(both, one) {
		t.Error("the count on both cores differs from the count on one")
	}
	if len(both.Passes[0].Rounds) < 2 || len(both.Winners) != 3 {
		t.Errorf("the count elected %v in %d rounds: no surplus moved", both.Winners, len(both.Passes[0].Rounds))
	}
}
