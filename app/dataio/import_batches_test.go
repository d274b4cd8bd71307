package dataio

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"votedesk/app"
	"votedesk/tally"
)

// expanded is the import's ballots made all at once, record by record, as
// the import made them before it made them a batch at a time: a record
// counted n times is n ballots with ids ID_1 ... ID_n, a record without an
// id takes the file's id and its place.
func expanded(im *CVRImport) []app.ImportedBallot {
	var out []app.ImportedBallot
	for f, sp := range im.spans {
		for r := range sp.set.Len() {
			marks, count := sp.set.Ballot(r)
			id := sp.set.ID(r)
			if id == "" {
				id = im.Files[f].FileID + "/" + strconv.Itoa(r+1)
			}
			b := app.ImportedBallot{SourceID: id, Rankings: app.MarksToRankings(nil, marks, im.names)}
			if sp.set.Precincts != nil {
				b.Precinct = sp.set.Precincts[r]
			}
			if sp.set.Batches != nil {
				b.Batch = sp.set.Batches[r]
			}
			if sp.set.Tabulators != nil {
				b.Tabulator = sp.set.Tabulators[r]
			}
			if count == 1 {
				out = append(out, b)
				continue
			}
			for k := range count {
				b.SourceID = id + "_" + strconv.Itoa(int(k)+1)
				out = append(out, b)
			}
		}
	}
	return out
}

// same compares ballots as the event that records them would (an empty
// ranking is an empty ranking, whether its slice is nil or not).
func same(a, b []app.ImportedBallot) bool {
	return len(a) == len(b) && fmt.Sprintf("%+v", a) == fmt.Sprintf("%+v", b)
}

// TestBatchesSameAsWhole: the import's ballots made a batch at a time, from
// any place to any place (across files, in the middle of a record counted
// several times), are the ballots made all at once, and SourceID and where
// name each as it is made.
func TestBatchesSameAsWhole(t *testing.T) {
	rng := rand.New(rand.NewPCG(48, 1))
	names := []string{"Ada", "Ben", "Cal", "Dee"}
	for trial := range 40 {
		im := &CVRImport{names: names}
		for file := range 1 + rng.IntN(4) {
			set := &tally.BallotSet{}
			for r := range rng.IntN(30) {
				var marks []tally.Mark
				for rank := range rng.IntN(5) {
					c := uint16(rng.IntN(len(names)))
					if rng.IntN(20) == 0 {
						c = tally.Overvote
					}
					marks = append(marks, tally.Mark{Rank: uint16(rank + 1), Candidate: c})
				}
				id := ""
				if trial%3 != 0 || rng.IntN(2) == 0 {
					id = fmt.Sprintf("f%d-r%d", file, r)
				}
				count := uint32(1)
				if trial%2 == 1 {
					count = uint32(1 + rng.IntN(4))
				}
				if err := set.Add(id, count, marks); err != nil {
					t.Fatal(err)
				}
				if trial%4 == 0 {
					set.SetPrecinct(fmt.Sprintf("P%d", rng.IntN(3)))
				}
			}
			path := filepath.Join(t.TempDir(), fmt.Sprintf("file%d.csv", file))
			if err := os.WriteFile(path, fmt.Appendf(nil, "file %d of trial %d", file, trial), 0o600); err != nil {
				t.Fatal(err)
			}
			im.Files = append(im.Files, CVRFileSummary{Name: filepath.Base(path), Path: path})
			if err := im.add(set, &im.Files[file]); err != nil {
				t.Fatal(err)
			}
		}
		whole := expanded(im)
		if im.Len() != len(whole) {
			t.Fatalf("trial %d: Len %d, %d ballots made whole", trial, im.Len(), len(whole))
		}
		if got := im.Batch(0, im.Len()); !same(got, whole) {
			t.Fatalf("trial %d: the whole import a batch at once differs", trial)
		}
		for range 20 {
			lo := rng.IntN(len(whole) + 1)
			hi := lo + rng.IntN(len(whole)-lo+1)
			if got := im.Batch(lo, hi); !same(got, whole[lo:hi]) {
				t.Fatalf("trial %d: ballots %d to %d differ:\n%+v\nwant\n%+v", trial, lo, hi, got, whole[lo:hi])
			}
		}
		for i, b := range whole {
			if id := im.SourceID(i); id != b.SourceID {
				t.Fatalf("trial %d: ballot %d: SourceID %q, want %q", trial, i, id, b.SourceID)
			}
			if w := im.where(i); !strings.Contains(w, strconv.Quote(b.SourceID)) {
				t.Fatalf("trial %d: where(%d) = %q does not name %q", trial, i, w, b.SourceID)
			}
		}
	}
}
