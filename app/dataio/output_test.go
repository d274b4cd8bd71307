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
