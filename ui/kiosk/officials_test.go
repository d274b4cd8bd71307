package kiosk

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"
)

func TestPasscodeUnlocksTheMenu(t *testing.T) {
	h := newHarness(t, "Mayor")
	h.checkIn("Ann Lee")
	h.typ("12")
	h.unlock()
	if h.k.session != nil || h.k.ballot != nil {
		t.Error("opening the officials' menu kept the voter's session")
	}
	if h.k.passcode != nil {
		t.Error("the passcode screen is still held")
	}
	if h.k.bar.officials.Visible() {
		t.Error("the officials' button shows on the officials' menu")
	}
	h.press(h.k.menu.resume)
	if h.k.screen != h.k.checkIn || !h.win.FullScreen() || !h.k.bar.officials.Visible() {
		t.Errorf("Back to voting: screen %T, full screen %v", h.k.screen, h.win.FullScreen())
	}
}

func TestPasscodeBackReturnsToTheVoter(t *testing.T) {
	h := newHarness(t, "Mayor")
	h.checkIn("Ann Lee")
	h.typ("2")
	ballot := h.k.ballot
	h.press(h.k.bar.officials)
	if h.k.screen != h.k.passcode {
		t.Fatalf("Officials: screen %T", h.k.screen)
	}
	h.key(fyne.KeyEscape)
	if h.k.screen != ballot || len(h.k.session.ranking) != 1 {
		t.Errorf("Escape on the passcode: screen %T, ranking %v", h.k.screen, h.k.session)
	}
}

// TestWrongPasscodeLocksOut: three wrong tries lock the kiosk for 30 s, when
// even the right passcode is refused; after that it opens.
func TestWrongPasscodeLocksOut(t *testing.T) {
	h := newHarness(t, "Mayor")
	h.press(h.k.bar.officials)
	s := h.k.passcode
	for i, want := range []string{"2 more tries", "1 more try", "try again in 30 s"} {
		h.typ("guess-" + string(rune('a'+i)))
		h.key(fyne.KeyReturn)
		if !strings.Contains(s.msg.Text, want) || h.k.screen != s {
			t.Fatalf("wrong try %d: %q (screen %T), want %q", i+1, s.msg.Text, h.k.screen, want)
		}
		if s.entry.Text != "" {
			t.Errorf("the passcode field keeps %q after a try", s.entry.Text)
		}
	}
	h.typ(passcode)
	h.key(fyne.KeyReturn)
	if h.k.screen != s || !strings.Contains(s.msg.Text, "Too many wrong passcodes") {
		t.Fatalf("right passcode while locked: screen %T, %q", h.k.screen, s.msg.Text)
	}
	h.key(fyne.KeyEscape)
	h.press(h.k.bar.officials)
	if !strings.Contains(h.k.passcode.msg.Text, "Try again in") {
		t.Errorf("the passcode screen reopened during the lockout says %q", h.k.passcode.msg.Text)
	}
	h.clock.Add(31 * time.Second)
	h.typ(passcode)
	h.key(fyne.KeyReturn)
	if h.k.screen != h.k.menu {
		t.Errorf("right passcode after the lockout: screen %T", h.k.screen)
	}
}

// TestEmptyPasscodeIsNoTry: Enter on an empty passcode field (a finger
// slipping, or a voter pressing keys) says what to do and costs no try:
// after any number of them, two wrong passcodes still leave one more.
func TestEmptyPasscodeIsNoTry(t *testing.T) {
	h := newHarness(t, "Mayor")
	h.press(h.k.bar.officials)
	s := h.k.passcode
	for range 5 {
		h.key(fyne.KeyReturn)
	}
	if !strings.Contains(s.msg.Text, "Type the officer passcode") || h.k.lock.LockedFor() > 0 {
		t.Fatalf("Enter on an empty field: %q, locked for %v", s.msg.Text, h.k.lock.LockedFor())
	}
	for range 2 {
		h.typ("guess")
		h.key(fyne.KeyReturn)
	}
	if !strings.Contains(s.msg.Text, "1 more try") {
		t.Errorf("two wrong tries after five empty ones: %q, want one more try left", s.msg.Text)
	}
}

// TestClosingNeedsThePasscode: the window's close button asks for the
// passcode; only then is the window unlocked and handed back.
func TestClosingNeedsThePasscode(t *testing.T) {
	h := newHarness(t, "Mayor")
	h.k.closeRequested()
	if h.k.screen != h.k.passcode || h.exited {
		t.Fatalf("close: screen %T, exited %v", h.k.screen, h.exited)
	}
	h.typ("not-it")
	h.key(fyne.KeyReturn)
	if h.exited {
		t.Fatal("a wrong passcode closed the kiosk")
	}
	h.typ(passcode)
	h.key(fyne.KeyReturn)
	if !h.exited || h.win.FullScreen() {
		t.Errorf("right passcode: exited %v, full screen %v", h.exited, h.win.FullScreen())
	}
	if _, still := h.app.Settings().Theme().(kioskTheme); still {
		t.Error("the kiosk theme stays after the kiosk")
	}
}

func TestLeaveFullScreenFromTheMenu(t *testing.T) {
	h := newHarness(t, "Mayor")
	h.unlock()
	h.press(h.k.menu.screen)
	if h.win.FullScreen() || h.k.menu.screen.Text != "Full screen" {
		t.Errorf("Leave full screen: %v, button %q", h.win.FullScreen(), h.k.menu.screen.Text)
	}
	h.press(h.k.menu.leave)
	if !h.exited {
		t.Error("Close the kiosk did not exit")
	}
}

// stubSyncer counts what the kiosk asks; sync itself is another package.
type stubSyncer struct {
	mu      sync.Mutex
	pending int
	fail    error
	syncs   int
}

func (s *stubSyncer) Pending(context.Context) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.pending, nil
}

func (s *stubSyncer) SyncNow(context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.syncs++
	if s.fail != nil {
		return s.fail
	}
	s.pending = 0
	return nil
}

func TestPendingAndSyncNow(t *testing.T) {
	sy := &stubSyncer{pending: 2}
	h := newHarness(t, "Mayor", func(c *Config) { c.Sync = sy })
	// What waits for sync is the officials' business: a voter's screens
	// never show it, the officials' menu does.
	if h.k.bar.pending.Visible() {
		t.Errorf("check-in shows voters %q", h.k.bar.pending.Text)
	}
	sy.mu.Lock()
	sy.pending = 3
	sy.mu.Unlock()
	h.vote("Ann Lee", "1")
	if h.k.bar.pending.Visible() {
		t.Errorf("the receipt shows the voter %q", h.k.bar.pending.Text)
	}
	h.key(fyne.KeyReturn)
	h.unlock()
	if got := h.k.menu.pending.Text; got != "Not yet synced: 3" {
		t.Errorf("the officials' menu says %q after a cast", got)
	}
	sy.fail = errors.New("no network")
	h.press(h.k.menu.syncNow)
	if !strings.Contains(h.k.menu.syncMsg.Text, "Sync failed: no network") {
		t.Errorf("failed sync says %q", h.k.menu.syncMsg.Text)
	}
	sy.fail = nil
	h.press(h.k.menu.syncNow)
	if h.k.menu.syncMsg.Text != "Synced." || h.k.menu.pending.Text != "Not yet synced: 0" || sy.syncs != 2 {
		t.Errorf("sync: %q, %q, %d syncs", h.k.menu.syncMsg.Text, h.k.menu.pending.Text, sy.syncs)
	}
	// The button is off while it syncs; the keyboard finds it again after.
	if f := h.win.Canvas().Focused(); f != h.k.menu.syncNow {
		t.Errorf("after a sync the focus is on %T, want Sync now", f)
	}
	// The count is asked again every pendingEvery: the timer, the question
	// off the UI goroutine and its answer on it are all in one advance.
	sy.mu.Lock()
	sy.pending = 4
	sy.mu.Unlock()
	h.advance(pendingEvery - time.Second)
	if got := h.k.menu.pending.Text; got != "Not yet synced: 0" {
		t.Errorf("before %v the menu says %q", pendingEvery, got)
	}
	h.advance(time.Second)
	if got := h.k.menu.pending.Text; got != "Not yet synced: 4" {
		t.Errorf("after %v the menu says %q, want 4", pendingEvery, got)
	}
	t.Run("HiddenWithoutSync", func(t *testing.T) {
		h := newHarness(t, "Mayor")
		if h.k.bar.pending.Visible() {
			t.Error("the sync count shows without a syncer")
		}
	})
}

// TestNoTinyTargets: every control a voter can press is at least the
// theme's target size (48 units at the smallest text, 76 at the largest), on
// every voter screen; the top bar's buttons keep the smallest.
func TestNoTinyTargets(t *testing.T) {
	for size := range TextSizes {
		large := size == TextSizes-1
		h := newHarness(t, "Mayor", func(c *Config) { c.TextSize, c.HighContrast = size, large })
		min := kioskTheme{size: size}.Size(sizeNameTarget)
		check := func(where string) {
			h.win.Resize(kioskSize)
			h.win.Content().Refresh()
			walkVisible(h.win.Canvas().Content(), func(o fyne.CanvasObject) {
				switch o.(type) {
				case *button, *entry:
				case *widget.Button, *widget.Entry, *widget.Check, *widget.Select, *widget.RadioGroup, *widget.Hyperlink, *widget.Slider:
					t.Errorf("%s: a %T is not a kiosk control (no minimum size, no Enter)", where, o)
					return
				default:
					return
				}
				min := min
				if b := h.k.bar; o == b.smaller || o == b.larger || o == b.contrast || o == b.officials {
					min = kioskTheme{}.Size(sizeNameTarget) // the bar keeps the smallest size
				}
				if s := o.MinSize(); s.Height < min || s.Width < min && !isEntry(o) {
					t.Errorf("%s (text size %d): %T %v is %v, smaller than %v", where, size+1, o, textOf(o), s, min)
				}
			})
		}
		check("check-in")
		h.checkIn("Ann Lee")
		h.typ("12")
		check("ballot")
		h.press(h.k.ballot.review)
		check("review")
		h.press(h.k.review.cast)
		check("receipt")
	}
}

func isEntry(o fyne.CanvasObject) bool { _, ok := o.(*entry); return ok }

func textOf(o fyne.CanvasObject) string {
	if b, ok := o.(*button); ok {
		return b.label()
	}
	return ""
}

// walkVisible is walk over the objects that are shown.
func walkVisible(o fyne.CanvasObject, fn func(fyne.CanvasObject)) {
	if o == nil || !o.Visible() {
		return
	}
	fn(o)
	switch x := o.(type) {
	case *fyne.Container:
		for _, c := range x.Objects {
			walkVisible(c, fn)
		}
	case *tapArea:
		walkVisible(x.content, fn)
	case fyne.Widget:
		if _, own := x.(*button); own {
			return
		}
		if _, own := x.(*entry); own {
			return
		}
		for _, c := range rendererObjects(x) {
			walkVisible(c, fn)
		}
	}
}

// TestReceiptEndsUnderThePasscodeScreen: the receipt time passing while an
// official types the passcode empties the receipt and leaves the typing be;
// Back then goes to a new check-in.
func TestReceiptEndsUnderThePasscodeScreen(t *testing.T) {
	h := newHarness(t, "Mayor")
	h.vote("Ann Lee", "1")
	h.press(h.k.bar.officials)
	h.typ("kiosk-")
	h.advance(DefaultReturnAfter)
	if h.k.receipt != nil || h.win.Canvas().Focused() != h.k.passcode.entry || h.k.passcode.entry.Text != "kiosk-" {
		t.Fatalf("receipt %v, focus %v, typed %q", h.k.receipt, h.win.Canvas().Focused(), h.k.passcode.entry.Text)
	}
	h.key(fyne.KeyEscape)
	if h.k.screen != h.k.checkIn {
		t.Errorf("Back after the receipt ended: screen %T", h.k.screen)
	}
}

// TestSpaceOnOfficialsTypesNothing: Space on the Officials button opens
// the passcode screen when the key comes up, so the space character of
// the same key press does not land in the passcode (an officer would have
// been refused the right passcode, and locked out after three). The keys
// come as the desktop driver sends them, each to what has the focus then.
func TestSpaceOnOfficialsTypesNothing(t *testing.T) {
	h := newHarness(t, "Mayor")
	h.tabTo(h.k.bar.officials)
	c := h.win.Canvas()
	space := &fyne.KeyEvent{Name: fyne.KeySpace}
	if k, ok := c.Focused().(desktop.Keyable); ok {
		k.KeyDown(space)
	}
	c.Focused().TypedKey(space)
	h.settle()
	h.typ(" ")
	if k, ok := c.Focused().(desktop.Keyable); ok {
		k.KeyUp(space)
	}
	h.settle()
	if h.k.screen != h.k.passcode {
		t.Fatalf("Space on Officials: screen %T", h.k.screen)
	}
	if got := h.k.passcode.entry.Text; got != "" {
		t.Errorf("Space on Officials: the passcode holds %q; want nothing", got)
	}
}
