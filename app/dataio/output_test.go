package dataio_test

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"votedesk/app"
	"votedesk/app/dataio"
	"votedesk/localstore"
)

// TestOutputNeverReplacesADatabase: whatever path names the database (as
// given, relative, through a symbolic or a hard link, a backup of it), a
// folder or a link, the guarded writer refuses and the file is unchanged.
func TestOutputNeverReplacesADatabase(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "votes.db")
	st, err := localstore.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	backup := filepath.Join(dir, "votes-backup.db")
	if _, err := st.Backup(t.Context(), backup); err != nil {
		t.Fatal(err)
	}
	st.Close()
	other := filepath.Join(dir, "notes.txt")
	os.WriteFile(other, []byte("keep me"), 0o600)
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.Symlink(db, filepath.Join(dir, "link.db")))
	must(os.Symlink(other, filepath.Join(dir, "link.txt")))
	must(os.Link(db, filepath.Join(dir, "hard.db")))
	must(os.Mkdir(filepath.Join(dir, "folder"), 0o700))
	t.Chdir(dir)
	before, _ := os.ReadFile(db)
	for _, target := range []string{db, "votes.db", "./votes.db", "folder/../votes.db", "link.db", "hard.db", backup, "link.txt", "folder", "folder/", "renamed-extension.json"} {
		if target == "renamed-extension.json" {
			// A database under any name is still a database.
			raw, _ := os.ReadFile(db)
			os.WriteFile(target, raw, 0o600)
		}
		err := dataio.WriteFileAtomic(target, 0o600, func(w io.Writer) error {
			_, err := io.WriteString(w, "{}\n")
			return err
		})
		if err == nil || !strings.Contains(app.ErrorMessage(err), strings.TrimSuffix(target, "/")) {
			t.Errorf("write to %s: %v, want a refusal naming the path", target, err)
		}
	}
	if after, _ := os.ReadFile(db); string(after) != string(before) {
		t.Error("the database changed")
	}
	if b, _ := os.ReadFile(other); string(b) != "keep me" {
		t.Error("the file behind a link changed")
	}
	// An ordinary file is written over; a new one is made.
	for _, target := range []string{other, "new.jsonl"} {
		if err := dataio.WriteFileAtomic(target, 0o600, func(w io.Writer) error { _, err := io.WriteString(w, "ok\n"); return err }); err != nil {
			t.Errorf("write to %s: %v", target, err)
		}
	}
}

// TestOutputOddPaths: odd spellings of a path are judged by the file they
// name, never by the string. (Case-insensitive file systems, where VOTES.DB
// would name the database, are not where VoteDesk runs today: Linux
// only.)
func TestOutputOddPaths(t *testing.T) {
	dir, db := outputWorld(t)
	for _, tc := range []struct {
		path string
		ok   bool
	}{
		{"", false}, {".", false}, {"..", false}, {"/", false}, {"./", false},
		{"votes.db/", false}, {"votes.db/.", false}, {"./././votes.db", false}, {"sub/../votes.db", false},
		{"sub//..//votes.db", false}, {dir + "/sub/../votes.db", false}, {"sub/", false}, {"sub", false},
		{"missing/out.csv", false}, {"votes.db\x00.csv", false}, {"VOTES.DB", true}, {"votes.db.csv", true},
		{"sub/out.csv", true}, {"out\nnewline.csv", true}, {strings.Repeat("x", 300), false},
	} {
		err := dataio.WriteFileAtomic(tc.path, 0o600, func(w io.Writer) error { _, err := io.WriteString(w, "x\n"); return err })
		if (err == nil) != tc.ok {
			t.Errorf("write to %q: %v, want ok=%v", tc.path, err, tc.ok)
		}
		if err != nil && tc.path != "" && !strings.Contains(app.ErrorMessage(err), strings.TrimSuffix(tc.path, "/")) && !strings.Contains(app.ErrorMessage(err), tc.path) {
			t.Errorf("the refusal of %q does not name it: %v", tc.path, err)
		}
		assertDatabaseIntact(t, db)
	}
}

// FuzzOutputPath: whatever path is named (inside the test's folder), the
// guarded writer never panics, never changes the database, and writes only
// a regular file that is not the database.
func FuzzOutputPath(f *testing.F) {
	for _, s := range []string{"votes.db", "./votes.db", "sub/../votes.db", "link.db", "hard.db", "sub/", "out.csv", "sub/x/../../votes.db", "..", "/"} {
		f.Add(s)
	}
	_, db := outputWorld(f)
	f.Fuzz(func(t *testing.T, path string) {
		if !filepath.IsLocal(path) {
			return // the fuzzer writes only inside its own folder
		}
		err := dataio.WriteFileAtomic(path, 0o600, func(w io.Writer) error { _, err := io.WriteString(w, "x\n"); return err })
		assertDatabaseIntact(t, db)
		if err != nil {
			return
		}
		fi, serr := os.Lstat(path)
		dbi, _ := os.Stat(db)
		if serr != nil || !fi.Mode().IsRegular() || os.SameFile(fi, dbi) {
			t.Fatalf("wrote %q: %v %v", path, fi, serr)
		}
		os.Remove(path)
	})
}

// outputWorld makes, in a folder that becomes the working folder, a
// database votes.db with a symbolic link and a hard link to it and a
// folder sub; it returns the folder and the database's path.
func outputWorld(t testing.TB) (string, string) {
	dir := t.TempDir()
	db := filepath.Join(dir, "votes.db")
	st, err := localstore.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	os.Symlink(db, filepath.Join(dir, "link.db"))
	os.Link(db, filepath.Join(dir, "hard.db"))
	os.Mkdir(filepath.Join(dir, "sub"), 0o700)
	t.Chdir(dir)
	raw, _ := os.ReadFile(db)
	intact[db] = string(raw)
	return dir, db
}

var intact = map[string]string{}

func assertDatabaseIntact(t testing.TB, db string) {
	t.Helper()
	if raw, err := os.ReadFile(db); err != nil || string(raw) != intact[db] {
		t.Fatalf("the database changed (%v)", err)
	}
}
