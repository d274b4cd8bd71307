package rla_test

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"votedesk/tally/rla"
)

// FuzzReadManifest reads arbitrary bytes as a manifest: it never panics,
// and what it accepts is a sound manifest that survives WriteCSV and a
// second reading unchanged.
func FuzzReadManifest(f *testing.F) {
	for _, s := range []string{
		"Container,Tabulator,Batch Name,Number of Ballots\nC1,T1,B1,25\nC1,T2,B1,30\n",
		"Batch Name,Number of Ballots\nBox 1,200\n",
		"CountyID,ScannerID,BatchID,NumBallots,StorageLocation\nFremont,Scanner1,\"4\",49,Bin 1\n",
		"County ID,Scanner ID,Batch ID,# of Ballots,Storage Location\n1,10,2,25,Bin 22\n",
		"\uFEFFbatch,ballots\n\"a\nb\",3\n,\nB,0\n",
		"Batch,Ballots\nA,-3\n",
		"Batch,Ballots\nBin \"7,3\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := rla.ReadManifest(bytes.NewReader(data))
		if err != nil {
			if !strings.HasPrefix(err.Error(), "rla: ") {
				t.Errorf("error without the package's name: %v", err)
			}
			return
		}
		total := 0
		for _, b := range m.Batches {
			if b.Name == "" || b.Ballots < 0 {
				t.Fatalf("accepted batch %+v", b)
			}
			total += b.Ballots
		}
		if total != m.Total() || total < 1 || total > rla.MaxBallots {
			t.Fatalf("total %d, Total() %d", total, m.Total())
		}
		if b, p := m.Locate(total - 1); b != len(m.Batches)-1 && m.Batches[len(m.Batches)-1].Ballots > 0 || p < 1 {
			t.Fatalf("last ballot at batch %d position %d", b, p)
		}
		var buf bytes.Buffer
		if err := m.WriteCSV(&buf); err != nil {
			t.Fatal(err)
		}
		back, err := rla.ReadManifest(&buf)
		if err != nil {
			t.Fatalf("reading back %q: %v", buf.String(), err)
		}
		if !slices.Equal(back.Batches, m.Batches) {
			t.Fatalf("read back %+v, want %+v", back.Batches, m.Batches)
		}
	})
}
