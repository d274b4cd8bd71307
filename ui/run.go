package ui

import (
	"fyne.io/fyne/v2"
	fyneapp "fyne.io/fyne/v2/app"

	"votedesk/app"
)

// AppID is VoteDesk's Fyne application id (also in FyneApp.toml).
const AppID = "org.votedesk.app"

// Config is what the desktop app is built from.
type Config struct {
	Service *app.Service
	DBPath  string
	Icon    fyne.Resource
}

// Run opens the main window and returns when it is closed.
func Run(cfg Config) error {
	a := fyneapp.NewWithID(AppID)
	if cfg.Icon != nil {
		a.SetIcon(cfg.Icon)
	}
	w := a.NewWindow("VoteDesk")
	NewShell(a, w, cfg).Show()
	w.ShowAndRun()
	return nil
}
