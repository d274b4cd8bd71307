package kiosk

import (
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"fyne.io/fyne/v2"

	"votedesk/app"
)

// screenshotsEnv names the folder TestScreenshots writes to (make
// screenshots-kiosk); without it the test is skipped.
const screenshotsEnv = "VOTEDESK_SCREENSHOTS"

// countingIDs makes the same confirmation codes on every run, so the
// screenshots only change when the screens do.
type countingIDs struct {
	mu sync.Mutex
	n  int
}

func (c *countingIDs) NewID() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n++
	return fmt.Sprintf("7f3c%04x-92d1-4b6e-a0c5-%012x", c.n, 0x31d8e4f20a7b+c.n)
}

// TestScreenshots renders every kiosk screen with the headless test driver
// (its software painter) to PNG files: kiosk-checkin, kiosk-ballot,
// kiosk-review, kiosk-receipt, kiosk-passcode, kiosk-menu, kiosk-paper,
// kiosk-paper-double, kiosk-large (text size 3, high contrast), kiosk-largest
// (size 4, a long name wrapping), kiosk-idle (the idle warning) and
// kiosk-stopped (voting stopped: the election was deleted).
func TestScreenshots(t *testing.T) {
	dir := os.Getenv(screenshotsEnv)
	if dir == "" {
		t.Skip("set " + screenshotsEnv + " to a folder (make screenshots-kiosk)")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	f := newFixture(t)
	f.svc = app.NewService(f.store, f.clock, &countingIDs{})
	const election = "City Mayor 2026"
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(f.svc.CreateElection(f.ctx, official, election, "", true))
	must(f.svc.AddCandidates(f.ctx, official, election, "Alice Kiss", "Bob Wright", "Carmen Montroll", "Dev Smith", "Eun-ji Park", "Farah Haddad",
		"Maria Guadalupe Fernández-Castellanos (Working Families)"))
	must(f.svc.AddVoters(f.ctx, official, election, pollBook(0)...))
	must(f.svc.LaunchElection(f.ctx, official, election))

	h := startHarness(t, f, election, func(c *Config) { c.Sync = &stubSyncer{pending: 12} })
	shot := func(name string) {
		t.Helper()
		h.relayout()
		img := h.win.Canvas().Capture()
		out, err := os.Create(filepath.Join(dir, "kiosk-"+name+".png"))
		if err != nil {
			t.Fatal(err)
		}
		if err := png.Encode(out, img); err != nil {
			t.Fatal(err)
		}
		if err := out.Close(); err != nil {
			t.Fatal(err)
		}
	}

	h.typ("Ann Le")
	shot("checkin")
	h.typ("e")
	h.key(fyne.KeyReturn)
	h.typ("352")
	shot("ballot")
	h.press(h.k.ballot.review)
	shot("review")
	h.shiftTab()
	h.shiftTab()
	h.press(h.k.review.cast)
	shot("receipt")
	h.key(fyne.KeyReturn)

	h.press(h.k.bar.officials)
	h.typ("wrong-guess")
	h.key(fyne.KeyReturn)
	shot("passcode")
	h.typ(passcode)
	h.key(fyne.KeyReturn)
	shot("menu")

	h.press(h.k.menu.paper)
	for _, l := range []string{"3 1 4", "2", "615", "0", "1 2/3 - 5", "9"} {
		h.line(l)
	}
	shot("paper")
	h.key(fyne.KeyBackspace)
	h.key(fyne.KeyF6)
	for _, l := range []string{"3 1 4", "2", "615", "0", "1 2/3 - 5"} {
		h.line(l)
	}
	h.key(fyne.KeyF9)
	for _, l := range []string{"3 1 4", "5", "615", "0", "1 2/3 - 5"} {
		h.line(l)
	}
	h.key(fyne.KeyF9)
	shot("paper-double")
	h.key(fyne.KeyEscape)
	h.key(fyne.KeyEscape)
	h.press(h.k.menu.resume)

	h.win.Canvas().Focus(h.k.checkIn.name)
	h.checkIn("Bob Ray")
	h.press(h.k.bar.larger)
	h.press(h.k.bar.larger)
	h.press(h.k.bar.contrast)
	h.typ("21")
	h.tabTo(h.k.ballot.review)
	shot("large")
	h.press(h.k.bar.larger)
	h.press(h.k.bar.contrast)
	h.tabTo(h.k.ballot.cands[2])
	shot("largest")
	h.advance(DefaultIdleAfter)
	shot("idle")

	// What TestKioskStopsWhenItsElectionIsGone reaches by deleting the
	// election (this one holds ballots, which the rules keep).
	h.k.gone = app.Errorf(app.CodeNotFound, "election %q was deleted after it was shown here (by a sync or another official); nothing was changed", election)
	h.k.nextVoter()
	shot("stopped")
}
