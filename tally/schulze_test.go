package tally

import (
	"bufio"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"votedesk/app/apptest"
)

// testdata returns the shared test data folder.
func testdata(t testing.TB) string {
	t.Helper()
	d := apptest.SharedTestdata()
	if _, err := os.Stat(d); err != nil {
		t.Fatalf("shared test data: %v", err)
	}
	return d
}

// sections splits a seed-vote file into its headed sections, each the list
// of its indented rows split into fields.
func sections(t *testing.T, path string) map[string][][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string][][]string{}
	head := ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.TrimSpace(line) == "" {
			continue
		}
		if !strings.HasPrefix(line, " ") {
			head = strings.Fields(line)[0]
			out[head] = [][]string{}
			continue
		}
		out[head] = append(out[head], strings.Fields(line))
	}
	return out
}

// TestSchulzeSeedVote checks every seed-vote Schulze scenario: the
// preference matrix, the strongest paths and the places.
func TestSchulzeSeedVote(t *testing.T) {
	root := filepath.Join(testdata(t), "seed-vote", "schulze")
	dirs, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		t.Run(d.Name(), func(t *testing.T) {
			in := sections(t, filepath.Join(root, d.Name(), "input.txt"))
			want := sections(t, filepath.Join(root, d.Name(), "expected.txt"))
			var c Contest
			index := map[string]uint16{}
			for _, row := range in["candidates"] {
				index[row[0]] = uint16(len(c.Candidates))
				c.Candidates = append(c.Candidates, Candidate{Name: row[0]})
			}
			b := &BallotSet{}
			for _, row := range in["ballots"] {
				var marks []Mark
				for i := 2; i+1 < len(row); i += 2 {
					rank, _ := strconv.Atoi(row[i])
					marks = append(marks, Mark{Rank: uint16(rank), Candidate: index[row[i+1]]})
				}
				b.Add(row[1], 1, marks)
			}
			res, err := Tabulate(c, b, Schulze, Rules{})
			if err != nil {
				t.Fatal(err)
			}
			p := res.Pairwise
			var names []string
			for _, x := range p.Candidates {
				names = append(names, c.Candidates[x].Name)
			}
			var wantNames []string
			for _, row := range want["candidates"] {
				wantNames = append(wantNames, row[0])
			}
			if !reflect.DeepEqual(names, wantNames) {
				t.Fatalf("candidate order = %v, want %v", names, wantNames)
			}
			if got, w := p.Preferences, matrix(want["preference-matrix"]); !reflect.DeepEqual(got, w) {
				t.Errorf("preferences = %v, want %v", got, w)
			}
			if got, w := p.StrongestPaths, matrix(want["strongest-path-matrix"]); !reflect.DeepEqual(got, w) {
				t.Errorf("strongest paths = %v, want %v", got, w)
			}
			var gotPlaces, wantPlaces []string
			for _, pl := range res.Places {
				var ns []string
				for _, x := range pl.Candidates {
					ns = append(ns, c.Candidates[x].Name)
				}
				gotPlaces = append(gotPlaces, strconv.Itoa(pl.Place)+" "+strings.Join(ns, " "))
			}
			for _, row := range want["tally"] {
				n, _ := strconv.Atoi(strings.TrimRight(row[0], "stndrh"))
				wantPlaces = append(wantPlaces, strconv.Itoa(n)+" "+strings.Join(row[1:], " "))
			}
			if !reflect.DeepEqual(gotPlaces, wantPlaces) {
				t.Errorf("places = %q, want %q", gotPlaces, wantPlaces)
			}
		})
	}
}

func matrix(rows [][]string) [][]int64 {
	out := make([][]int64, len(rows))
	for i, row := range rows {
		for _, f := range row {
			n, _ := strconv.ParseInt(f, 10, 64)
			out[i] = append(out[i], n)
		}
	}
	return out
}
