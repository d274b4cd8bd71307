package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"votedesk/app"
	"votedesk/localstore"
)

// TestRestoreNotice is what the desktop app does after an OWNER confirms a
// restore: the backup replaces the database (the old one is kept) and the
// notice says so; a bad backup changes nothing and the notice says why.
func TestRestoreNotice(t *testing.T) {
	dir := t.TempDir()
	db, backup := filepath.Join(dir, "votedesk.db"), filepath.Join(dir, "backup.db")
	st, err := localstore.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	svc := app.NewService(st, nil, nil)
	ctx := context.Background()
	if err := svc.RegisterUser(ctx, "", "olga", "olga@example.org", "owner-password"); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Backup(ctx, backup); err != nil {
		t.Fatal(err)
	}
	if err := svc.CreateElection(ctx, "olga", "After the backup", "", false); err != nil {
		t.Fatal(err)
	}
	st.Close()

	bad := filepath.Join(dir, "bad.db")
	os.WriteFile(bad, []byte("not a database"), 0o600)
	if n := restoreNotice(db, bad); !strings.Contains(n, "The restore failed") || !strings.Contains(n, "not a VoteDesk database") {
		t.Errorf("notice of a bad backup: %q", n)
	}
	n := restoreNotice(db, backup)
	if !strings.Contains(n, "Restored 1 events") || !strings.Contains(n, ".before-restore-") {
		t.Errorf("notice: %q", n)
	}
	st, err = localstore.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if es, _ := app.NewService(st, nil, nil).Elections(ctx, "olga"); len(es) != 0 {
		t.Errorf("the restored database holds %d elections, want the backup's 0", len(es))
	}
}
