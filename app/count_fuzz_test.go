package app

import (
	"slices"
	"testing"

	"votedesk/tally"
)

// FuzzParseMarksAgreesWithDecodeRankings: the fast scanner the count reads
// stored rankings with agrees with DecodeRankings on every input it
// accepts, and accepts everything EncodeRankings writes.
func FuzzParseMarksAgreesWithDecodeRankings(f *testing.F) {
	for _, s := range []string{``, `[]`, `[["A"]]`, `[["A"],["B","C"]]`, `[["A\"q"],[]]`, `[["A"],["A"]]`, `[[],["B"]]`,
		`[["A"] ,["B"]]`, `[["A"],`, `[["é"]]`, `[["A\u0022"]]`, `[["` + OvervoteLabel + `"]]`} {
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
		fast, fastErr := parseMarks(nil, []byte(s), index)
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
		got, err := parseMarks(nil, []byte(enc), index)
		if err != nil || !slices.Equal(got, want) {
			t.Fatalf("%q encoded as %q: the scanner read %v (%v), want %v", s, enc, got, err, want)
		}
	})
}
