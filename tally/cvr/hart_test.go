package cvr

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"votedesk/tally"
)

// hartBallot writes one Hart CVR file: contest "c1" with the given options
// ("Id:Name:Value", Name empty for a write-in), and another contest.
func hartBallot(guid, batch, precinct string, options ...string) string {
	var b strings.Builder
	b.WriteString("\xEF\xBB\xBF" + `<?xml version="1.0" encoding="utf-8"?><Cvr xmlns="http://tempuri.org/CVRDesign.xsd"><Contests>`)
	b.WriteString(`<Contest><Name>Other</Name><Id>c0</Id><Options><Option><Name>Zed</Name><Id>z</Id><Value>1</Value></Option></Options></Contest>`)
	if options != nil {
		b.WriteString(`<Contest><Name>Mayor</Name><Id>c1</Id><Options>`)
		for _, o := range options {
			f := strings.SplitN(o, ":", 3)
			b.WriteString(`<Option>`)
			if f[1] != "" {
				b.WriteString(`<Name>` + f[1] + `</Name>`)
			}
			b.WriteString(`<Id>` + f[0] + `</Id><Value>` + f[2] + `</Value>`)
			if f[1] == "" {
				b.WriteString(`<WriteInData><Text /><WriteInDataStatus>Unresolved</WriteInDataStatus></WriteInData>`)
			}
			b.WriteString(`</Option>`)
		}
		b.WriteString(`</Options></Contest>`)
	}
	b.WriteString(`</Contests><BatchSequence>1</BatchSequence><SheetNumber>1</SheetNumber><PrecinctSplit><Name>` + precinct + `</Name><Id>p</Id></PrecinctSplit><BatchNumber>` + batch + `</BatchNumber><CvrGuid>` + guid + `</CvrGuid></Cvr>`)
	return b.String()
}

func hartFolder(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestHartReadsAsRCTab: each rank digit set to 1 is a mark, several options
// at one rank are an overvote, a ballot without the contest is skipped, a
// signature file is not a ballot, and the record keeps its guid, precinct
// and batch; files are read in name order.
func TestHartReadsAsRCTab(t *testing.T) {
	dir := hartFolder(t, map[string]string{
		"b.xml":         hartBallot("g2", "7", "PRC2", "a:Ann:0100", "b:Bo:1000", "w::0010"),
		"a.xml":         hartBallot("g1", "7", "PRC1", "a:Ann:1000", "b:Bo:1001"),
		"c.xml":         hartBallot("g3", "8", "PRC1"),
		"d.xml":         hartBallot("g4", "8", "PRC1", "a:Ann:000", "b:Bo:000"),
		"a.xml.sig.xml": "<Signature/>",
		"notes.txt":     "not read",
	})
	set := &tally.BallotSet{}
	st, err := Read(context.Background(), Source{Provider: FormatHart, FilePath: dir, ContestID: "c1", UndeclaredWriteInLabel: "w"},
		CandidateIndex{"a": 0, "b": 1, UndeclaredWriteIn: 2}, set, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := [][]tally.Mark{
		{{Rank: 1, Candidate: 0}, {Rank: 1, Candidate: 1}, {Rank: 4, Candidate: 1}},
		{{Rank: 1, Candidate: 1}, {Rank: 2, Candidate: 0}, {Rank: 3, Candidate: 2}},
		nil,
	}
	if set.Len() != len(want) {
		t.Fatalf("%d ballots, want %d", set.Len(), len(want))
	}
	for i, w := range want {
		if got, _ := set.Ballot(i); len(got) != len(w) || len(w) > 0 && !reflect.DeepEqual(got, w) {
			t.Errorf("ballot %d: %v, want %v", i+1, got, w)
		}
	}
	if !reflect.DeepEqual(set.IDs.Strings(), []string{"g1", "g2", "g4"}) || !reflect.DeepEqual(set.Precincts, []string{"PRC1", "PRC2", "PRC1"}) || !reflect.DeepEqual(set.Batches, []string{"7", "7", "8"}) {
		t.Errorf("ids %v, precincts %v, batches %v", set.IDs.Strings(), set.Precincts, set.Batches)
	}
	if st.Records != 3 || st.Skipped != 1 || st.Undervotes != 1 {
		t.Errorf("stats %+v", st)
	}

	// Counted directly, the candidates are the options' names and a nameless
	// write-in option is the undeclared write-in.
	f, err := ReadFile(context.Background(), Source{FilePath: dir, ContestID: "c1"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if f.Format != FormatHart || !reflect.DeepEqual(f.Candidates, []string{"Ann", "Bo", UndeclaredWriteIn}) {
		t.Errorf("format %s, candidates %v", f.Format, f.Candidates)
	}
}

// TestHartRefusals: each bad folder is refused naming the file, adding
// nothing.
func TestHartRefusals(t *testing.T) {
	good := hartBallot("g1", "1", "P", "a:Ann:1")
	for _, tc := range []struct {
		name    string
		files   map[string]string
		contest string
		want    string
	}{
		{"no files", map[string]string{"x.txt": "x"}, "c1", "holds no XML files"},
		{"no contest", map[string]string{"a.xml": good}, "", "a.xml: no contestId is given; this file's contests are c0 (Other), c1 (Mayor)"},
		{"malformed", map[string]string{"a.xml": good, "b.xml": good[:len(good)-30]}, "c1", "b.xml: malformed Hart CVR XML"},
		{"bad value", map[string]string{"a.xml": hartBallot("g1", "1", "P", "a:Ann:1x")}, "c1", `a.xml: option a has Value "1x"`},
		{"unknown candidate", map[string]string{"a.xml": hartBallot("g1", "1", "P", "q:Quinn:1")}, "c1", `a.xml: option q (Quinn): unknown candidate "q"`},
		{"one id two names", map[string]string{"a.xml": good, "b.xml": hartBallot("g2", "1", "P", "a:Anne:1")}, "c1", `b.xml: option a is "Anne" here but "Ann" in a.xml`},
		{"no id", map[string]string{"a.xml": hartBallot("g1", "1", "P", ":Ann:1")}, "c1", "has no Id"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			set := &tally.BallotSet{}
			_, err := Read(context.Background(), Source{Provider: FormatHart, FilePath: hartFolder(t, tc.files), ContestID: tc.contest}, CandidateIndex{"a": 0}, set, Options{})
			var pe *ParseError
			if err == nil || !errors.As(err, &pe) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want a *ParseError containing %q", err, tc.want)
			}
			if set.Len() != 0 {
				t.Error("a refused read added ballots")
			}
		})
	}
	t.Run("a file, not a folder", func(t *testing.T) {
		path := filepath.Join(hartFolder(t, map[string]string{"a.xml": good}), "a.xml")
		_, err := Read(context.Background(), Source{Provider: FormatHart, FilePath: path, ContestID: "c1"}, CandidateIndex{"a": 0}, &tally.BallotSet{}, Options{})
		if err == nil || !strings.Contains(err.Error(), "is not a folder") {
			t.Fatalf("error %v", err)
		}
	})
	t.Run("neither vendor's folder", func(t *testing.T) {
		_, err := ReadFile(context.Background(), Source{FilePath: hartFolder(t, map[string]string{"a.csv": "x"})}, Options{})
		if err == nil || !strings.Contains(err.Error(), "is a folder, but neither a Dominion CVR export") {
			t.Fatalf("error %v", err)
		}
	})
}

// FuzzReadHart fuzzes one ballot file beside a real one of RCTab's Travis
// County case, with the contest id.
func FuzzReadHart(f *testing.F) {
	real := filepath.Join(sharedTestdata, "rctab-more", "_shared", "hart_cvr_archive")
	paths, _ := filepath.Glob(filepath.Join(real, "*.xml"))
	if len(paths) == 0 {
		f.Fatal("no Hart test data")
	}
	for _, p := range paths[:4] {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, "e9ca8235-893e-43df-93eb-3cc61eeb133c")
	}
	f.Add([]byte(hartBallot("g", "1", "P", "a:Ann:0101", "w::1")), "c1")
	first, err := os.ReadFile(paths[0])
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte, contest string) {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "a.xml"), first, 0o600)
		os.WriteFile(filepath.Join(dir, "b.xml"), data, 0o600)
		fuzzCheck(t, Source{Provider: FormatHart, FilePath: dir, ContestID: contest, UndeclaredWriteInLabel: "w"})
	})
}
