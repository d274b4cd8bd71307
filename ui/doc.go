// Package ui is VoteDesk's desktop interface, built with Fyne: the screens an
// election official uses (first run and sign-in, elections, candidates, the
// poll book, results, the risk-limiting audit of a closed election's count
// and its audit board, sync, the audit log, users and roles).
//
// Every screen is a struct that builds its widgets from app services and keeps
// the ones tests reach (as fyne-io/calculator keeps its buttons). No election
// rules live here: a screen hides or disables what the signed-in user's role
// cannot do, and app.Service still refuses anything it should not do; the
// refusal's message is shown as a plain dialog.
//
// Threading: every Fyne callback runs on the one UI goroutine. Work that may
// take long (loading a big poll book, importing, counting, syncing) runs off
// it on the shell's offui.Runner (run), and its result is posted back with
// fyne.Do, so a handler never blocks on disk or a big tally; the timers
// (automatic sync, saving the window size) and a kiosk started from an
// election run on the same Runner. Tests give the shell offui.NewManual:
// results and timers then run on the test's goroutine when it waits
// (Shell.Wait), and time passes only when the test advances it.
//
// What the screens need beyond app.Service comes in Config: the sync panel
// drives a Syncer (the sync package's), and the File menu's backup calls
// Config.Backup (localstore's).
//
// Tests drive the screens with Fyne's test driver on a real bbolt file;
// golden markup lives in testdata/ (go test -update rewrites it), and
// go test -run TestScreenshots -screenshots DIR (make screenshots) renders
// the main screens of a demo database to PNG files.
package ui
