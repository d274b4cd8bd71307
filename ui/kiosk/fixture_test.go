package kiosk

import (
	"context"
	"fmt"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"votedesk/app"
	"votedesk/app/apptest"
	"votedesk/localstore"
	"votedesk/ui/offui"
	"votedesk/ui/uitest"
)

// The template database, built once per test run (password hashing is slow):
//
//	olga (OWNER), carl (USER), vera (VOTER)
//	"Mayor"   launched; Kiss, Wright, Montroll, Smith; re-casting not allowed
//	"Council" launched, secret ballot, re-casting allowed; A, B, C
//	"Later"   launched, voting opens in 2100
//	"Draft"   not launched
//
// Every election's poll book: Ann Lee, Bob Ray, Cy Young, Dee Fox and
// v0000-v0019.
const (
	official  = "olga"
	passcode  = "kiosk-passcode"
	officialP = "olga-password"
)

// passcodeHash is the officer passcode's hash, made with the template.
var passcodeHash string

// testStart is the test clock's first reading: inside every voting window
// but Later's.
var testStart = time.Date(2026, 11, 3, 9, 0, 0, 0, time.UTC)

func pollBook(extra int) []app.VoterEntry {
	v := []app.VoterEntry{{Name: "Ann Lee"}, {Name: "Bob Ray"}, {Name: "Cy Young"}, {Name: "Dee Fox"}}
	for i := range extra {
		v = append(v, app.VoterEntry{Name: fmt.Sprintf("v%04d", i)})
	}
	return v
}

// template is, built once per test run, the kiosk tests' database; it also
// hashes the officer passcode once.
var template = apptest.NewTemplate("kiosk", func(path string) error {
	if err := buildTemplate(path); err != nil {
		return err
	}
	var err error
	passcodeHash, err = app.HashSecret(passcode)
	return err
})

func buildTemplate(path string) error {
	st, err := localstore.Open(path)
	if err != nil {
		return err
	}
	defer st.Close()
	svc := app.NewService(st, apptest.NewClock(testStart.Add(-time.Hour), time.Millisecond), nil)
	ctx := context.Background()
	yes := true
	later := app.FormatTime(time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC))
	steps := []func() error{
		func() error { return svc.RegisterUser(ctx, "", official, "olga@example.org", officialP) },
		func() error { return svc.RegisterUser(ctx, official, "carl", "carl@example.org", "carl-password") },
		func() error { return svc.RegisterUser(ctx, official, "vera", "vera@example.org", "vera-password") },
		func() error { return svc.SetRole(ctx, official, "vera", app.RoleVoter) },
		func() error { return svc.CreateElection(ctx, official, "Mayor", "", false) },
		func() error { return svc.AddCandidates(ctx, official, "Mayor", "Kiss", "Wright", "Montroll", "Smith") },
		func() error { return svc.CreateElection(ctx, official, "Council", "", true) },
		func() error {
			return svc.UpdateElection(ctx, official, "Council", 0, app.ElectionChanges{AllowRecast: &yes})
		},
		func() error { return svc.AddCandidates(ctx, official, "Council", "A", "B", "C") },
		func() error { return svc.CreateElection(ctx, official, "Later", "", false) },
		func() error {
			return svc.UpdateElection(ctx, official, "Later", 0, app.ElectionChanges{NoVotingBefore: &later})
		},
		func() error { return svc.AddCandidates(ctx, official, "Later", "X", "Y") },
		func() error { return svc.CreateElection(ctx, official, "Draft", "", false) },
		func() error { return svc.AddCandidates(ctx, official, "Draft", "P", "Q") },
	}
	for _, e := range []string{"Mayor", "Council", "Later", "Draft"} {
		steps = append(steps, func() error { return svc.AddVoters(ctx, official, e, pollBook(20)...) })
		if e != "Draft" {
			steps = append(steps, func() error { return svc.LaunchElection(ctx, official, e) })
		}
	}
	for i, step := range steps {
		if err := step(); err != nil {
			return fmt.Errorf("template step %d: %w", i, err)
		}
	}
	return nil
}

// fixture is one test's copy of the template database.
type fixture struct {
	t     testing.TB
	path  string
	store *localstore.Store
	svc   *app.Service
	clock *apptest.Clock
	ctx   context.Context
}

func newFixture(t testing.TB) *fixture {
	t.Helper()
	return openFixture(t, template.Copy(t))
}

// openFixture opens a database made from the template.
func openFixture(t testing.TB, path string) *fixture {
	t.Helper()
	st, err := localstore.Open(path)
	if err != nil {
		t.Fatalf("open %s: %v", path, err)
	}
	t.Cleanup(func() { st.Close() })
	clock := apptest.NewClock(testStart, time.Millisecond)
	return &fixture{t: t, path: path, store: st, svc: app.NewService(st, clock, nil), clock: clock, ctx: context.Background()}
}

// ballots returns an election's ballots as the owner sees them.
func (f *fixture) ballots(election string) []app.Ballot {
	f.t.Helper()
	bs, err := f.svc.Ballots(f.ctx, official, election)
	if err != nil {
		f.t.Fatal(err)
	}
	return bs
}

// harness is a kiosk in a test window over a fixture.
type harness struct {
	*fixture
	app fyne.App
	win fyne.Window
	k   *Kiosk
	// run is the kiosk's Runner: results and timers run on the test's
	// goroutine, and time moves only with advance.
	run    *offui.Runner
	exited bool
}

// kioskSize is the window size of the tests and screenshots.
var kioskSize = fyne.NewSize(1280, 800)

func newHarness(t testing.TB, election string, opts ...func(*Config)) *harness {
	t.Helper()
	return startHarness(t, newFixture(t), election, opts...)
}

func startHarness(t testing.TB, f *fixture, election string, opts ...func(*Config)) *harness {
	t.Helper()
	a := test.NewTempApp(t)
	w := test.NewTempWindow(t, widget.NewLabel(""))
	w.Resize(kioskSize)
	h := &harness{fixture: f, app: a, win: w, run: offui.NewManual()}
	cfg := Config{Service: f.svc, Official: official, Election: election, PasscodeHash: passcodeHash, Clock: f.clock,
		Runner: h.run, OnExit: func() { h.exited = true }}
	for _, o := range opts {
		o(&cfg)
	}
	h.k = New(a, w, cfg)
	h.k.Start()
	h.settle()
	return h
}

// settle waits for the kiosk's work off the UI goroutine and runs its
// results, and the timers that are due, until nothing is left.
func (h *harness) settle() { h.run.Wait() }

// advance lets d pass on the kiosk's timers, each run at its time.
func (h *harness) advance(d time.Duration) { h.run.Advance(d) }

// key presses a key the way the desktop driver delivers it: Tab and
// Shift+Tab move the focus, other keys go to the focused control, or to the
// canvas when nothing has the focus.
func (h *harness) key(name fyne.KeyName) {
	h.t.Helper()
	c := h.win.Canvas()
	ev := &fyne.KeyEvent{Name: name}
	switch {
	case name == fyne.KeyTab:
		c.FocusNext()
	case c.Focused() != nil:
		c.Focused().TypedKey(ev)
	case c.OnTypedKey() != nil:
		c.OnTypedKey()(ev)
	}
	h.settle()
}

func (h *harness) shiftTab() { h.win.Canvas().FocusPrevious() }

// typ types characters the way the driver delivers them.
func (h *harness) typ(s string) {
	c := h.win.Canvas()
	for _, r := range s {
		if f := c.Focused(); f != nil {
			f.TypedRune(r)
		} else if c.OnTypedRune() != nil {
			c.OnTypedRune()(r)
		}
	}
	h.settle()
}

// tabTo presses Tab until target has the focus.
func (h *harness) tabTo(target fyne.Focusable) {
	h.t.Helper()
	for range 60 {
		if h.win.Canvas().Focused() == target {
			return
		}
		h.key(fyne.KeyTab)
	}
	h.t.Fatalf("Tab never reached %T %v", target, target)
}

// press tabs to a button and presses Enter.
func (h *harness) press(b *button) {
	h.t.Helper()
	h.tabTo(b)
	h.key(fyne.KeyReturn)
}

// checkIn types a voter's name at check-in and presses Enter.
func (h *harness) checkIn(name string) {
	h.t.Helper()
	if h.k.checkIn == nil || h.k.screen != h.k.checkIn {
		h.t.Fatalf("check-in is not showing (screen %T)", h.k.screen)
	}
	if f := h.win.Canvas().Focused(); f != h.k.checkIn.name {
		h.t.Fatalf("check-in: focus on %T, want the name field", f)
	}
	h.typ(name)
	h.key(fyne.KeyReturn)
}

// unlock opens the officials' menu by keyboard with the passcode.
func (h *harness) unlock() {
	h.t.Helper()
	h.press(h.k.bar.officials)
	h.typ(passcode)
	h.key(fyne.KeyReturn)
	if h.k.menu == nil || h.k.screen != h.k.menu {
		h.t.Fatalf("after the passcode: screen %T, want the officials' menu", h.k.screen)
	}
}

// vote runs one voter's session by keyboard: check-in, the number keys of
// the choices, review, cast. It returns the confirmation code on the
// receipt.
func (h *harness) vote(name string, choices string) string {
	h.t.Helper()
	h.checkIn(name)
	if h.k.ballot == nil {
		h.t.Fatalf("check-in of %q: no ballot; message %q", name, h.k.checkIn.msg.Text)
	}
	h.typ(choices)
	h.press(h.k.ballot.review)
	h.press(h.k.review.cast)
	if h.k.receipt == nil || h.k.screen != h.k.receipt {
		h.t.Fatalf("after Cast: screen %T, want the receipt", h.k.screen)
	}
	return h.k.receipt.code.Text
}

// relayout lays the whole window out again from the top, as the desktop
// driver does every frame for containers whose content changed size (the
// test canvas does not).
func (h *harness) relayout() {
	h.win.Resize(kioskSize)
	uitest.Relayout(h.win.Canvas())
}
