package kiosk

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"votedesk/app"
	"votedesk/ui/modal"
	"votedesk/ui/offui"
	"votedesk/ui/uitest"
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
	a := test.NewTempApp(t)
	w := test.NewTempWindow(t, widget.NewLabel("officials' app"))
	w.Resize(kioskSize)
	var k *Kiosk
	run := offui.NewManual()
	form := ShowStartDialog(a, w, StartRequest{Service: f.svc, Official: official, Election: app.JoinCode(e), Runner: run,
		OnStart: func(started *Kiosk) { k = started }})

	var entries []*modal.Entry
	var start *modal.Button
	for _, o := range w.Canvas().Overlays().List() {
		walk(o, func(o fyne.CanvasObject) {
			switch x := o.(type) {
			case *modal.Entry:
				entries = append(entries, x)
			case *modal.Button:
				if x.Text == "Start kiosk" {
					start = x
				}
			}
		})
	}
	if len(entries) != 3 || start == nil || entries[0].Text != app.JoinCode(e) {
		t.Fatalf("dialog: %d entries, start button %v", len(entries), start)
	}
	// The rule is stated before the first try.
	if hint := strings.Join(uitest.Texts(w.Canvas()), " "); !strings.Contains(hint, "At least 6 characters") {
		t.Errorf("the passcode's rule is not stated before the first try: %q", hint)
	}
	// The focus starts in the first empty field, and Enter there tries.
	if w.Canvas().Focused() != entries[1] {
		t.Errorf("focus in %v, want the passcode field", w.Canvas().Focused())
	}
	// A refused passcode keeps the dialog, with its fields, and says why in it.
	test.Type(entries[1], "short")
	test.Type(entries[2], "short")
	entries[2].TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	run.Wait()
	if k != nil || w.Canvas().Overlays().Top() == nil {
		t.Fatal("a 5-character passcode started the kiosk or closed the dialog")
	}
	if entries[0].Text != app.JoinCode(e) || entries[1].Text != "short" || entries[2].Text != "short" {
		t.Errorf("the refused try emptied the fields: %q %q %q", entries[0].Text, entries[1].Text, entries[2].Text)
	}
	if !form.Error.Visible() || !strings.Contains(form.Error.Text, "at least 6 characters") {
		t.Errorf("the refusal is not shown in the dialog: %q (shown %v)", form.Error.Text, form.Error.Visible())
	}
	entries[1].SetText("kiosk-pass")
	entries[2].SetText("kiosk-pass")
	test.Tap(start)
	run.Wait()
	if k == nil || !w.FullScreen() {
		t.Fatalf("after Start kiosk: kiosk %v, full screen %v", k, w.FullScreen())
	}
	// The kiosk runs on the dialog's Runner: one Wait has loaded it.
	if k.election.Name != "Council" || k.screen != k.checkIn {
		t.Errorf("started kiosk: election %q, screen %T", k.election.Name, k.screen)
	}
}
