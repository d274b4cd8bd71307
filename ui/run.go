package ui

import (
	"os"
	"os/signal"
	"syscall"

	"fyne.io/fyne/v2"
	fyneapp "fyne.io/fyne/v2/app"
)

// Run opens the main window and returns when it is closed: by the user, or
// by SIGTERM or SIGINT, which close the window the same way so the caller
// closes the database and exits cleanly.
func Run(cfg Config) error {
	a := fyneapp.NewWithID(AppID)
	if cfg.Icon != nil {
		a.SetIcon(cfg.Icon)
	}
	w := a.NewWindow("VoteDesk")
	w.SetMaster()
	sh := NewShell(a, w, cfg)
	w.SetCloseIntercept(func() {
		sh.SaveWindow()
		w.Close()
	})
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM, syscall.SIGINT)
	defer signal.Stop(stop)
	go func() {
		if _, ok := <-stop; ok {
			fyne.Do(func() {
				sh.SaveWindow()
				w.Close()
			})
		}
	}()
	sh.RestoreWindow()
	sh.Show()
	w.ShowAndRun()
	return nil
}
