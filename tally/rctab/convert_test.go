package rctab

import (
	"bytes"
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"votedesk/tally"
	"votedesk/tally/cvr"
)

// TestConvertToCSVMatchesRCTab: RCTab's three conversion cases (ES&S xlsx,
// two CDF JSON files with aliases, a Dominion export with overvotes and
// write-ins) converted to CSV give RCTab's expected file byte for byte.
func TestConvertToCSVMatchesRCTab(t *testing.T) {
	for _, name := range []string{"conversions_from_ess", "conversions_from_cdf", "conversions_from_dominion"} {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(testdata(t), "rctab-more", name)
			cfg, err := Load(filepath.Join(dir, name+"_config.json"))
			if err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			if err := cfg.WriteCVRCSV(context.Background(), &got); err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(filepath.Join(dir, name+"_expected.csv"))
			if err != nil {
				t.Fatal(err)
			}
			if got.String() != string(want) {
				gl, wl := strings.Split(got.String(), "\n"), strings.Split(string(want), "\n")
				for i := range min(len(gl), len(wl)) {
					if gl[i] != wl[i] {
						t.Fatalf("line %d:\n got  %q\n want %q", i+1, gl[i], wl[i])
					}
				}
				t.Fatalf("%d lines, want %d", len(gl), len(wl))
			}
		})
	}
}

// TestSeveralFilesInOneFilePath: a source whose filePath names two files
// separated by ";;" (RCTab 2) reads both with the source's settings: RCTab's
// generic CSV case split in two halves counts as the whole file does.
func TestSeveralFilesInOneFilePath(t *testing.T) {
	src := filepath.Join(testdata(t), "rctab", "generic_csv_test")
	data, err := os.ReadFile(filepath.Join(src, "generic_csv_test_cvr.csv"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	dir := t.TempDir()
	half := len(lines) / 2
	os.WriteFile(filepath.Join(dir, "first.csv"), []byte(strings.Join(lines[:half], "")), 0o600)
	os.WriteFile(filepath.Join(dir, "second.csv"), []byte(lines[0]+strings.Join(lines[half:], "")), 0o600)
	config, err := os.ReadFile(filepath.Join(src, "generic_csv_test_config.json"))
	if err != nil {
		t.Fatal(err)
	}
	split := strings.Replace(string(config), `"generic_csv_test_cvr.csv"`, `"first.csv;;second.csv"`, 1)
	os.WriteFile(filepath.Join(dir, "split_config.json"), []byte(split), 0o600)
	report := func(config, out string) string {
		if err := RunConfig(context.Background(), config, out); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(out, "detailed_report.json"))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	whole := report(filepath.Join(src, "generic_csv_test_config.json"), filepath.Join(t.TempDir(), "whole"))
	parts := report(filepath.Join(dir, "split_config.json"), filepath.Join(t.TempDir(), "parts"))
	if whole != parts {
		t.Errorf("two files in one filePath count otherwise than the one file:\n%s\n---\n%s", parts, whole)
	}
	cfg, err := Load(filepath.Join(dir, "split_config.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.CVRFileSources) != 2 || cfg.SourcePaths[1] != "second.csv" {
		t.Errorf("sources %v", cfg.SourcePaths)
	}
	bad := strings.Replace(string(config), `"generic_csv_test_cvr.csv"`, `"first.csv;;"`, 1)
	os.WriteFile(filepath.Join(dir, "bad_config.json"), []byte(bad), 0o600)
	if _, err := Load(filepath.Join(dir, "bad_config.json")); err == nil || !strings.Contains(err.Error(), "empty file") {
		t.Errorf("a filePath ending in ;; loads: %v", err)
	}
}

// TestConvertToCDFMatchesRCTab: the same three cases converted to a CDF
// cast vote record report give RCTab's expected file, apart from the time
// it was generated: selections named by the strings the files wrote
// (Dominion's candidate codes, the CDF files' aliases), RCTab's record ids,
// the overvote listed when a source has an overvote label.
func TestConvertToCDFMatchesRCTab(t *testing.T) {
	for _, name := range []string{"conversions_from_ess", "conversions_from_cdf", "conversions_from_dominion"} {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(testdata(t), "rctab-more", name)
			cfg, err := Load(filepath.Join(dir, name+"_config.json"))
			if err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(t.TempDir(), "cvr_cdf.json")
			f, err := os.Create(out)
			if err != nil {
				t.Fatal(err)
			}
			if err := cfg.WriteCDFJSON(context.Background(), f, time.Time{}); err != nil {
				t.Fatal(err)
			}
			if err := f.Close(); err != nil {
				t.Fatal(err)
			}
			compareFile(t, out, filepath.Join(dir, name+"_expected_cdf_cvr.json"), sameGeneratedDate(t, out))
		})
	}
}

// TestConvertedCSVReadsBack: every RCTab case's cast vote records,
// converted to CSV as RCTab's "convert to CSV" writes them, read back
// through the CSV alone (its format and layout told by its header, no
// config) give the same ballots in the same order: the same candidates
// at the same ranks, overvotes (a cell of several lines, or the label)
// and skipped ranks, and the same ids.
func TestConvertedCSVReadsBack(t *testing.T) {
	var cases []string
	for _, tc := range rctabCases {
		cases = append(cases, filepath.Join("rctab", tc.name))
	}
	for _, name := range append(slices.Clone(rctabMoreCases), "conversions_from_ess", "conversions_from_cdf", "conversions_from_dominion") {
		cases = append(cases, filepath.Join("rctab-more", name))
	}
	for _, dir := range cases {
		name := filepath.Base(dir)
		t.Run(name, func(t *testing.T) {
			cfg, err := Load(filepath.Join(testdata(t), dir, name+"_config.json"))
			if err != nil {
				t.Fatal(err)
			}
			csvPath := filepath.Join(t.TempDir(), name+".csv")
			var buf bytes.Buffer
			if err := cfg.WriteCVRCSV(context.Background(), &buf); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(csvPath, buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			rules, err := cfg.Rules()
			if err != nil {
				t.Fatal(err)
			}
			contest := cfg.Contest()
			cands, opts := cfg.Reader(rules)
			var want []string
			for _, src := range cfg.CVRFileSources {
				uwi := src.UndeclaredWriteInLabel
				if uwi == "" {
					uwi = cvr.UndeclaredWriteIn
				}
				names := make([]string, len(contest.Candidates))
				for i, c := range contest.Candidates {
					names[i] = c.Name
					if c.UndeclaredWriteIn {
						names[i] = uwi
					}
				}
				set := &tally.BallotSet{}
				if _, err := cvr.Read(context.Background(), src, cands, set, opts); err != nil {
					t.Fatal(err)
				}
				want = append(want, renderBallots(set, names)...)
			}
			back, err := cvr.ReadFile(context.Background(), cvr.Source{FilePath: csvPath}, cvr.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if back.Format != cvr.FormatESS {
				t.Errorf("the converted CSV is read as %s, want %s", back.Format, cvr.FormatESS)
			}
			got := renderBallots(&back.Ballots, back.Candidates)
			if !slices.Equal(got, want) {
				for i := range min(len(got), len(want)) {
					if got[i] != want[i] {
						t.Fatalf("ballot %d read back as %q, converted from %q", i+1, got[i], want[i])
					}
				}
				t.Fatalf("%d ballots read back, %d converted", len(got), len(want))
			}
			rows, err := csv.NewReader(bytes.NewReader(buf.Bytes())).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			for i := range back.Ballots.Len() {
				if id, want := back.Ballots.ID(i), rows[i+1][3]; id != want {
					t.Fatalf("ballot %d read back with id %q, want its RCTab CVR Id %q", i+1, id, want)
				}
			}
		})
	}
}

// renderBallots writes each ballot of a set as "count: rank:names/..."
// with the names at a rank sorted and an overvote as "#over".
func renderBallots(set *tally.BallotSet, names []string) []string {
	out := make([]string, set.Len())
	for i := range set.Len() {
		marks, count := set.Ballot(i)
		byRank := map[uint16][]string{}
		var ranks []uint16
		for _, m := range marks {
			n := "#over"
			if m.Candidate != tally.Overvote {
				n = names[m.Candidate]
			}
			if byRank[m.Rank] == nil {
				ranks = append(ranks, m.Rank)
			}
			byRank[m.Rank] = append(byRank[m.Rank], n)
		}
		slices.Sort(ranks)
		var parts []string
		for _, r := range ranks {
			slices.Sort(byRank[r])
			parts = append(parts, strconv.Itoa(int(r))+":"+strings.Join(byRank[r], "|"))
		}
		out[i] = strconv.Itoa(int(count)) + ": " + strings.Join(parts, " ")
	}
	return out
}
