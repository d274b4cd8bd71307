package cvr

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"votedesk/tally"
)

// TestWriteCDFMatchesRCTab writes the ballots of each RCTab test set that has
// an expected CDF export and compares the result with RCTab's: the same
// report once RCTab's per-round snapshots are dropped, and byte for byte from
// the Election on.
func TestWriteCDFMatchesRCTab(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(sharedTestdata, "rctab", "*", "*_expected_cdf_cvr.json"))
	if len(files) == 0 {
		t.Fatal("no expected CDF exports in the shared test data")
	}
	for _, expectedPath := range files {
		name := filepath.Base(filepath.Dir(expectedPath))
		t.Run(name, func(t *testing.T) {
			sources, names, _ := loadRCTab(t, filepath.Join(name, name+"_config.json"))
			set, _ := mustRead(t, sources[0], names, Options{})
			file := filepath.Base(sources[0].FilePath)
			ids := make([]string, set.Len())
			for i := range ids {
				ids[i] = fmt.Sprintf("%s(%d)", file, i+1) // RCTab's computed ids
			}
			set.IDs = tally.NewTexts(ids...)
			want, err := os.ReadFile(expectedPath)
			if err != nil {
				t.Fatal(err)
			}
			var expected map[string]any
			if err := json.Unmarshal(want, &expected); err != nil {
				t.Fatal(err)
			}
			date, _ := time.Parse(time.RFC3339, expected["GeneratedDate"].(string))
			jurisdiction := expected["GpUnit"].([]any)[0].(map[string]any)["Name"].(string)
			contest := expected["Election"].([]any)[0].(map[string]any)["Contest"].([]any)[0].(map[string]any)["Name"].(string) // RCTab's outputSettings.contestName
			var out bytes.Buffer
			err = WriteCDF(&out, CDFReport{ContestName: contest, Jurisdiction: jurisdiction, Candidates: names, GeneratedDate: date}, set)
			if err != nil {
				t.Fatal(err)
			}
			var got map[string]any
			if err := json.Unmarshal(out.Bytes(), &got); err != nil {
				t.Fatalf("output is not JSON: %v", err)
			}
			dropRoundSnapshots(expected)
			if !reflect.DeepEqual(got, expected) {
				g, w := got["CVR"].([]any), expected["CVR"].([]any)
				for i := range min(len(g), len(w)) {
					if !reflect.DeepEqual(g[i], w[i]) {
						gj, _ := json.Marshal(g[i])
						wj, _ := json.Marshal(w[i])
						t.Fatalf("CVR %d differs from RCTab's:\n got %s\nwant %s", i+1, gj, wj)
					}
				}
				t.Fatalf("report differs from RCTab's (%d CVRs, RCTab %d)", len(g), len(w))
			}
			tail := func(b []byte) string { return string(b[bytes.Index(b, []byte(`  "Election" : [`)):]) }
			if tail(out.Bytes()) != tail(want) {
				t.Errorf("layout from the Election on differs:\n got %s\nwant %s", tail(out.Bytes()), tail(want))
			}
		})
	}
}

// dropRoundSnapshots keeps only each CVR's original snapshot, as a report
// written before any tabulation has.
func dropRoundSnapshots(report map[string]any) {
	for _, c := range report["CVR"].([]any) {
		cvr := c.(map[string]any)
		snaps := cvr["CVRSnapshot"].([]any)
		cvr["CVRSnapshot"] = snaps[:1]
		cvr["CurrentSnapshotId"] = snaps[0].(map[string]any)["@id"]
	}
}

// TestWriteCDFLayout checks Jackson's layout on a small report with a
// precinct, an empty ballot, a weighted ballot and an explicit overvote.
func TestWriteCDFLayout(t *testing.T) {
	set := newSet()
	mustAdd(t, set, "b 1", 1, tally.Mark{Rank: 1, Candidate: 1})
	mustAdd(t, set, "", 2)
	mustAdd(t, set, "", 1, tally.Mark{Rank: 1, Candidate: tally.Overvote})
	set.Precincts = []string{"North", "", "North"}
	var out bytes.Buffer
	date := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	if err := WriteCDF(&out, CDFReport{ContestName: "Mayor", Jurisdiction: "Town", Candidates: []string{"Bo", "Al"}, GeneratedDate: date}, set); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	for _, want := range []string{
		"{\n  \"@type\" : \"CVR.CastVoteRecordReport\",\n  \"CVR\" : [ {\n    \"@type\" : \"CVR\",\n    \"BallotPrePrintedId\" : \"b_1\",\n    \"BallotStyleUnitId\" : \"gpu-1\",",
		"\"CVRContestSelection\" : [ ],",
		"\"BallotPrePrintedId\" : \"2\"", // the copies of a ballot counted twice, without an id
		"\"BallotPrePrintedId\" : \"3\"",
		"\"ContestSelectionId\" : \"cs-overvote\"",
		"\"Candidate\" : [ {\n      \"@id\" : \"c-al\",\n      \"Name\" : \"Al\"\n    }, {",
		"\"GeneratedDate\" : \"2025-01-02T03:04:05Z\",",
		"}, {\n    \"@id\" : \"gpu-1\",\n    \"@type\" : \"GpUnit\",\n    \"Name\" : \"North\",\n    \"Type\" : \"precinct\"\n  } ],",
		"  \"Version\" : \"1.0.0\"\n}",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("output lacks %q; output:\n%s", want, s)
		}
	}
}

func mustAdd(t testing.TB, set *tally.BallotSet, id string, count uint32, marks ...tally.Mark) {
	t.Helper()
	if err := set.Add(id, count, marks); err != nil {
		t.Fatal(err)
	}
}

// randomSet makes n random ballots over k candidates: skipped ranks, ties,
// explicit overvotes (alone at their rank, as every reader and the count
// require) when asked, ids on some, counts above 1 on some.
func randomSet(r *rand.Rand, n, k int, overvotes bool) *tally.BallotSet {
	set := newSet()
	for i := range n {
		var marks []tally.Mark
		rank := uint16(0)
		for range r.IntN(k + 1) {
			rank += uint16(1 + r.IntN(2)*r.IntN(2))
			if overvotes && r.IntN(16) == 0 { // an explicit overvote, alone at its rank
				marks = append(marks, tally.Mark{Rank: rank, Candidate: tally.Overvote})
				continue
			}
			first := r.IntN(k)
			marks = append(marks, tally.Mark{Rank: rank, Candidate: uint16(first)})
			if k > 1 && r.IntN(8) == 0 { // another candidate at the rank
				marks = append(marks, tally.Mark{Rank: rank, Candidate: uint16((first + 1 + r.IntN(k-1)) % k)})
			}
		}
		id := ""
		if i%3 != 0 {
			id = fmt.Sprintf("id-%d", i)
		}
		count := uint32(1)
		if r.IntN(10) == 0 {
			count = uint32(2 + r.IntN(3))
		}
		if err := set.Add(id, count, marks); err != nil {
			panic(err)
		}
	}
	return set
}

// expand returns the set with every ballot repeated by its count, as the
// writers write it; idOf names copy k of n of ballot i.
func expand(set *tally.BallotSet, idOf func(id string, n int, k, count uint32) string) *tally.BallotSet {
	out := newSet()
	n := 0
	for i := range set.Len() {
		marks, count := set.Ballot(i)
		for k := range count {
			n++
			if err := out.Add(idOf(set.ID(i), n, k, count), 1, marks); err != nil {
				panic(err)
			}
		}
	}
	if set.Precincts != nil {
		for i := range set.Len() {
			_, count := set.Ballot(i)
			for range count {
				out.Precincts = append(out.Precincts, set.Precincts[i])
			}
		}
	}
	return out
}

// TestVoteDeskRoundTrip writes random ballots as cast (overvotes, explicit
// overvotes, skipped ranks, repeated candidates) as VoteDesk CSV and reads
// them back, with names a spreadsheet would take for formulas: no cell of
// the file starts as a formula, and every name comes back as it was.
func TestVoteDeskRoundTrip(t *testing.T) {
	names := []string{"Alice", "Bob", "Smith, Carol", `Dan "D" Doe`, "Éva", `=HYPERLINK("http://x","y")`, "+1", "-Dash", "@SUM(1+1)", "'Quoted"}
	set := randomSet(rand.New(rand.NewPCG(1, 2)), 500, len(names), true)
	ids := make([]string, set.Len())
	for i := range ids {
		ids[i] = fmt.Sprintf("=id%d", i)
	}
	set.IDs = tally.NewTexts(ids...)
	var buf bytes.Buffer
	if err := WriteVoteDesk(&buf, names, set); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(strings.NewReader(strings.SplitN(buf.String(), "\n", 2)[1])).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range append(recs, strings.Split(strings.SplitN(buf.String(), "\n", 2)[0][len("# candidates: "):], ",")) {
		for _, cell := range rec {
			if cell != "" && strings.IndexByte("=+-@", strings.Trim(cell, `"`)[0]) >= 0 {
				t.Fatalf("cell %q would be a formula in a spreadsheet", cell)
			}
		}
	}
	path := writeTemp(t, "round.csv", buf.String())
	f, err := ReadFile(context.Background(), Source{FilePath: path}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(f.Candidates, names) || f.Format != FormatVoteDesk {
		t.Fatalf("read back %s candidates %q", f.Format, f.Candidates)
	}
	want := expand(set, func(id string, _ int, _, _ uint32) string { return id })
	if !reflect.DeepEqual(&f.Ballots, want) {
		t.Errorf("read back %d ballots that differ from the %d written", f.Ballots.Len(), want.Len())
	}
}

// TestCDFRoundTrip writes random ballots, with precincts and explicit
// overvotes, as CDF JSON and reads them back.
func TestCDFRoundTrip(t *testing.T) {
	names := []string{"Alice", "Bob", "Carol"}
	set := randomSet(rand.New(rand.NewPCG(3, 4)), 300, len(names), true)
	set.Precincts = make([]string, set.Len())
	for i := range set.Precincts {
		set.Precincts[i] = []string{"", "P1", "P 2"}[i%3]
	}
	var buf bytes.Buffer
	if err := WriteCDF(&buf, CDFReport{ContestName: "Mayor", Candidates: names}, set); err != nil {
		t.Fatal(err)
	}
	path := writeTemp(t, "round.json", buf.String())
	got, _ := mustRead(t, Source{Provider: FormatCDF, FilePath: path, ContestID: "Mayor", OvervoteLabel: OvervoteName}, names, Options{})
	want := expand(set, cdfBallotID)
	sortWithinRanks(got)
	sortWithinRanks(want)
	if !reflect.DeepEqual(got.Marks, want.Marks) || !reflect.DeepEqual(got.Ends, want.Ends) || !slices.Equal(idList(got), idList(want)) || !slices.Equal(got.Precincts, want.Precincts) {
		t.Errorf("read back ballots differ from those written")
	}
}

// TestWriteErrors checks what the writers refuse.
func TestWriteErrors(t *testing.T) {
	overvote := newSet()
	mustAdd(t, overvote, "", 1, tally.Mark{Rank: 1, Candidate: tally.Overvote})
	plain := newSet()
	mustAdd(t, plain, "", 1, tally.Mark{Rank: 1, Candidate: 2})
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"ErrVoteDeskOvervoteName", WriteVoteDesk(&bytes.Buffer{}, []string{"#overvote"}, overvote), `cvr: write VoteDesk CSV: candidate name "#overvote" is the overvote cell`},
		{"ErrVoteDeskBar", WriteVoteDesk(&bytes.Buffer{}, []string{"A|B"}, plain), `cvr: write VoteDesk CSV: candidate name "A|B" contains |, which joins tied names`},
		{"ErrVoteDeskUnnamed", WriteVoteDesk(&bytes.Buffer{}, []string{"A"}, plain), "cvr: write VoteDesk CSV: ballot 1: candidate 2 has no name"},
		{"ErrCDFSharedID", WriteCDF(&bytes.Buffer{}, CDFReport{Candidates: []string{"A B", "a_b"}}, plain), `cvr: write CDF: candidates "A B" and "a_b" would share the CDF id "c-a_b"`},
		{"ErrCDFUnnamed", WriteCDF(&bytes.Buffer{}, CDFReport{Candidates: []string{"A"}}, plain), "cvr: write CDF: ballot 1: candidate 2 has no name"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.err == nil || tc.err.Error() != tc.want {
				t.Errorf("err = %v\nwant %s", tc.err, tc.want)
			}
		})
	}
}

// sortWithinRanks orders the marks at each rank of each ballot by candidate:
// the order of marks at one rank carries no meaning, and CDF keeps its own.
func sortWithinRanks(set *tally.BallotSet) {
	start := uint32(0)
	for _, end := range set.Ends {
		slices.SortFunc(set.Marks[start:end], func(a, b tally.Mark) int {
			if a.Rank != b.Rank {
				return int(a.Rank) - int(b.Rank)
			}
			return int(a.Candidate) - int(b.Candidate)
		})
		start = end
	}
}

// idList is a set's ids, nil when it has none.
func idList(s *tally.BallotSet) []string {
	if s.IDs == nil {
		return nil
	}
	return s.IDs.Strings()
}
