package app

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"testing"
)

// TestChunkFormatStaysPut: where an import's ballots are cut into chunks,
// and the bytes of each, are part of event format 3: every device and
// every later version must store a format 3 import as this one does, or
// projections, state hashes and verify's rebuilds would differ. A change
// here needs a new format (FormatChunked + 1), not new expectations.
func TestChunkFormatStaysPut(t *testing.T) {
	ballots := make([]ImportedBallot, 8000)
	for i := range ballots {
		b := ImportedBallot{SourceID: fmt.Sprintf("record %d", i), Rankings: []Ranking{{Candidate: "Ada Lovelace", Rank: 1}}}
		for r := range i % 7 {
			b.Rankings = append(b.Rankings, Ranking{Candidate: fmt.Sprintf("Candidate %d", (i+r)%11), Rank: r + 2})
		}
		if i%3 == 0 {
			b.Precinct, b.Batch, b.Tabulator = fmt.Sprintf("P-%d", i%13), fmt.Sprintf("B%d", i%5), "T1"
		}
		ballots[i] = b
	}
	c, err := columnsOf(ballots)
	if err != nil {
		t.Fatal(err)
	}
	starts := c.starts()
	h := sha256.New()
	for i, lo := range starts {
		hi := len(ballots)
		if i+1 < len(starts) {
			hi = starts[i+1]
		}
		for _, a := range c.item("ELECTION#E", importedSK("dev-0000000001", lo), Election{Name: "E"}, SourceCVR, "2026-11-29T07:00:00Z", lo, hi) {
			fmt.Fprintf(h, "%s=%d:%q;", a.Name, a.Value.Kind, a.Value.S)
		}
	}
	got := fmt.Sprintf("%v %s", starts, hex.EncodeToString(h.Sum(nil)))
	const want = "[0 3109 6205] 424e49c878d3e71e27542dd60e41b32712ddc9ce5c4bb2ea07e5495520dc3859"
	if got != want {
		t.Errorf("format 3's chunks of the same import changed: %s, were %s", got, want)
	}
}
