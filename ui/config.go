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
}
