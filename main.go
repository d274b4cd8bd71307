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
	cloudsync "votedesk/sync"
	"votedesk/ui"
	"votedesk/ui/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], cli.Deps{
		Open:      openBackend,
		GUI:       runGUI,
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
		return cloudsync.New(st, cloudsync.Config{Endpoint: o.Endpoint, TablePrefix: o.TablePrefix})
	}
	svc := app.NewService(st, nil, nil, app.WithAttemptLog(st.Attempts()))
	return &cli.Backend{Service: svc, Store: st, Cloud: cloud}, nil
}

// runGUI opens the desktop app on the database at path.
func runGUI(path string) error {
	b, err := openBackend(path)
	if err != nil {
		return err
	}
	defer b.Store.Close()
	if stop, err := b.Store.ServeControl(); err == nil {
		defer stop()
	}
	return ui.Run(ui.Config{Service: b.Service, DBPath: path, Icon: assets.Icon, Backup: b.Store.Backup,
		Sync: ui.NewCloudSyncer(b.Cloud)})
}

// files are the operations on database files that are not open here.
type files struct{}

func (files) Restore(ctx context.Context, dbPath, from string) (app.RestoreInfo, error) {
	return localstore.Restore(ctx, dbPath, from, time.Now())
}

func (files) Compact(ctx context.Context, dbPath string) (int64, int64, error) {
	return localstore.Compact(ctx, dbPath)
}

func (files) RequestBackup(ctx context.Context, dbPath, dest string) (app.BackupInfo, error) {
	return localstore.RequestBackup(ctx, dbPath, dest)
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
