package kiosk

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"votedesk/app"
)

func TestPrepare(t *testing.T) {
	f := newFixture(t)
	e, err := f.svc.Election(f.ctx, official, "Mayor")
	if err != nil {
		t.Fatal(err)
	}
	req := StartRequest{Service: f.svc, Official: official}
	cfg, err := prepare(f.ctx, req, app.JoinCode(e), "kiosk-pass", "kiosk-pass")
	if err != nil || cfg.Election != "Mayor" || !app.VerifySecret(cfg.PasscodeHash, "kiosk-pass") || strings.Contains(cfg.PasscodeHash, "kiosk-pass") {
		t.Fatalf("prepare by join code = %+v, %v", cfg, err)
	}
	for _, tc := range []struct{ name, election, pass, again, says string }{
		{"ErrDraft", "Draft", "kiosk-pass", "kiosk-pass", "not launched"},
		{"ErrShortPasscode", "Mayor", "12345", "12345", "at least 6"},
		{"ErrPasscodesDiffer", "Mayor", "kiosk-pass", "kiosk-pazz", "differ"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := prepare(f.ctx, req, tc.election, tc.pass, tc.again); !strings.Contains(app.ErrorMessage(err), tc.says) {
				t.Errorf("prepare: %v, want %q", err, tc.says)
			}
		})
	}
}

// TestStartDialog fills the start dialog and finds the window turned into a
// kiosk for the election given by its join code.
func TestStartDialog(t *testing.T) {
	f := newFixture(t)
	e, err := f.svc.Election(f.ctx, official, "Council")
	if err != nil {
		t.Fatal(err)
	}
	saved := startOffUI
	startOffUI = func(work func() func()) { work()() }
	t.Cleanup(func() { startOffUI = saved })
	a := test.NewTempApp(t)
	w := test.NewTempWindow(t, widget.NewLabel("officials' app"))
	w.Resize(kioskSize)
	var k *Kiosk
	posted := &postQueue{}
	ShowStartDialog(a, w, StartRequest{Service: f.svc, Official: official, Election: app.JoinCode(e),
		OnStart: func(started *Kiosk) { k, started.post, started.after = started, posted.add, (&fakeTimers{}).after }})

	var entries []*widget.Entry
	var start *widget.Button
	for _, o := range w.Canvas().Overlays().List() {
		walk(o, func(o fyne.CanvasObject) {
			switch x := o.(type) {
			case *widget.Entry:
				entries = append(entries, x)
			case *widget.Button:
				if x.Text == "Start kiosk" {
					start = x
				}
			}
		})
	}
	if len(entries) != 3 || start == nil || entries[0].Text != app.JoinCode(e) {
		t.Fatalf("dialog: %d entries, start button %v", len(entries), start)
	}
	entries[1].SetText("kiosk-pass")
	entries[2].SetText("kiosk-pass")
	test.Tap(start)
	if k == nil || !w.FullScreen() {
		t.Fatalf("after Start kiosk: kiosk %v, full screen %v", k, w.FullScreen())
	}
	h := &harness{fixture: f, app: a, win: w, k: k, posted: posted}
	h.settle()
	if k.election.Name != "Council" || k.screen != k.checkIn {
		t.Errorf("started kiosk: election %q, screen %T", k.election.Name, k.screen)
	}
}
