package kiosk

import (
	"fmt"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"votedesk/app"
)

// A voter who leaves the kiosk mid-ballot must not leave their choices for
// the next person to see or cast. As voting-system guidelines ask of a
// ballot-marking station (VVSG 2.0; VotingWorks' VxMark uses the same
// values), after DefaultIdleAfter without input the kiosk warns that the
// session will end, and DefaultIdleGrace later it discards the unfinished
// ballot and returns to check-in with every setting reset.
const (
	DefaultIdleAfter = 2 * time.Minute
	DefaultIdleGrace = 30 * time.Second
)

// noteInput is called on every key, tap and focus move a voter makes. It
// ends an idle warning (the voter is back) or restarts the idle timer.
// Focus moves the kiosk makes itself while showing a screen are not input.
func (k *Kiosk) noteInput() {
	if k.showing || k.closed {
		return
	}
	if k.idle != nil && k.screen == k.idle {
		k.idle.resume()
		return
	}
	k.armIdle()
}

// woke notes a key the kiosk received, and reports whether it only woke a
// voter from the idle warning (the key then does nothing else).
func (k *Kiosk) woke() bool {
	warned := k.idle != nil && k.screen == k.idle
	k.noteInput()
	return warned
}

// armIdle (re)starts the idle timer while a voter's screen shows: check-in,
// the ballot or the review. Other screens have their own ends (the receipt)
// or belong to officials.
func (k *Kiosk) armIdle() {
	if k.stopIdle != nil {
		k.stopIdle()
		k.stopIdle = nil
	}
	switch k.screen.(type) {
	case *checkInScreen, *ballotScreen, *reviewScreen:
		k.stopIdle = k.run.After(k.cfg.IdleAfter, k.idleWarn)
	}
}

// idleWarn covers the voter's screen with the warning, unless there is
// nothing of a voter to discard (an untouched check-in).
func (k *Kiosk) idleWarn() {
	k.stopIdle = nil
	if k.busy || k.closed {
		return
	}
	switch s := k.screen.(type) {
	case *checkInScreen:
		if s.name.Text == "" && k.look == k.defaultLook() {
			return
		}
	case *ballotScreen, *reviewScreen:
	default:
		return
	}
	k.idle = newIdleScreen(k, k.screen, k.win.Canvas().Focused())
	k.show(k.idle)
	k.stopIdle = k.run.After(k.cfg.IdleGrace, k.idleEnd)
	idle := k.idle
	k.run.After(time.Second, func() { idle.tick() })
}

// idleEnd discards the voter's unfinished session and returns to check-in.
// If an official's passcode screen covers the warning, the session is
// discarded under it and the official's typing is left be.
func (k *Kiosk) idleEnd() {
	k.stopIdle = nil
	if k.idle == nil {
		return
	}
	if k.screen == k.idle {
		k.nextVoter()
		return
	}
	k.forgetVoter()
	if k.look != k.defaultLook() {
		k.setLook(k.defaultLook())
	}
}

// idleScreen asks a voter who has not touched the kiosk for a while whether
// they need more time, counting down to the end of their session. It hides
// their ballot while it shows.
type idleScreen struct {
	k     *Kiosk
	back  screen
	focus fyne.Focusable
	more  *button
	count *widget.Label
	left  time.Duration
	obj   fyne.CanvasObject
}

func newIdleScreen(k *Kiosk, back screen, focus fyne.Focusable) *idleScreen {
	s := &idleScreen{k: k, back: back, focus: focus, left: k.cfg.IdleGrace, count: message(widget.WarningImportance)}
	s.count.SetText(s.countText())
	s.more = newButton(k, "I need more time", theme.ConfirmIcon(), s.resume)
	s.more.Importance = widget.HighImportance
	help := label("Press any key or touch the screen to go on voting.")
	s.obj = newTapArea(page(heading("Are you still voting?"), container.NewVBox(s.count, help), s.more), s.resume)
	return s
}

func (s *idleScreen) countText() string {
	what := "your ballot is cleared and this kiosk returns to check-in"
	if _, ok := s.back.(*checkInScreen); ok {
		what = "this kiosk starts again for the next voter"
	}
	return fmt.Sprintf("Nobody has touched the screen for a while. In %s %s.", app.WaitText(s.left), what)
}

func (s *idleScreen) view() fyne.CanvasObject { return s.obj }
func (s *idleScreen) voterFacing() bool       { return true }
func (s *idleScreen) first() fyne.Focusable   { return s.more }

// typedRune and typedKey: any key the focused button does not take means
// the voter is back.
func (s *idleScreen) typedRune(rune)          { s.resume() }
func (s *idleScreen) typedKey(*fyne.KeyEvent) { s.resume() }

// tick counts the warning down by a second.
func (s *idleScreen) tick() {
	if s.k.idle != s || s.left <= time.Second {
		return
	}
	s.left -= time.Second
	s.count.SetText(s.countText())
	s.k.run.After(time.Second, s.tick)
}

// resume shows the voter's screen again as it was, the focus where it was.
func (s *idleScreen) resume() {
	k := s.k
	if k.idle != s {
		return
	}
	k.idle = nil
	if !k.live(s.back) {
		k.nextVoter()
		return
	}
	k.show(s.back)
	if s.focus != nil {
		k.showing = true
		k.win.Canvas().Focus(s.focus)
		k.showing = false
	}
}
