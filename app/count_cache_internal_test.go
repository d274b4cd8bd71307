package app

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"votedesk/tally"
)

// randomColumns makes n ballots over c candidates, with precincts, batches
// and record ids as the flags say.
func randomColumns(rng *rand.Rand, n, c int, flags byte) ballotColumns {
	var col ballotColumns
	for i := range n {
		rank := uint16(1)
		for range rng.IntN(c + 2) {
			cand := uint16(rng.IntN(c))
			if rng.IntN(20) == 0 {
				cand = tally.Overvote
			}
			col.marks = append(col.marks, tally.Mark{Rank: rank, Candidate: cand})
			rank += uint16(rng.IntN(3)) // a repeated rank, the next, or one skipped
		}
		col.ends = append(col.ends, uint32(len(col.marks)))
		if flags&cachedPrecincts != 0 {
			col.precincts = append(col.precincts, fmt.Sprintf("P%d", rng.IntN(5)))
		}
		if flags&cachedBatches != 0 {
			col.batches = append(col.batches, fmt.Sprintf("Batch %d", i/7))
		}
	}
	if flags&cachedIDs != 0 {
		col.ids = tally.NewTexts()
		for i := range n {
			_ = col.ids.Append(fmt.Sprintf("rec-%d", i*3))
		}
	}
	return col
}

// TestCountCacheRoundTrip: what is laid out is read back as it was, for
// every mix of columns, and a value cut anywhere is refused.
func TestCountCacheRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for flags := range byte(8) {
		for _, n := range []int{0, 1, 17, 300} {
			st := countStamp{election: "id-1", headSeq: uint64(rng.IntN(1 << 40)), headHash: "abc123", cands: []string{"A", "B", "Ç d", ""}}
			col := randomColumns(rng, n, len(st.cands), flags)
			b := encodeCountCache(st, col)
			got, back, err := decodeCountCache(b, true)
			if err != nil {
				t.Fatalf("flags %d, %d ballots: %v", flags, n, err)
			}
			if !got.same(st) || !sameColumns(col, back) {
				t.Fatalf("flags %d, %d ballots: read back other columns", flags, n)
			}
			if s, ok := countCacheStampOf(b); !ok || !s.same(st) {
				t.Fatalf("flags %d, %d ballots: stamp %+v", flags, n, s)
			}
			for cut := range len(b) {
				if _, _, err := decodeCountCache(b[:cut], true); err == nil {
					t.Fatalf("flags %d, %d ballots: a value cut at %d of %d was read", flags, n, cut, len(b))
				}
			}
		}
	}
}

// FuzzDecodeCountCache: no value makes the reader fail other than with an
// error, and what it reads is well formed and lays out to the same bytes.
func FuzzDecodeCountCache(f *testing.F) {
	rng := rand.New(rand.NewPCG(1, 2))
	for flags := range byte(8) {
		st := countStamp{election: "e", headSeq: 9, headHash: "h", cands: []string{"A", "B", "C"}}
		f.Add(encodeCountCache(st, randomColumns(rng, 5, 3, flags)))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		_, without, errWithout := decodeCountCache(b, false)
		st, col, err := decodeCountCache(b, true)
		if (err == nil) != (errWithout == nil) {
			t.Fatalf("read with record ids: %v; without: %v", err, errWithout)
		}
		if err != nil {
			return
		}
		if without.ids != nil || !slices.Equal(without.marks, col.marks) || !slices.Equal(without.ends, col.ends) {
			t.Fatal("read without record ids, it reads other ballots")
		}
		if checkCachedMarks(col, len(st.cands)) != nil {
			t.Fatal("read marks that are not well formed")
		}
		n := len(col.ends)
		if col.precincts != nil && len(col.precincts) != n || col.batches != nil && len(col.batches) != n || col.ids != nil && col.ids.Len() != n {
			t.Fatal("read columns of other lengths than the ballots")
		}
		again := encodeCountCache(st, col)
		st2, col2, err := decodeCountCache(again, true)
		if err != nil || !st2.same(st) || !sameColumns(col, col2) {
			t.Fatalf("laid out again, it reads otherwise: %v", err)
		}
	})
}
