package cvr

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"votedesk/tally"

	"votedesk/app/apptest"
)

// sharedTestdata is where the project's shared test data lives, seen from
// this package.
var sharedTestdata = apptest.SharedTestdata()

// shared returns the path of a file under the shared test data, failing the
// test if it is not there.
func shared(t testing.TB, rel string) string {
	t.Helper()
	p := filepath.Join(sharedTestdata, rel)
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("shared test data missing: %v", err)
	}
	return p
}

// rctabConfig is the part of an RCTab contest config that reading needs.
type rctabConfig struct {
	Sources    []Source `json:"cvrFileSources"`
	Candidates []struct {
		Name    string   `json:"name"`
		Aliases []string `json:"aliases"`
	} `json:"candidates"`
	Rules struct {
		MaxRankingsAllowed json.RawMessage `json:"maxRankingsAllowed"`
	} `json:"rules"`
}

// loadRCTab loads an RCTab config under the shared rctab folder: its
// sources with paths made relative to the working directory, the contest's
// candidate names (with "Undeclared Write-ins" last when a source has an
// undeclared write-in label), and maxRankingsAllowed ("max" is the number of
// candidates, as in RCTab).
func loadRCTab(t testing.TB, rel string) ([]Source, []string, int) {
	t.Helper()
	path := shared(t, filepath.Join("rctab", rel))
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var c rctabConfig
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatalf("%s: %v", rel, err)
	}
	var names []string
	for _, cand := range c.Candidates {
		names = append(names, cand.Name)
	}
	for i := range c.Sources {
		c.Sources[i].FilePath = filepath.Join(filepath.Dir(path), c.Sources[i].FilePath)
		if c.Sources[i].UndeclaredWriteInLabel != "" && !contains(names, UndeclaredWriteIn) {
			names = append(names, UndeclaredWriteIn)
		}
	}
	var max string
	if err := json.Unmarshal(c.Rules.MaxRankingsAllowed, &max); err != nil {
		t.Fatalf("%s: maxRankingsAllowed: %v", rel, err)
	}
	n := len(names)
	if max != "max" {
		if n, err = strconv.Atoi(max); err != nil {
			t.Fatalf("%s: maxRankingsAllowed %q", rel, max)
		}
	}
	return c.Sources, names, n
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// render writes ballot i as its ranks in order, separated by spaces: "-" for
// a skipped rank, "a=b" for marks at one rank, "*" for tally.Overvote.
func render(set *tally.BallotSet, i int, names []string) string {
	marks, _ := set.Ballot(i)
	var parts []string
	rank := 1
	for k := 0; k < len(marks); {
		r := int(marks[k].Rank)
		for ; rank < r; rank++ {
			parts = append(parts, "-")
		}
		var group []string
		for ; k < len(marks) && int(marks[k].Rank) == r; k++ {
			if c := marks[k].Candidate; c == tally.Overvote {
				group = append(group, "*")
			} else {
				group = append(group, names[c])
			}
		}
		parts = append(parts, strings.Join(group, "="))
		rank++
	}
	return strings.Join(parts, " ")
}

// rankedNames writes ballot i's marks as "rank:name" (an overvote as
// "#over"), space-separated.
func rankedNames(set *tally.BallotSet, i int, names []string) string {
	marks, _ := set.Ballot(i)
	var out []string
	for _, m := range marks {
		name := "#over"
		if m.Candidate != tally.Overvote {
			name = names[m.Candidate]
		}
		out = append(out, strconv.Itoa(int(m.Rank))+":"+name)
	}
	return strings.Join(out, " ")
}

// renderAll renders every ballot of a set, repeating a ballot by its count.
func renderAll(set *tally.BallotSet, names []string) []string {
	var out []string
	for i := range set.Len() {
		_, n := set.Ballot(i)
		for range n {
			out = append(out, render(set, i, names))
		}
	}
	return out
}

// mustRead reads a source with the given candidates, failing the test on error.
func mustRead(t testing.TB, src Source, names []string, opts Options) (*tally.BallotSet, Stats) {
	t.Helper()
	var set tally.BallotSet
	st, err := Read(context.Background(), src, IndexCandidates(names...), &set, opts)
	if err != nil {
		t.Fatalf("read %s: %v", src.FilePath, err)
	}
	return &set, st
}

// writeTemp writes content to a file with the given name in a fresh
// temporary directory and returns its path.
func writeTemp(t testing.TB, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// newSet returns an empty ballot set.
func newSet() *tally.BallotSet { return &tally.BallotSet{} }
