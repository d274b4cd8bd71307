package ui

import (
	"context"
	"errors"
	"sync"
	"time"

	"fyne.io/fyne/v2"

	"votedesk/app"
	"votedesk/ui/modal"
	"votedesk/ui/offui"
)

// session is what every screen of a signed-in user shares: the services, the
// user and their role, the window dialogs open over, and the task runner.
type session struct {
	svc   *app.Service
	user  app.User
	win   fyne.Window
	tasks *offui.Runner
	prefs fyne.Preferences
	sync  Syncer
	// since measures how long work took, for status lines (tests fix it).
	since func(time.Time) time.Duration
	// changed is called after a command that may change what other screens
	// show or what the user may do (their role); the shell refreshes.
	changed func()
	// kioskDone is called when a kiosk started from this session gives the
	// window back: the shell asks for sign-in again.
	kioskDone func()
	// keep writes a copy of the whole database beside it before an
	// operation that removes records (app.KeptName), and returns its path;
	// nil when this app cannot back up.
	keep func(ctx context.Context, before string) (string, error)
	// saving is the save dialog last opened (askSavePath).
	saving *SavePath
	// opening is the open dialog last opened (askOpenPath).
	opening *OpenPath

	// shownName and shownID are the election the shell shows, if any,
	// as last loaded; set on the UI goroutine, read by ctx on any.
	shownMu   sync.Mutex
	shownName string
	shownID   string
}

// ctx is the context of the session's commands and queries. While an
// election is shown, a command or query that names it acts on it only
// while the name is still its (app.ForElection): a sync or another
// official may have given the name to another election since.
func (s *session) ctx() context.Context {
	s.shownMu.Lock()
	name, id := s.shownName, s.shownID
	s.shownMu.Unlock()
	return app.ForElection(context.Background(), name, id)
}

// showing records the election the shell shows (name and id; empty for
// none).
func (s *session) showing(name, id string) {
	s.shownMu.Lock()
	s.shownName, s.shownID = name, id
	s.shownMu.Unlock()
}

// actor is the signed-in user's name, as commands take it.
func (s *session) actor() string { return s.user.Name }

// can reports whether the signed-in user's role has permission p.
func (s *session) can(p app.Permission) bool { return s.user.Role.Has(p) }

// manages reports whether the user may change election e: its owner, or an
// ADMIN or higher, with USE_APPLICATION (the rule app enforces).
func (s *session) manages(e app.Election) bool { return app.MayManage(s.user, e) }

// mayDelete reports whether the signed-in user may delete e now.
func (s *session) mayDelete(e app.Election) bool {
	return s.manages(e) && e.DeleteRefusal(s.user.Role, s.svc.Now()) == nil
}

// fail shows a refused command or failed query as a plain dialog: what was
// being done, and the message app gives for the user.
func (s *session) fail(what string, err error) {
	showError(s.win, what, err, "")
}

// failHint is fail with a line of explanation under the message.
func (s *session) failHint(what string, err error, hint string) {
	showError(s.win, what, err, hint)
}

// showError shows err as a dialog titled what.
func showError(w fyne.Window, what string, err error, hint string) {
	msg := app.ErrorMessage(err)
	if hint != "" {
		msg += "\n\n" + hint
	}
	d := modal.NewError(errors.New(msg), w)
	if what != "" {
		d = modal.NewInformation(what, msg, w)
	}
	modal.Show(w, d, nil)
}

// do runs a command off the UI goroutine; a refusal is shown as a dialog
// titled what, success calls ok on the UI goroutine.
func (s *session) do(what string, cmd func(ctx context.Context) error, ok func()) {
	s.doHint(what, "", cmd, ok)
}

// doHint is do with a line of explanation shown under a refusal.
func (s *session) doHint(what, hint string, cmd func(ctx context.Context) error, ok func()) {
	offui.Run(s.tasks, func() (struct{}, error) { return struct{}{}, cmd(s.ctx()) }, func(_ struct{}, err error) {
		if err != nil {
			s.failHint(what, err, hint)
			return
		}
		if ok != nil {
			ok()
		}
	})
}

// load runs a query off the UI goroutine and hands its result to show on the
// UI goroutine; a failure is shown as a dialog titled what.
func load[T any](s *session, what string, query func(ctx context.Context) (T, error), show func(T)) {
	offui.Run(s.tasks, func() (T, error) { return query(s.ctx()) }, func(v T, err error) {
		if err != nil {
			s.fail(what, err)
			return
		}
		show(v)
	})
}
