package app

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"votedesk/tally"
)

// FuzzParseMarksAgreesWithDecodeRankings: the fast scanner the count reads
// stored rankings with agrees with DecodeRankings on every input it
// accepts, and accepts everything EncodeRankings writes.
func FuzzParseMarksAgreesWithDecodeRankings(f *testing.F) {
	for _, s := range []string{``, `[]`, `[["A"]]`, `[["A"],["B","C"]]`, `[["A\"q"],[]]`, `[["A"],["A"]]`, `[[],["B"]]`,
		`[["A"] ,["B"]]`, `[["A"],`, `[["A"]`, `[[]`, `[[],`, `[["A"]]]`, `[["é"]]`, `[["A\u0022"]]`, `[["` + OvervoteLabel + `"]]`} {
		f.Add(s)
	}
	names := []string{"A", "B", "C", `A"q`, "é"}
	index := MarkIndex(names)
	toMarks := func(rs []Ranking) ([]tally.Mark, bool) {
		var out []tally.Mark
		for _, r := range rs {
			c, ok := index[r.Candidate]
			if !ok {
				return nil, false
			}
			out = append(out, tally.Mark{Rank: uint16(r.Rank), Candidate: c})
		}
		return out, true
	}
	f.Fuzz(func(t *testing.T, s string) {
		fast, fastErr := parseMarks(nil, []byte(s), newNameTable(index))
		decoded, slowErr := DecodeRankings(s)
		if fastErr == nil {
			if slowErr != nil {
				t.Fatalf("%q: the scanner read %v, DecodeRankings refused: %v", s, fast, slowErr)
			}
			want, ok := toMarks(decoded)
			if !ok || !slices.Equal(fast, want) {
				t.Fatalf("%q: the scanner read %v, DecodeRankings %v", s, fast, decoded)
			}
		}
		if slowErr != nil {
			return
		}
		// What EncodeRankings writes of it, the scanner reads the same.
		want, ok := toMarks(decoded)
		if !ok || checkRankOrder(decoded) != nil {
			return
		}
		enc := EncodeRankings(decoded)
		got, err := parseMarks(nil, []byte(enc), newNameTable(index))
		if err != nil || !slices.Equal(got, want) {
			t.Fatalf("%q encoded as %q: the scanner read %v (%v), want %v", s, enc, got, err, want)
		}
	})
}

// TestNameTable: the name table finds every candidate the map does, names
// sharing a length and first and last bytes included, and nothing else.
func TestNameTable(t *testing.T) {
	var names []string
	for i := range 300 {
		names = append(names, fmt.Sprintf("C%03dx", i), fmt.Sprintf("Candidate %d", i))
	}
	names = append(names, "é", "A", "")
	index := MarkIndex(names)
	tab := newNameTable(index)
	for name, c := range index {
		if got, ok := tab.find([]byte(name)); !ok || got != c {
			t.Errorf("find(%q) = %d, %v; want %d", name, got, ok, c)
		}
	}
	for _, miss := range []string{"C000y", "C300x", "Candidate 300", "B", "ée"} {
		if got, ok := tab.find([]byte(miss)); ok {
			t.Errorf("find(%q) = %d, a name that is not a candidate", miss, got)
		}
	}
}

// BenchmarkParseMarks parses 100,000 stored rankings of ten candidates
// (one to ten ranks each, as EncodeRankings writes them) into marks: the
// per-ballot work of reading a stored election for a count.
func BenchmarkParseMarks(b *testing.B) {
	cands := []string{"Ada Lovelace", "Alan Turing", "Grace Hopper", "Edsger Dijkstra", "Barbara Liskov",
		"Donald Knuth", "Frances Allen", "John Backus", "Margaret Hamilton", "Ken Thompson"}
	rng := rand.New(rand.NewPCG(1, 2))
	stored := make([][]byte, 100_000)
	for i := range stored {
		perm := rng.Perm(len(cands))[:1+rng.IntN(len(cands))]
		r := make([]Ranking, len(perm))
		for j, c := range perm {
			r[j] = Ranking{Candidate: cands[c], Rank: j + 1}
		}
		stored[i] = []byte(EncodeRankings(r))
	}
	names := newNameTable(MarkIndex(cands))
	var marks []tally.Mark
	b.ReportAllocs()
	for b.Loop() {
		for _, s := range stored {
			var err error
			if marks, err = parseMarks(marks[:0], s, names); err != nil {
				b.Fatal(err)
			}
		}
	}
}
