package cvr

import (
	"context"
	"encoding/csv"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestReadESSMatchesDerivedCSV reads every ES&S spreadsheet in the shared
// test data on its own terms and compares each ballot with the plain CSV
// made from the same sheet (the *.xlsx.derived.csv beside it).
func TestReadESSMatchesDerivedCSV(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(sharedTestdata, "rctab", "*", "*.xlsx"))
	if len(files) < 13 {
		t.Fatalf("found %d xlsx files in the shared test data, want 13", len(files))
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			src := Source{Provider: FormatESS, FilePath: path, FirstVoteColumnIndex: 2, FirstVoteRowIndex: 2,
				OvervoteLabel: "overvote", SkippedRankLabel: "undervote"}
			if strings.Contains(path, "exhaust_if_multiple") {
				src.OvervoteLabel, src.OvervoteDelimiter = "", "|"
			}
			f, err := ReadFile(context.Background(), src, Options{})
			if err != nil {
				t.Fatal(err)
			}
			got := renderAll(&f.Ballots, f.Candidates)
			if want := derivedBallots(t, path+".derived.csv"); !slices.Equal(got, want) {
				t.Errorf("ballots differ from the derived CSV:\n got %q\nwant %q", got, want)
			}
		})
	}
}

// derivedBallots renders the ballots of a derived CSV the way render does,
// taking column 2 on as rankings: "overvote" is *, "undervote" or blank is a
// skipped rank, "|" joins candidates at one rank.
func derivedBallots(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.FieldsPerRecord = -1
	rows, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, row := range rows[1:] {
		var ranks []string
		blank := true
		for _, cell := range row {
			blank = blank && strings.TrimSpace(cell) == ""
		}
		if blank {
			continue
		}
		for _, cell := range row[1:] {
			switch cell = strings.TrimSpace(cell); cell {
			case "", "undervote":
				ranks = append(ranks, "-")
			case "overvote":
				ranks = append(ranks, "*")
			default:
				ranks = append(ranks, strings.ReplaceAll(cell, "|", "="))
			}
		}
		for len(ranks) > 0 && ranks[len(ranks)-1] == "-" {
			ranks = ranks[:len(ranks)-1]
		}
		out = append(out, strings.Join(ranks, " "))
	}
	return out
}

// TestReadESSOptions checks the ES&S settings on the shared spreadsheets.
func TestReadESSOptions(t *testing.T) {
	dir := filepath.Join(sharedTestdata, "rctab")
	seq := filepath.Join(dir, "_shared", "simple_sequential_cvr.xlsx")
	tests := []struct {
		name    string
		src     Source
		opts    Options
		names   []string
		ballot  int
		want    string
		wantErr string
	}{
		{"BlankIsUndeclaredWriteInUpToMaxRankings",
			Source{FilePath: seq, TreatBlankAsUndeclaredWriteIn: true},
			Options{MaxRankings: 3}, []string{"A", "B", "C", "D", UndeclaredWriteIn}, 0,
			"A Undeclared Write-ins Undeclared Write-ins", ""},
		{"MaxRankingsIsTheLastColumnRead",
			Source{FilePath: filepath.Join(dir, "_shared", "bottoms_up_cvr.xlsx")},
			Options{MaxRankings: 2}, []string{"A", "B", "C", "D", "E", "F", "G", "H"}, 0, "A B", ""},
		{"IDColumnIsNotARanking",
			Source{FilePath: seq, IDColumnIndex: 2},
			Options{}, []string{"A", "B", "C", "D"}, 4, "- B", ""},
		{"ErrUnknownCandidateNamesRowAndColumn",
			Source{FilePath: seq}, Options{}, []string{"A", "C", "D"}, 0, "",
			`simple_sequential_cvr.xlsx: row 6, column 3: unknown candidate "B"`},
		{"ErrNoUndeclaredWriteInCandidate",
			Source{FilePath: seq, TreatBlankAsUndeclaredWriteIn: true}, Options{MaxRankings: 3},
			[]string{"A", "B", "C", "D"}, 0, "",
			`simple_sequential_cvr.xlsx: row 2, column 3: blank cells count as undeclared write-ins, but the contest has no "Undeclared Write-ins" candidate`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := tc.src
			src.Provider, src.FirstVoteColumnIndex, src.FirstVoteRowIndex = FormatESS, 2, 2
			var set = newSet()
			_, err := Read(context.Background(), src, IndexCandidates(tc.names...), set, tc.opts)
			if tc.wantErr != "" {
				var pe *ParseError
				if err == nil || err.Error() != tc.wantErr || !errors.As(err, &pe) {
					t.Fatalf("err = %v, want %s", err, tc.wantErr)
				}
				if set.Len() != 0 {
					t.Errorf("a failed read left %d ballots", set.Len())
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := render(set, tc.ballot, tc.names); got != tc.want {
				t.Errorf("ballot %d = %q, want %q", tc.ballot, got, tc.want)
			}
		})
	}
}
