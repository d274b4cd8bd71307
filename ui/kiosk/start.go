package kiosk

import (
	"context"
	"fmt"

	"fyne.io/fyne/v2"
	fyneapp "fyne.io/fyne/v2/app"
	"fyne.io/fyne/v2/widget"

	"votedesk/app"
	"votedesk/ui/modal"
	"votedesk/ui/offui"
)

// Run opens a kiosk in a window of its own and returns when an official
// closes it (votedesk kiosk).
func Run(cfg Config, appID string, icon fyne.Resource) error {
	a := fyneapp.NewWithID(appID)
	if icon != nil {
		a.SetIcon(icon)
	}
	w := a.NewWindow("VoteDesk kiosk")
	w.Resize(fyne.NewSize(1024, 768))
	New(a, w, cfg).Start()
	w.ShowAndRun()
	return nil
}

// StartRequest is what the officials' app knows when an official asks for a
// kiosk.
type StartRequest struct {
	Service  *app.Service
	Official string
	// Election pre-fills the dialog's election field (a name or a join
	// code); the official may change it.
	Election string
	Sync     Syncer
	// OnExit is Config.OnExit: it gets the window back after the kiosk.
	OnExit func()
	// OnStart, when set, is given the kiosk just before it starts, and
	// Started just after.
	OnStart func(*Kiosk)
	Started func(*Kiosk)
	// Runner runs the dialog's checks off the UI goroutine, and then the
	// kiosk's work (Config.Runner; a new offui.Runner if nil).
	Runner *offui.Runner
}

// ShowStartDialog asks an official for the election (name or join code) and
// a new officer passcode, twice, then turns win into a kiosk. The passcode's
// rule is in its hint before the first try. Checking the election and
// hashing the passcode run off the UI goroutine; a refusal is shown in the
// dialog, which stays open with the election and the passcodes typed, and
// starts nothing.
func ShowStartDialog(a fyne.App, win fyne.Window, req StartRequest) *modal.Form {
	election := modal.NewEntry()
	election.SetText(req.Election)
	election.SetPlaceHolder("Election name or join code (ABC-DEF-12345)")
	pass, again := modal.NewPasswordEntry(), modal.NewPasswordEntry()
	items := []*widget.FormItem{
		widget.NewFormItem("Election", election),
		widget.NewFormItem("Officer passcode", pass),
		widget.NewFormItem("Passcode again", again),
	}
	items[1].HintText = fmt.Sprintf("At least %d characters. Needed to leave the kiosk or reach any other screen", app.MinPasscodeLength)
	if req.Runner == nil {
		req.Runner = offui.New()
	}
	f := modal.NewForm(win, "Start a kiosk", "Start kiosk", "Cancel", items, func(done func(error)) {
		nameOrCode, passcode, repeat := election.Text, pass.Text, again.Text
		req.Runner.Go(func() func() {
			cfg, err := prepare(context.Background(), req, nameOrCode, passcode, repeat)
			return func() {
				if err != nil {
					done(err)
					return
				}
				pass.SetText("")
				again.SetText("")
				done(nil)
				k := New(a, win, cfg)
				if req.OnStart != nil {
					req.OnStart(k)
				}
				k.Start()
				if req.Started != nil {
					req.Started(k)
				}
			}
		})
	})
	f.Resize(fyne.NewSize(560, 0))
	f.Show()
	return f
}

// prepare checks a start request and hashes the passcode.
func prepare(ctx context.Context, req StartRequest, nameOrCode, passcode, repeat string) (Config, error) {
	e, _, err := req.Service.KioskElection(ctx, req.Official, nameOrCode)
	if err != nil {
		return Config{}, err
	}
	if err := app.CheckPasscode(passcode); err != nil {
		return Config{}, err
	}
	if passcode != repeat {
		return Config{}, app.Errorf(app.CodeInvalid, "the two passcodes differ")
	}
	hash, err := app.HashSecret(passcode)
	if err != nil {
		return Config{}, err
	}
	return Config{Service: req.Service, Official: req.Official, Election: e.Name, PasscodeHash: hash, Sync: req.Sync, Runner: req.Runner, OnExit: req.OnExit}, nil
}
