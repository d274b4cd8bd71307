package relaunch

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"votedesk/app"
	"votedesk/localstore"
)

// TestGUI walks the flow with a stand-in app and restart: what is asked,
// what the app is run with, and what the next process is started with.
func TestGUI(t *testing.T) {
	dir := t.TempDir()
	db, notABackup := filepath.Join(dir, "votedesk.db"), filepath.Join(dir, "missing.db")
	for _, tc := range []struct {
		name       string
		ask        bool
		env        map[string]string
		answer     bool   // to the question whether to create
		restore    string // what the app asks to restore
		runErr     error
		wantAsked  bool
		wantRun    bool
		wantNotice string
		// wantRestart is the variable the next process is started with
		// (its prefix), "" for none.
		wantRestart string
		wantErr     string
	}{
		{name: "ErrNotCreated", ask: true, wantAsked: true, wantErr: "nothing was created"},
		{name: "CreateStartsAgain", ask: true, answer: true, wantAsked: true, wantRestart: createEnv + "=" + db},
		{name: "CreatedAfterTheStart", ask: true, env: map[string]string{createEnv: db}, wantRun: true},
		{name: "ClosedWithoutRestore", wantRun: true},
		{name: "ErrApp", runErr: errors.New("no display"), wantRun: true, wantErr: "no display"},
		{name: "RestoreStartsAgain", restore: notABackup, wantRun: true,
			wantRestart: noticeEnv + "=The restore failed; the database is as it was.\n"},
		{name: "NoticeAfterTheStart", env: map[string]string{noticeEnv: "Restored 3 events"}, wantRun: true, wantNotice: "Restored 3 events"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			asked, ran, notice, restarted := false, false, "", ""
			g := GUI{
				AskCreate: func(path string) bool {
					asked = path == db
					return tc.answer
				},
				RunOnce: func(path, n string) (string, error) {
					ran, notice = path == db, n
					return tc.restore, tc.runErr
				},
				restart: func(marker string) error { restarted = marker; return nil },
			}
			err := g.Run(db, tc.ask)
			if tc.wantErr == "" && err != nil || tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)) {
				t.Errorf("Run: %v, want %q", err, tc.wantErr)
			}
			if asked != tc.wantAsked || ran != tc.wantRun || notice != tc.wantNotice {
				t.Errorf("asked %v, ran %v with notice %q; want %v, %v, %q", asked, ran, notice, tc.wantAsked, tc.wantRun, tc.wantNotice)
			}
			if tc.wantRestart == "" && restarted != "" || !strings.HasPrefix(restarted, tc.wantRestart) {
				t.Errorf("started again with %q, want %q", restarted, tc.wantRestart)
			}
			for _, name := range []string{createEnv, noticeEnv} {
				if v, ok := os.LookupEnv(name); ok {
					t.Errorf("%s=%s is left for what the app starts", name, v)
				}
			}
		})
	}
}

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
