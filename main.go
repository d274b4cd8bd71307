// Command votedesk is VoteDesk: with no arguments it opens the desktop app,
// with arguments it runs the command line. This file only wires the parts
// together.
package main

import (
	"context"
	"os"
	"path/filepath"
	"time"

	"votedesk/app"
	"votedesk/assets"
	"votedesk/localstore"
	"votedesk/memlimit"
	"votedesk/relaunch"
	cloudsync "votedesk/sync"
	"votedesk/ui"
	"votedesk/ui/cli"
	"votedesk/ui/kiosk"
)

func main() {
	memlimit.Set() // before anything large is held
	stop := startProfile()
	code := cli.Main(os.Args[1:], cli.Deps{
		Open:      openBackend,
		GUI:       relaunch.GUI{AskCreate: askCreate, RunOnce: runGUIOnce}.Run,
		Kiosk:     runKiosk,
		Files:     files{},
		DefaultDB: defaultDB,
		Stdin:     os.Stdin,
		Stdout:    os.Stdout,
		Stderr:    os.Stderr,
	})
	stop()
	os.Exit(code)
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

// askCreate asks whether to create a database at path.
func askCreate(path string) bool { return ui.AskCreate(path, assets.Icon) }

// runGUIOnce runs the app until it closes, and returns, with the database
// closed, the backup it asked to restore, if any (relaunch.GUI.RunOnce).
func runGUIOnce(path, notice string) (restoreFrom string, err error) {
	b, err := openBackend(path)
	if err != nil {
		// Said in a window too: the app may have been started from an
		// icon, with no terminal to print it in.
		ui.ShowCannotOpen(path, app.ErrorMessage(err), assets.Icon)
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

func (files) Restore(ctx context.Context, dbPath, from string, approve func(app.VerifyReport) error) (app.RestoreInfo, error) {
	return localstore.Restore(ctx, dbPath, from, time.Now(), approve)
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
