package tally

import (
	"strings"
	"testing"
)

// TestPairwiseChecksEveryBallot: pairwise methods check each ballot in
// the counting pass (block by block, two halves at once for big sets); a
// bad ballot is still refused, the earliest one is named, and every method
// finds the same ones bad (a small set counted in one part too).
func TestPairwiseChecksEveryBallot(t *testing.T) {
	c := benchContest(4)
	for _, n := range []int{10, 1 << 17} {
		good := func() *BallotSet {
			b := &BallotSet{}
			for i := range n {
				if err := b.Add("", 1, []Mark{{Rank: 1, Candidate: uint16(i % 4)}, {Rank: 2, Candidate: uint16((i + 1) % 4)}}); err != nil {
					t.Fatal(err)
				}
			}
			return b
		}
		if _, err := Tabulate(c, good(), Schulze, Rules{}); err != nil {
			t.Fatalf("%d good ballots: %v", n, err)
		}
		bad := good()
		// A candidate that does not exist, late in the second half, and a
		// rank out of order earlier in the first.
		bad.Marks[2*(n-2)].Candidate = 9
		bad.Marks[2*(n/4)+1].Rank = 0
		for _, m := range []Method{Schulze, RankedPairs, Copeland, Minimax, Kemeny} {
			if m == Kemeny && n > 10 {
				continue
			}
			_, err := Tabulate(c, bad, m, Rules{})
			if want := ballotName(bad, n/4); err == nil || !strings.Contains(err.Error(), "ballot "+want) {
				t.Errorf("%s, %d ballots: %v; want the error of %s, the earliest bad one", m, n, err, want)
			}
		}
	}
}
