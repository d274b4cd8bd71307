package ui

import (
	"context"

	"fyne.io/fyne/v2"

	"votedesk/app"
)

// AppID is VoteDesk's Fyne application id (also in FyneApp.toml).
const AppID = "org.votedesk.app"

// Config is what the desktop app is built from; main.go fills it.
type Config struct {
	Service *app.Service
	DBPath  string
	Icon    fyne.Resource
	// Sync drives the sync panel; nil means this build has no sync, and the
	// panel shows only conflicts and rejected events.
	Sync Syncer
	// Backup writes a consistent copy of the open database to a file; nil
	// hides the menu item.
	Backup func(ctx context.Context, dest string) (app.BackupInfo, error)
	// CheckBackup verifies a backup file before it may be restored; nil
	// hides restoring.
	CheckBackup func(ctx context.Context, path string) (app.VerifyReport, error)
	// Restore asks for the database to be replaced by the backup at path
	// once the app has closed it; the app then quits, and main restores and
	// starts it again.
	Restore func(path string)
	// Notice, when set, is shown once the window is up (what a restore did).
	Notice string
}
