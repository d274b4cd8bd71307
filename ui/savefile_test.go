package ui

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"votedesk/app"
	"votedesk/localstore"
	"votedesk/ui/modal"
)

// TestSaveDialogsNeverDestroyTheDatabase: choosing the open database (or
// a link to it) as the file to save a backup or a report to is refused, and
// the database file is the same byte for byte. Fyne's own save dialog would
// have truncated it before the app could look; the app's dialog only
// chooses a path.
func TestSaveDialogsNeverDestroyTheDatabase(t *testing.T) {
	h := newHarness(t, nil)
	h.sh.cfg.Backup = h.store.Backup
	h.owner()
	mayor(h, false)
	r := openResults(h, "Olivia")
	db := h.store.Path()
	link := filepath.Join(t.TempDir(), "link.db")
	h.must(os.Symlink(db, link))
	before, err := os.ReadFile(db)
	h.must(err)
	save := func(open func(), path string) string {
		t.Helper()
		open()
		h.wait()
		sp := h.topSavePath()
		sp.dir = filepath.Dir(path)
		sp.Name.SetText(filepath.Base(path))
		h.tapDialogButton("Save")
		if strings.Contains(h.dialogText(), "Replace it?") {
			h.tapDialogButton("Yes")
		}
		h.wait()
		said := h.dialogText()
		h.closeDialogs()
		return said
	}
	for _, path := range []string{db, link} {
		if said := save(h.sh.chooseBackup, path); !strings.Contains(said, "nothing was written") {
			t.Errorf("backup to %s: the app said %q", path, said)
		}
		for _, format := range []string{"json", "csv", "html"} {
			if said := save(func() { r.export(format) }, path); !strings.Contains(said, "nothing was written") {
				t.Errorf("%s export to %s: the app said %q", format, path, said)
			}
		}
	}
	if after, _ := os.ReadFile(db); !bytes.Equal(before, after) {
		t.Fatal("the database file changed")
	}
	if ok, err := h.svc.HasUsers(h.ctx); !ok || err != nil {
		t.Fatalf("the database no longer answers: %v", err)
	}
	// A new file is written, in the folder chosen, and the folder is
	// remembered for the next save.
	dir := t.TempDir()
	out := filepath.Join(dir, "mayor.html")
	if said := save(func() { r.export("html") }, out); !strings.Contains(said, "written to "+out) {
		t.Errorf("export to a new file: %q", said)
	}
	if b, err := os.ReadFile(out); err != nil || !bytes.Contains(b, []byte("Bob")) {
		t.Errorf("the report was not written: %v", err)
	}
	r.export("csv")
	h.wait()
	if sp := h.topSavePath(); sp.dir != dir || sp.Name.Text != "Mayor_detailed_report.csv" {
		t.Errorf("the next save starts in %s as %s", sp.dir, sp.Name.Text)
	}
	h.closeDialogs()
}

// TestBackupsKeepTheirFolder: a backup starts in the folder of the last
// backup, not in the folder a cast vote record was last imported from (seen
// under Xvfb: the backup was offered the test data's CVR folder), and a
// restore looks there too; saving a backup leaves the other files' folder
// as it was.
func TestBackupsKeepTheirFolder(t *testing.T) {
	h := newHarness(t, nil)
	h.sh.cfg.Backup = h.store.Backup
	h.sh.cfg.Restore = func(string) {}
	h.sh.cfg.CheckBackup = func(context.Context, string) (app.VerifyReport, error) { return app.VerifyReport{}, nil }
	h.owner()
	mayor(h, false)
	r := openResults(h, "Olivia")
	imports, backups := t.TempDir(), t.TempDir()
	h.sh.sess.prefs.SetString(prefLastFolder, imports) // a CVR file was opened there

	h.sh.chooseBackup()
	h.wait()
	sp := h.topSavePath()
	if sp.dir == imports {
		t.Errorf("the first backup starts in the folder of the last import, %s", imports)
	}
	sp.dir = backups
	h.tapDialogButton("Save")
	h.wait()
	if said := h.dialogText(); !strings.Contains(said, backups) {
		t.Fatalf("backup: the app said %q", said)
	}
	h.closeDialogs()

	h.sh.chooseBackup()
	h.wait()
	if sp := h.topSavePath(); sp.dir != backups {
		t.Errorf("the next backup starts in %s, want %s", sp.dir, backups)
	}
	h.closeDialogs()
	r.export("csv")
	h.wait()
	if sp := h.topSavePath(); sp.dir != imports {
		t.Errorf("an export after the backup starts in %s, want the last folder used for other files, %s", sp.dir, imports)
	}
	h.closeDialogs()
	h.sh.chooseRestore()
	h.wait()
	if op := h.sh.sess.opening; op == nil || op.Dir != backups {
		t.Errorf("the restore dialog does not start in the backups' folder %s", backups)
	}
	h.closeDialogs()
}

// topSavePath is the save dialog open on top.
func (h *harness) topSavePath() *SavePath {
	h.t.Helper()
	if h.sh.sess.saving == nil || h.win.Canvas().Overlays().Top() == nil {
		h.t.Fatal("no save dialog open")
	}
	return h.sh.sess.saving
}

// TestDeleteFinalizedKeepsACopy: the OWNER deleting a finalized election
// after its retention period gets a copy of the whole database kept beside
// it first, as on the command line; within the period the app refuses and
// nothing is written.
func TestDeleteFinalizedKeepsACopy(t *testing.T) {
	h := newHarness(t, nil)
	h.sh.cfg.Backup = h.store.Backup
	h.owner()
	mayor(h, false)
	h.must(h.svc.FinalizeElection(h.ctx, "Olivia", "Mayor"))
	h.signIn("Olivia")
	del := func() string {
		t.Helper()
		e, err := h.svc.Election(h.ctx, "Olivia", "Mayor")
		h.must(err)
		deleteElection(h.sh.sess, e, func() {})
		if f, ok := h.win.Canvas().Focused().(*modal.Entry); !ok || f.PlaceHolder != "Mayor" {
			t.Errorf("Delete: focus on %T, want the field for the election's name", h.win.Canvas().Focused())
		}
		h.typeInDialog("Mayor")
		h.tapDialogButton("Delete")
		h.wait()
		said := h.dialogText()
		h.closeDialogs()
		return said
	}
	kept := func() []string {
		m, _ := filepath.Glob(h.store.Path() + ".before-delete-*")
		return m
	}
	if said := del(); !strings.Contains(said, "records are kept until") || len(kept()) != 0 {
		t.Errorf("delete within the retention period: %q, kept %v", said, kept())
	}
	h.clock.Add(23 * 31 * 24 * time.Hour)
	said := del()
	if k := kept(); len(k) != 1 || !strings.Contains(said, k[0]) {
		t.Fatalf("delete after the retention period: %q, kept %v", said, k)
	}
	if _, err := h.svc.Election(h.ctx, "Olivia", "Mayor"); err == nil {
		t.Error("the election is still there")
	}
	st, err := localstore.Open(kept()[0])
	h.must(err)
	defer st.Close()
	if e, err := app.NewService(st, nil, nil).Election(h.ctx, "Olivia", "Mayor"); err != nil || e.Ballots != int64(len(mayorBallots)) {
		t.Errorf("the kept copy: %+v %v", e, err)
	}
}

// TestJoinDialogFocusesTheEndpoint: Join an existing deployment asks
// where the cloud is with the keyboard in its first field.
func TestJoinDialogFocusesTheEndpoint(t *testing.T) {
	h := newHarness(t, newFakeSyncer(testStart))
	h.sh.JoinCloud()
	h.wait()
	if f, ok := h.win.Canvas().Focused().(*modal.Entry); !ok || !strings.HasPrefix(f.PlaceHolder, "empty: the region's DynamoDB") {
		t.Errorf("Join: focus on %T, want the endpoint", h.win.Canvas().Focused())
	}
	h.closeDialogs()
}
