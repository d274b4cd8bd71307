package tally

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"
)

// benchBallots returns n generated ballots over k candidates from a fixed
// seed: each ranks between 1 and k candidates, drawn with a popularity skew
// so counts need several rounds, and one in fifty has an overvote.
func benchBallots(n, k int) *BallotSet {
	rng := rand.New(rand.NewPCG(2026, 7))
	b := &BallotSet{}
	weights := make([]float64, k)
	for i := range weights {
		weights[i] = 1 / float64(i+2)
	}
	marks := make([]Mark, 0, k)
	perm := make([]int, k)
	for range n {
		for i := range perm {
			perm[i] = i
		}
		// a weighted shuffle: repeatedly pick by weight among the rest
		depth := 1 + rng.IntN(k)
		marks = marks[:0]
		left := k
		for r := 0; r < depth; r++ {
			total := 0.0
			for _, c := range perm[:left] {
				total += weights[c]
			}
			x := rng.Float64() * total
			pick := left - 1
			for i, c := range perm[:left] {
				if x -= weights[c]; x < 0 {
					pick = i
					break
				}
			}
			c := perm[pick]
			perm[pick], perm[left-1] = perm[left-1], perm[pick]
			left--
			rank := uint16(r + 1)
			marks = append(marks, Mark{Rank: rank, Candidate: uint16(c)})
			if r == 2 && rng.IntN(50) == 0 && left > 0 {
				marks = append(marks, Mark{Rank: rank, Candidate: uint16(perm[0])})
			}
		}
		b.Add("", 1, marks)
	}
	return b
}

var (
	benchOnce sync.Once
	bench1M   *BallotSet
)

// reportCPU adds the CPU time per operation (all goroutines) to the
// benchmark's output: on a machine shared with other work it varies less
// than the wall time.
func reportCPU(b *testing.B, start time.Duration) {
	if used := cpuTime() - start; used > 0 {
		b.ReportMetric(float64(used.Milliseconds())/float64(b.N), "cpu-ms/op")
	}
}

func benchContest(k int) Contest {
	c := Contest{Name: "bench"}
	for i := range k {
		c.Candidates = append(c.Candidates, Candidate{Name: fmt.Sprintf("Candidate %02d", i)})
	}
	return c
}

func million(b *testing.B) *BallotSet {
	b.Helper()
	benchOnce.Do(func() { bench1M = benchBallots(1_000_000, 10) })
	return bench1M
}

// benchMillion counts the million ten-candidate ballots with method and
// rules once per iteration.
func benchMillion(b *testing.B, method Method, r Rules) {
	set := million(b)
	c := benchContest(10)
	b.ReportAllocs()
	b.ResetTimer()
	defer reportCPU(b, cpuTime())
	for b.Loop() {
		if _, err := Tabulate(c, set, method, r); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkIRV1M counts a million ten-candidate ballots with RCTab's
// single-winner rules.
func BenchmarkIRV1M(b *testing.B) { benchMillion(b, IRV, DefaultRules()) }

// BenchmarkSTV1M counts a million ballots for three seats with fractional
// surplus transfers.
func BenchmarkSTV1M(b *testing.B) {
	r := DefaultRules()
	r.WinnerElectionMode = MultiWinnerAllowMultipleWinnersPerRound
	r.NumberOfWinners = 3
	benchMillion(b, STV, r)
}

// BenchmarkSchulze1M counts a million ballots with Schulze's method.
func BenchmarkSchulze1M(b *testing.B) { benchMillion(b, Schulze, Rules{}) }

// BenchmarkRankedPairs1M counts a million ballots with Ranked Pairs.
func BenchmarkRankedPairs1M(b *testing.B) { benchMillion(b, RankedPairs, Rules{}) }
