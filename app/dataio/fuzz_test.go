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
// CSV, a BLT or a PrefLib file, with aliases. It must not panic; a refusal
// is a domain error; and what it accepts is ballots a VoteDesk election
// holds (app.CheckCast), as cast.
func FuzzReadCVRs(f *testing.F) {
	f.Add("ballot_id,rank_1,rank_2\n1,A,b\n2,C|A,\n3,,\n", uint8(0))
	f.Add("ballot_id,rank_1,rank_2,rank_3\n1,A,A,B\n1,B,,\n", uint8(0))
	f.Add("BallotID,A,B,C\nx,1,2,\ny,,1,1\n", uint8(1))
	f.Add("3 1\n2 1 2 0\n(b1) 1 3=2 1 0\n1 - 2 0\n0\n\"A\"\n\"Bee\"\n\"C\"\n\"T\"\n", uint8(2))
	f.Add("3 1\n1 1 -=- 2 0\n2 2 2 - 3=- 1=3 0\n0\n\"A\"\n\"Bee\"\n\"C\"\n", uint8(2))
	f.Add("# ALTERNATIVE NAME 1: A\n# ALTERNATIVE NAME 2: bee\n# ALTERNATIVE NAME 3: C\n4: 1,{2,3}\n2: 3\n", uint8(3))
	if b, err := os.ReadFile(filepath.Join(shared, "real", "burlington_2009_mayor", "00005-00000002.toi")); err == nil {
		f.Add(string(b), uint8(3))
	}
	names := []string{"A", "Bee", "C"}
	exts := []string{"ballots.csv", "generic.csv", "ballots.blt", "ballots.toi"}
	f.Fuzz(func(t *testing.T, content string, kind uint8) {
		path := filepath.Join(t.TempDir(), exts[int(kind)%len(exts)])
		if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		im, err := dataio.ReadCVRs(context.Background(), names, []cvr.Source{{FilePath: path}},
			dataio.CVROptions{Aliases: map[string]string{"B": "Bee"}})
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
