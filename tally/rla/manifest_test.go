package rla_test

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"votedesk/tally/rla"
)

// TestReadManifest reads the layouts of Arlo's and ColoradoRLA's
// documentation and test data, and a plain one.
func TestReadManifest(t *testing.T) {
	tests := []struct {
		name, csv string
		want      []rla.Batch
	}{
		// Arlo's ballot comparison manifest (docs-arlo, "Ballot Manifest").
		{"ArloComparison", "Container,Tabulator,Batch Name,Number of Ballots\r\n" +
			"Container 1,Tabulator 1,Batch 1,25\r\nContainer 1,Tabulator 2,Batch 1,30\r\nContainer 2,Tabulator 1,Batch 2,12\r\n",
			[]rla.Batch{{"Container 1", "Tabulator 1", "Batch 1", 25}, {"Container 1", "Tabulator 2", "Batch 1", 30},
				{"Container 2", "Tabulator 1", "Batch 2", 12}}},
		// Arlo's ballot polling manifest: two columns.
		{"ArloPolling", "Batch Name,Number of Ballots\nBox 1,200\nBox 2,180\n",
			[]rla.Batch{{Name: "Box 1", Ballots: 200}, {Name: "Box 2", Ballots: 180}}},
		// Arlo's hybrid manifest: the CVR column is not ours, and ignored.
		{"ArloHybridExtraColumn", "Container,Tabulator,Batch Name,Number of Ballots,CVR\nC1,T1,B1,10,Y\nC1,T1,B2,5,N\n",
			[]rla.Batch{{"C1", "T1", "B1", 10}, {"C1", "T1", "B2", 5}}},
		// ColoradoRLA's sample manifest (docs/samples/manifest-dq.csv).
		{"ColoradoSample", "CountyID,ScannerID,BatchID,NumBallots,StorageLocation\n" +
			"Fremont,Scanner1,\"4\",49,Bin 1\nFremont,Scanner2,\"1\",50,Bin 11\nFremont,Scanner3,\"3\",51,Bin 17\n",
			[]rla.Batch{{"Bin 1", "Scanner1", "4", 49}, {"Bin 11", "Scanner2", "1", 50}, {"Bin 17", "Scanner3", "3", 51}}},
		// ColoradoRLA's headers as the Secretary of State's template words them.
		{"ColoradoSpacedHeaders", "County ID,Scanner ID,Batch ID,# of Ballots,Storage Location\n1,10,2,25,Bin 22\n1,3,800,20,Bin 1\n",
			[]rla.Batch{{"Bin 22", "10", "2", 25}, {"Bin 1", "3", "800", 20}}},
		// Denver's manifest in ColoradoRLA's test data.
		{"DenverManifest", "County,Tabulator ID,Batch,# of Ballot Cards,Location\nDenver,2,1,75,TC-001\nDenver,2,2,75,TC-001\n",
			[]rla.Batch{{"TC-001", "2", "1", 75}, {"TC-001", "2", "2", 75}}},
		{"PlainBOMCaseSpaces", "\uFEFF batch , BALLOTS \n A , 3 \n\n,\nB,0\nC,7\n",
			[]rla.Batch{{Name: "A", Ballots: 3}, {Name: "B", Ballots: 0}, {Name: "C", Ballots: 7}}},
		{"SameNameOtherTabulator", "Tabulator,Batch,Ballots\n1,A,3\n2,A,4\n",
			[]rla.Batch{{Tabulator: "1", Name: "A", Ballots: 3}, {Tabulator: "2", Name: "A", Ballots: 4}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := rla.ReadManifest(strings.NewReader(tt.csv))
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(m.Batches, tt.want) {
				t.Errorf("batches %+v, want %+v", m.Batches, tt.want)
			}
		})
	}
}

// TestReadManifestErrors checks each refusal's message.
func TestReadManifestErrors(t *testing.T) {
	tests := []struct{ name, csv, want string }{
		{"ErrEmpty", "", "rla: the manifest is empty: it has no header row"},
		{"ErrNoBatches", "Batch Name,Number of Ballots\n", "rla: the manifest lists no batches"},
		{"ErrNoBallots", "Batch,Ballots\nA,0\n", "rla: the manifest's 1 batches hold no ballots"},
		{"ErrNoCountColumn", "Container,Batch Name\nC,B\n",
			`rla: line 1: no column for the number of ballots (a header such as "Number of Ballots")`},
		{"ErrNoNameColumn", "Tabulator,Ballots\nT,4\n", `rla: line 1: no column for the batch name (a header such as "Batch Name")`},
		{"ErrDoubledColumn", "Batch,Ballots,# of Ballots\nA,1,1\n",
			`rla: line 1: columns 2 ("Ballots") and 3 ("# of Ballots") both give the number of ballots`},
		{"ErrNotNumber", "Batch Name,Number of Ballots\nA,12\nB,twelve\n",
			`rla: line 3, column 2 (Number of Ballots): "twelve" is not a whole number of ballots`},
		{"ErrThousandsSeparator", "Batch Name,Number of Ballots\nA,\"1,200\"\n",
			`rla: line 2, column 2 (Number of Ballots): "1,200" is not a whole number of ballots`},
		{"ErrNegative", "Batch,Ballots\nA,-3\n", "rla: line 2, column 2 (Ballots): -3 ballots is negative"},
		{"ErrMissingCount", "Batch,Ballots\nA,\n", "rla: line 2, column 2 (Ballots): the number of ballots is missing"},
		{"ErrShortRow", "Batch,Ballots\nA\n", "rla: line 2, column 2 (Ballots): the number of ballots is missing"},
		{"ErrNoName", "Ballots,Batch\n4, \n", "rla: line 2, column 2 (Batch): the batch has no name"},
		{"ErrDuplicate", "Container,Tabulator,Batch Name,Number of Ballots\nC1,T1,B1,10\nC1,T2,B1,10\nC1,T1,B1,4\n",
			`rla: line 4, column 3 (Batch Name): batch "B1" (tabulator "T1", container "C1") is listed twice (first at line 2)`},
		{"ErrTooManyBallots", "Batch,Ballots\nA,60000000\nB,50000000\n",
			"rla: line 3, column 2 (Ballots): the manifest's ballots pass 100000000, more than an audit can sample"},
		{"ErrHugeCount", "Batch,Ballots\nA,99999999999999999999\n",
			"rla: line 2, column 2 (Ballots): 99999999999999999999 ballots is more than an audit can sample (100000000)"},
		{"ErrLineBreakInName", "Batch,Ballots\n\"Box\n7\",3\n", "rla: line 2, column 1 (Batch): the batch name has a line break or other control character"},
		{"ErrNotUTF8", "Batch,Ballots\nA\xff,3\n", "rla: line 2, column 1: the text is not UTF-8"},
		{"ErrNotUTF8Header", "Batch\xfe,Ballots\nA,3\n", "rla: line 1, column 1: the header is not UTF-8 text"},
		{"ErrBareQuote", "Batch,Ballots\nBin \"7,3\n", `rla: line 2, character 5: bare " in non-quoted-field`},
		{"ErrUnclosedQuote", "Batch,Ballots\n\"A,3\n", `rla: line 2, character 6: extraneous or missing " in quoted-field`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := rla.ReadManifest(strings.NewReader(tt.csv))
			if err == nil || err.Error() != tt.want {
				t.Errorf("error %v\nwant  %s", err, tt.want)
			}
		})
	}
}

// TestReadManifestTooBig refuses a file over MaxManifestBytes and reads
// one of exactly that size.
func TestReadManifestTooBig(t *testing.T) {
	head := "Batch,Ballots,Note\nA,1,"
	exact := head + strings.Repeat("x", rla.MaxManifestBytes-len(head))
	if _, err := rla.ReadManifest(strings.NewReader(exact)); err != nil {
		t.Errorf("a manifest of exactly the limit: %v", err)
	}
	_, err := rla.ReadManifest(strings.NewReader(exact + "x"))
	if want := "rla: the manifest is larger than 64 MiB"; err == nil || err.Error() != want {
		t.Errorf("error %v, want %s", err, want)
	}
}

// TestManifestRoundTrip writes a manifest as Arlo's CSV and reads it back.
func TestManifestRoundTrip(t *testing.T) {
	m, err := rla.NewManifest([]rla.Batch{{"Bin, 1", "T\"1", "B1", 10}, {"", "", "B2", 0}, {"C", "", "B3", 7}})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := m.WriteCSV(&buf); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(buf.String(), "Container,Tabulator,Batch Name,Number of Ballots\n") {
		t.Errorf("header: %q", buf.String())
	}
	back, err := rla.ReadManifest(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(back.Batches, m.Batches) || back.Total() != 17 {
		t.Errorf("read back %+v (total %d), want %+v", back.Batches, back.Total(), m.Batches)
	}
}

// TestNewManifestErrors checks NewManifest's refusals.
func TestNewManifestErrors(t *testing.T) {
	tests := []struct {
		name    string
		batches []rla.Batch
		want    string
	}{
		{"ErrNone", nil, "rla: the manifest lists no batches"},
		{"ErrNegative", []rla.Batch{{Name: "A", Ballots: 2}, {Name: "B", Ballots: -1}}, "rla: batch 2, Number of Ballots: -1 ballots is negative"},
		{"ErrDuplicate", []rla.Batch{{Name: "A", Ballots: 2}, {Name: "A", Ballots: 1}}, `rla: batch 2, Batch Name: batch "A" is listed twice (first at batch 1)`},
		{"ErrNoName", []rla.Batch{{Ballots: 2}}, "rla: batch 1, Batch Name: the batch has no name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := rla.NewManifest(tt.batches)
			if err == nil || err.Error() != tt.want {
				t.Errorf("error %v, want %s", err, tt.want)
			}
		})
	}
}

// TestLocate finds each ballot's batch and position, passing over empty
// batches, the same on an indexed manifest and on a literal one.
func TestLocate(t *testing.T) {
	batches := []rla.Batch{{Name: "A", Ballots: 2}, {Name: "E", Ballots: 0}, {Name: "B", Ballots: 3}, {Name: "C", Ballots: 1}}
	indexed, err := rla.NewManifest(batches)
	if err != nil {
		t.Fatal(err)
	}
	literal := rla.Manifest{Batches: batches}
	want := [][2]int{{0, 1}, {0, 2}, {2, 1}, {2, 2}, {2, 3}, {3, 1}}
	for _, m := range []rla.Manifest{indexed, literal} {
		if m.Total() != 6 {
			t.Errorf("total %d, want 6", m.Total())
		}
		for i, w := range want {
			if b, p := m.Locate(i); b != w[0] || p != w[1] {
				t.Errorf("Locate(%d) = %d, %d; want %d, %d", i, b, p, w[0], w[1])
			}
		}
		for _, i := range []int{-1, 6, 1 << 40} {
			if b, p := m.Locate(i); b != -1 || p != 0 {
				t.Errorf("Locate(%d) = %d, %d; want -1, 0", i, b, p)
			}
		}
	}
	if b, p := (rla.Manifest{}).Locate(0); b != -1 || p != 0 {
		t.Errorf("empty manifest: Locate(0) = %d, %d", b, p)
	}
}
