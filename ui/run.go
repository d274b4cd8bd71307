package ui

import (
	"time"

	fyneapp "fyne.io/fyne/v2/app"

	"votedesk/ui/modal"
)

// Run opens the main window and returns when it is closed, or when the app
// quits: Fyne's desktop driver turns SIGTERM and SIGINT into a quit, so a
// session manager's close ends the app the same clean way and the caller
// closes the database.
//
// The window size is remembered while the app runs (checked every second,
// written when it changed): Fyne runs its stop hooks on another goroutine
// as it shuts down, so a size saved only then could be lost.
func Run(cfg Config) error {
	a := fyneapp.NewWithID(AppID)
	useDeskTheme(a)
	if cfg.Icon != nil {
		a.SetIcon(cfg.Icon)
	}
	w := a.NewWindow("VoteDesk")
	w.SetMaster()
	sh := NewShell(a, w, cfg)
	sh.RestoreWindow()
	sh.Show()
	if cfg.Notice != "" {
		modal.ShowInformation("VoteDesk", cfg.Notice, w)
	}
	var save func()
	stopSaving := func() {}
	save = func() {
		sh.SaveWindow()
		stopSaving = sh.tasks.After(time.Second, save)
	}
	a.Lifecycle().SetOnStarted(func() { stopSaving = sh.tasks.After(time.Second, save) })
	w.ShowAndRun()
	stopSaving()
	return nil
}
