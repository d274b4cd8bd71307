// Command votedesk is VoteDesk: with no arguments it opens the desktop app,
// with arguments it runs the command line. This file only wires the parts
// together.
package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"votedesk/app"
	"votedesk/assets"
	"votedesk/localstore"
	cloudsync "votedesk/sync"
	"votedesk/ui"
	"votedesk/ui/cli"
	"votedesk/ui/kiosk"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], cli.Deps{
		Open:      openBackend,
		GUI:       runGUI,
		Kiosk:     runKiosk,
		Files:     files{},
		DefaultDB: defaultDB,
		Stdin:     os.Stdin,
		Stdout:    os.Stdout,
		Stderr:    os.Stderr,
	}))
}

// openBackend opens the database file and builds the services over it.
func openBackend(path string) (*cli.Backend, error) {
	st, err := localstore.Open(path)
	if err != nil {
		return nil, err
	}
	cloud := func(o app.CloudOptions) app.Syncer {
		s := cloudsync.New(st, cloudsync.Config{Endpoint: o.Endpoint, TablePrefix: o.TablePrefix})
		s.NoProjection, s.CheckProjection = o.NoProjection, o.CheckProjection
		return s
	}
	svc := app.NewService(st, nil, nil, app.WithAttemptLog(st.Attempts()))
	return &cli.Backend{Service: svc, Store: st, Cloud: cloud}, nil
}

// runGUI opens the desktop app on the database at path. When the app asks
// for a backup to be restored, the database is closed, the backup restored
// (localstore checks it again first), and the app started again with a
// notice of what happened.
//
// A path named on the command line where there is no database is created
// only after the user says so (ui.AskCreate); the app then starts again
// with createEnv naming the path.
func runGUI(path string, ask bool) error {
	if ask && os.Getenv(createEnv) != path {
		if !ui.AskCreate(path, assets.Icon) {
			return app.Errorf(app.CodeNotFound, "no VoteDesk database at %s; nothing was created", path)
		}
		return reexec(createEnv + "=" + path)
	}
	os.Unsetenv(createEnv)
	restoreFrom, err := runGUIOnce(path, os.Getenv(noticeEnv))
	if err != nil || restoreFrom == "" {
		return err
	}
	return reexec(noticeEnv + "=" + restoreNotice(path, restoreFrom))
}

// reexec starts this program again in this process, with the same
// arguments and one more environment variable.
func reexec(envVar string) error {
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	return syscall.Exec(exe, append([]string{exe}, os.Args[1:]...), append(os.Environ(), envVar))
}

// restoreNotice restores the backup at from over the database at path and
// says, for the user, what happened.
func restoreNotice(path, from string) string {
	info, err := localstore.Restore(context.Background(), path, from, time.Now())
	if err != nil {
		return "The restore failed; the database is as it was.\n" + app.ErrorMessage(err)
	}
	return fmt.Sprintf("Restored %d events from %s. The database it replaced is kept as %s.", info.Report.Events, from, info.Kept)
}

// noticeEnv carries a notice to the app started again after a restore;
// createEnv names the database the user agreed to create.
const (
	noticeEnv = "VOTEDESK_NOTICE"
	createEnv = "VOTEDESK_CREATE_DB"
)

// runGUIOnce runs the app until it closes, and returns the backup it asked
// to restore, if any.
func runGUIOnce(path, notice string) (restoreFrom string, err error) {
	os.Unsetenv(noticeEnv)
	b, err := openBackend(path)
	if err != nil {
		return "", err
	}
	defer b.Store.Close()
	if kept := b.Store.Upgraded(); kept != "" && notice == "" {
		notice = "VoteDesk upgraded this database to its current layout. The file as it was is kept as " + kept + "."
	}
	if stop, err := b.Store.ServeControl(backupGate(b.Service)); err == nil {
		defer stop()
	}
	err = ui.Run(ui.Config{Service: b.Service, DBPath: path, Icon: assets.Icon, Backup: b.Store.Backup,
		Sync: ui.NewCloudSyncer(b.Cloud), CheckBackup: localstore.CheckFile,
		Restore: func(from string) { restoreFrom = from }, Notice: notice})
	return restoreFrom, err
}

// runKiosk opens a kiosk window on the database the command opened.
func runKiosk(k cli.KioskStart) error {
	return kiosk.Run(kiosk.Config{Service: k.Service, Official: k.Official, Election: k.Election, PasscodeHash: k.PasscodeHash,
		ReturnAfter: k.ReturnAfter, TextSize: k.TextSize, HighContrast: k.HighContrast, Sync: kiosk.CloudSync(k.Sync)}, ui.AppID, assets.Icon)
}

// files are the operations on database files that are not open here.
type files struct{}

func (files) Restore(ctx context.Context, dbPath, from string) (app.RestoreInfo, error) {
	return localstore.Restore(ctx, dbPath, from, time.Now())
}

func (files) Compact(ctx context.Context, dbPath string) (app.CompactInfo, error) {
	return localstore.Compact(ctx, dbPath, time.Now())
}

func (files) RequestBackup(ctx context.Context, dbPath, dest, user, password string) (app.BackupInfo, error) {
	return localstore.RequestBackup(ctx, dbPath, dest, user, password)
}

func (files) CheckFile(ctx context.Context, path string) (app.VerifyReport, error) {
	return localstore.CheckFile(ctx, path)
}

// defaultDB is votedesk.db in the user's configuration folder.
func defaultDB() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "votedesk", "votedesk.db"), nil
}

// backupGate lets through the users who may back up the database.
func backupGate(svc *app.Service) func(user, password string) error {
	return func(user, password string) error {
		_, err := svc.AuthorizeBackup(context.Background(), user, password)
		return err
	}
}
