package cvr

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"votedesk/tally"
)

// TestSourceJSON checks that an RCTab cvrFileSources entry unmarshals into a
// Source, with indexes written as strings or numbers, and back.
func TestSourceJSON(t *testing.T) {
	var s Source
	err := json.Unmarshal([]byte(`{"provider":"ess","filePath":"a.xlsx","firstVoteColumnIndex":"2","firstVoteRowIndex":2,
		"idColumnIndex":"","precinctColumnIndex":null,"undervoteLabel":"UNDERVOTE","treatBlankAsUndeclaredWriteIn":true}`), &s)
	if err != nil {
		t.Fatal(err)
	}
	if s.Provider != FormatESS || s.FirstVoteColumnIndex != 2 || s.FirstVoteRowIndex != 2 || s.IDColumnIndex != 0 ||
		s.skippedRankLabel() != "UNDERVOTE" || !s.TreatBlankAsUndeclaredWriteIn {
		t.Errorf("unmarshalled %+v", s)
	}
	b, _ := json.Marshal(s)
	if !strings.Contains(string(b), `"firstVoteColumnIndex":"2","firstVoteRowIndex":"2","idColumnIndex":""`) {
		t.Errorf("marshalled %s", b)
	}
	if err := json.Unmarshal([]byte(`{"firstVoteColumnIndex":"two"}`), &s); err == nil {
		t.Error("index \"two\" was accepted")
	}
}

func TestSourceValidate(t *testing.T) {
	tests := []struct {
		name string
		src  Source
		want string
	}{
		{"Valid", Source{Provider: FormatCDF, FilePath: "a.json", ContestID: "Mayor"}, ""},
		{"ErrNoPath", Source{Provider: FormatCDF}, `cvr: source "": filePath is required`},
		{"ErrNoFirstVoteColumn", Source{Provider: FormatESS, FilePath: "a.xlsx", FirstVoteRowIndex: 2}, `cvr: source "a.xlsx": firstVoteColumnIndex is required for provider ess`},
		{"ErrHeaderIsFirstVoteRow", Source{Provider: FormatGenericCSV, FilePath: "a.csv", FirstVoteColumnIndex: 1, FirstVoteRowIndex: 1}, `cvr: source "a.csv": firstVoteRowIndex must be at least 2: row 1 holds the candidate names`},
		{"ErrUnsupportedProvider", Source{Provider: "unisyn", FilePath: "dir"}, `cvr: source "dir": provider "unisyn" is not supported`},
		{"ErrDelimiterAndLabel", Source{Provider: FormatVoteDesk, FilePath: "a.csv", OvervoteDelimiter: "|", OvervoteLabel: "OV"}, `cvr: source "a.csv": overvoteDelimiter and overvoteLabel cannot both be set`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.src.Validate()
			if got := errString(err); got != tc.want {
				t.Errorf("err = %q, want %q", got, tc.want)
			}
		})
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func TestDetectFormat(t *testing.T) {
	tests := []struct {
		path, head string
		want       Format
	}{
		{"a.blt", "", FormatBLT},
		{"a.TOI", "", FormatPrefLib},
		{"a.soc", "", FormatPrefLib},
		{"a.xlsx", "", FormatESS},
		{"a.json", "{", FormatCDF},
		{"a.xml", "<", FormatCDF},
		{"a.csv", "# candidates: A,B\n", FormatVoteDesk},
		{"a.csv", "\xEF\xBB\xBFballot_id,rank_1\n", FormatVoteDesk},
		{"a.csv", "RowNumber,BoxID,BoxPosition,BallotID,PrecinctID", FormatClearBallot},
		{"a.csv", "id,Alice,Bob\n", FormatGenericCSV},
		{"cvr", "PK\x03\x04rest", FormatESS},
		{"cvr", "  {\"CVR\":[]}", FormatCDF},
		{"cvr", "# FILE NAME: x.toi\n# DATA TYPE: toi\n", FormatPrefLib},
		{"cvr", "# made by hand\n4 2\n1 1 0\n", FormatBLT},
		{"cvr", "ballot_id,rank_1\n", FormatVoteDesk},
	}
	for _, tc := range tests {
		t.Run(tc.path+"/"+string(tc.want), func(t *testing.T) {
			got, err := DetectFormat(tc.path, []byte(tc.head))
			if err != nil || got != tc.want {
				t.Errorf("DetectFormat = %s, %v; want %s", got, err, tc.want)
			}
		})
	}
	t.Run("ErrUnknown", func(t *testing.T) {
		if _, err := DetectFormat("notes", []byte("hello")); err == nil || err.Error() != "cvr: cannot tell the format of notes" {
			t.Errorf("err = %v", err)
		}
	})
}

// TestReadAppends checks that Read appends to a set that already holds
// ballots, keeping the optional columns one entry per ballot.
func TestReadAppends(t *testing.T) {
	path := writeTemp(t, "v.csv", "ballot_id,rank_1,rank_2\nb1,A,B\n,B,\n")
	set := newSet()
	mustAdd(t, set, "", 3, tally.Mark{Rank: 1, Candidate: 1})
	set.SetPrecinct("North")
	st, err := Read(context.Background(), Source{Provider: FormatVoteDesk, FilePath: path}, IndexCandidates("A", "B"), set, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if st.Records != 2 || st.Ballots != 2 || set.Len() != 3 || set.Total() != 5 {
		t.Fatalf("stats %+v; set has %d ballots, total %d", st, set.Len(), set.Total())
	}
	if got := []string{render(set, 0, []string{"A", "B"}), render(set, 1, []string{"A", "B"}), render(set, 2, []string{"A", "B"})}; strings.Join(got, "|") != "B|A B|B" {
		t.Errorf("ballots %q", got)
	}
	if len(set.Counts) != 3 || set.Counts[2] != 1 || set.IDs == nil || set.IDs.Len() != 3 || set.ID(1) != "b1" || set.ID(0) != "" ||
		len(set.Precincts) != 3 || set.Precincts[0] != "North" || set.Precincts[1] != "" {
		t.Errorf("columns: counts %v ids %q precincts %q", set.Counts, set.IDs.Strings(), set.Precincts)
	}
}

// TestReadProgressAndCancel checks progress reports and cancellation.
func TestReadProgressAndCancel(t *testing.T) {
	var b strings.Builder
	b.WriteString("ballot_id,rank_1\n")
	for range 20000 {
		b.WriteString("x,A\n")
	}
	path := writeTemp(t, "v.csv", b.String())
	src := Source{Provider: FormatVoteDesk, FilePath: path}
	t.Run("ReportsToTheEnd", func(t *testing.T) {
		var last Progress
		calls := 0
		_, err := Read(context.Background(), src, IndexCandidates("A"), newSet(), Options{Progress: func(p Progress) { last = p; calls++ }})
		if err != nil {
			t.Fatal(err)
		}
		if calls < 2 || last.Done != last.Total || last.Total != int64(b.Len()) || last.Records != 20000 {
			t.Errorf("%d calls, last %+v", calls, last)
		}
	})
	t.Run("ErrCanceled", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		set := newSet()
		_, err := Read(ctx, src, IndexCandidates("A"), set, Options{Progress: func(Progress) { cancel() }})
		if !errors.Is(err, context.Canceled) || set.Len() != 0 {
			t.Errorf("err = %v, %d ballots", err, set.Len())
		}
	})
}

// TestReadFileErrors checks errors that come before any content.
func TestReadFileErrors(t *testing.T) {
	t.Run("ErrMissingFile", func(t *testing.T) {
		_, err := Read(context.Background(), Source{Provider: FormatBLT, FilePath: "/nonexistent/x.blt"}, IndexCandidates(), newSet(), Options{})
		var pe *ParseError
		if !errors.As(err, &pe) || !errors.Is(err, os.ErrNotExist) || pe.File != "x.blt" {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("ErrBadCandidateIndex", func(t *testing.T) {
		path := writeTemp(t, "v.csv", "ballot_id,rank_1\nx,A\n")
		_, err := Read(context.Background(), Source{Provider: FormatVoteDesk, FilePath: path}, CandidateIndex{"A": tally.MaxCandidates}, newSet(), Options{})
		if err == nil || !strings.Contains(err.Error(), `v.csv: line 2, column 2: candidate "A" has index 65534`) {
			t.Errorf("err = %v", err)
		}
	})
}

// TestReadFileOwnCandidates checks the candidate lists ReadFile takes from
// files, and the contest it picks when the source names none.
func TestReadFileOwnCandidates(t *testing.T) {
	ctx := context.Background()
	t.Run("GenericCSVHeaderWithWriteInLabel", func(t *testing.T) {
		f, err := ReadFile(ctx, Source{Provider: FormatGenericCSV, FilePath: shared(t, "rctab/generic_csv_test/generic_csv_test_cvr.csv"),
			FirstVoteColumnIndex: 4, FirstVoteRowIndex: 2, UndeclaredWriteInLabel: "Write-In"}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if want := "Lettuce,Broccoli,Cucumber,Cauliflower," + UndeclaredWriteIn; strings.Join(f.Candidates, ",") != want {
			t.Errorf("candidates %q, want %s", f.Candidates, want)
		}
	})
	t.Run("ClearBallotsOnlyContest", func(t *testing.T) {
		f, err := ReadFile(ctx, Source{FilePath: shared(t, "rctab/clear_ballot_kansas_primary/clear_ballot_kansas_primary.cvr.csv")}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if f.Format != FormatClearBallot || len(f.Candidates) != 10 || f.Ballots.Len() != 50 {
			t.Errorf("%s, candidates %q, %d ballots", f.Format, f.Candidates, f.Ballots.Len())
		}
	})
	t.Run("ErrCDFContestAmbiguous", func(t *testing.T) {
		_, err := ReadFile(ctx, Source{FilePath: writeTemp(t, "r.xml", cdfXML)}, Options{})
		if err == nil || err.Error() != "r.xml: no contestId is given; the file's 2 contests are c1 (Mayor), c2 (Clerk)" {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("CDFOnlyContest", func(t *testing.T) {
		f, err := ReadFile(ctx, Source{FilePath: shared(t, "rctab/test_set_2_overvote_skip_to_next/test_set_2_overvote_skip_to_next_cvr.json")}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(f.Candidates) != 4 || f.Ballots.Len() != 15 {
			t.Errorf("candidates %q, %d ballots", f.Candidates, f.Ballots.Len())
		}
	})
}

func TestReadNeedsCandidatesAndSet(t *testing.T) {
	src := Source{Provider: FormatBLT, FilePath: "x.blt"}
	if _, err := Read(context.Background(), src, nil, newSet(), Options{}); err == nil {
		t.Error("nil Candidates accepted")
	}
	if _, err := Read(context.Background(), src, IndexCandidates(), nil, Options{}); err == nil {
		t.Error("nil BallotSet accepted")
	}
}

// TestFileKindsAreRead checks that every ending offered to a person choosing
// a file is one DetectFormat reads by name, whatever the content.
func TestFileKindsAreRead(t *testing.T) {
	for _, k := range FileKinds {
		if f, err := DetectFormat("ballots"+k.Ext, nil); err != nil || f == "" {
			t.Errorf("%s is offered but not read by name: %q, %v", k.Ext, f, err)
		}
		if k.Label == "" {
			t.Errorf("%s has no label", k.Ext)
		}
	}
}

// TestFormatLabels: every format has a label a person can read.
func TestFormatLabels(t *testing.T) {
	for f := range readers {
		if l := f.Label(); l == string(f) || l == "" {
			t.Errorf("format %s has no label", f)
		}
	}
}
