package dataio_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"votedesk/app"
	"votedesk/app/dataio"
	"votedesk/tally/cvr"
)

// FuzzReadCVRs feeds ReadCVRs any content, as a VoteDesk CSV, a generic
// CSV, a BLT or a PrefLib file, with aliases and repeated rankings dropped
// or not. It must not panic; a refusal is a domain error; and what it
// accepts is ballots a VoteDesk election holds: known candidates, ranks
// from 1 to the number of candidates, each candidate at most once.
func FuzzReadCVRs(f *testing.F) {
	f.Add("ballot_id,rank_1,rank_2\n1,A,b\n2,C|A,\n3,,\n", uint8(0), false)
	f.Add("ballot_id,rank_1,rank_2,rank_3\n1,A,A,B\n1,B,,\n", uint8(0), true)
	f.Add("BallotID,A,B,C\nx,1,2,\ny,,1,1\n", uint8(1), false)
	f.Add("3 1\n2 1 2 0\n(b1) 1 3=2 1 0\n1 - 2 0\n0\n\"A\"\n\"Bee\"\n\"C\"\n\"T\"\n", uint8(2), false)
	f.Add("# ALTERNATIVE NAME 1: A\n# ALTERNATIVE NAME 2: bee\n# ALTERNATIVE NAME 3: C\n4: 1,{2,3}\n2: 3\n", uint8(3), true)
	if b, err := os.ReadFile(filepath.Join(shared, "real", "burlington_2009_mayor", "00005-00000002.toi")); err == nil {
		f.Add(string(b), uint8(3), false)
	}
	names := []string{"A", "Bee", "C"}
	exts := []string{"ballots.csv", "generic.csv", "ballots.blt", "ballots.toi"}
	f.Fuzz(func(t *testing.T, content string, kind uint8, dropRepeated bool) {
		path := filepath.Join(t.TempDir(), exts[int(kind)%len(exts)])
		if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		im, err := dataio.ReadCVRs(context.Background(), names, []cvr.Source{{FilePath: path}},
			dataio.CVROptions{Aliases: map[string]string{"B": "Bee"}, DropRepeated: dropRepeated})
		if err != nil {
			if app.ErrorMessage(err) == "" || app.ErrorCode(err) == app.CodeInternal {
				t.Fatalf("refusal without a domain error: %v", err)
			}
			return
		}
		if im.Ballots == 0 || len(im.Files) != 1 {
			t.Fatalf("import = %+v", im)
		}
		if err := im.Check(names); err != nil {
			t.Fatal(err)
		}
	})
}
