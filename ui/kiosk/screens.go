package kiosk

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"votedesk/app"
)

// screen is one of the kiosk's screens.
type screen interface {
	keyRouter
	// view is what the screen shows.
	view() fyne.CanvasObject
	// first is the control that has the focus when the screen appears.
	first() fyne.Focusable
	// voterFacing is true for the screens a voter may see, where the
	// officials' button is offered.
	voterFacing() bool
}

// noKeys is a screen that uses no keys of its own.
type noKeys struct{}

func (noKeys) typedRune(rune)          {}
func (noKeys) typedKey(*fyne.KeyEvent) {}
func (noKeys) voterFacing() bool       { return false }

// page lays a screen out: a heading, the body, and a row of buttons at the
// bottom, with room around it.
func page(title *widget.Label, body fyne.CanvasObject, buttons ...fyne.CanvasObject) fyne.CanvasObject {
	var bottom fyne.CanvasObject
	if len(buttons) > 0 {
		bottom = container.NewVBox(widget.NewSeparator(), container.NewHBox(append([]fyne.CanvasObject{layout.NewSpacer()}, buttons...)...))
	}
	return container.NewPadded(container.NewBorder(title, bottom, nil, nil, body))
}

// topBar is the strip above every screen: the election, what is not yet
// synced, the text size and contrast switches and the officials' button.
type topBar struct {
	k               *Kiosk
	title           *widget.Label
	pending         *widget.Label
	smaller, larger *button
	contrast        *button
	officials       *button
	obj             *container.ThemeOverride
}

func newTopBar(k *Kiosk) *topBar {
	b := &topBar{k: k, title: widget.NewLabelWithStyle("VoteDesk kiosk", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}), pending: widget.NewLabel("")}
	b.title.Truncation = fyne.TextTruncateEllipsis
	b.smaller = newButton(k, "Smaller text", theme.ZoomOutIcon(), func() { b.resize(-1) })
	b.larger = newButton(k, "Larger text", theme.ZoomInIcon(), func() { b.resize(+1) })
	b.contrast = newButton(k, "High contrast", theme.ColorPaletteIcon(), k.toggleContrast)
	b.officials = newButton(k, "Officials", theme.AccountIcon(), k.officials)
	b.officials.Importance = widget.LowImportance
	b.pending.Hide()
	return b
}

// view is the bar at the smallest text size whatever the voter chose, so
// that the buttons that change the size stay in the same place and on the
// screen.
func (b *topBar) view() fyne.CanvasObject {
	b.obj = container.NewThemeOverride(container.NewBorder(nil, nil, nil,
		container.NewHBox(b.pending, b.smaller, b.larger, b.contrast, b.officials), b.title), kioskTheme{})
	return b.obj
}

// resize changes the text size by one step; when that was the last step,
// the focus moves to the other size button, which can still be pressed.
func (b *topBar) resize(by int) {
	b.k.textSizeBy(by)
	c := b.k.win.Canvas()
	switch {
	case by > 0 && b.larger.Disabled():
		c.Focus(b.smaller)
	case by < 0 && b.smaller.Disabled():
		c.Focus(b.larger)
	}
}

// update shows the kiosk's current state.
func (b *topBar) update() {
	k := b.k
	if k.election.Name != "" {
		b.title.SetText(k.election.Name)
	}
	if bar := (kioskTheme{contrast: k.look.contrast}); b.obj != nil && b.obj.Theme != bar {
		b.obj.Theme = bar
		b.obj.Refresh()
	}
	setEnabled(b.smaller, k.look.size > 0)
	setEnabled(b.larger, k.look.size < TextSizes-1)
	if k.look.contrast {
		setButton(b.contrast, "Normal contrast", true)
	} else {
		setButton(b.contrast, "High contrast", true)
	}
	if k.screen != nil && k.screen.voterFacing() {
		b.officials.Show()
	} else {
		b.officials.Hide()
	}
	if k.cfg.Sync == nil {
		return
	}
	if k.screen == nil || k.screen.voterFacing() {
		// How many ballots wait for sync is the officials' business: a
		// voter sees nothing of it.
		b.pending.Hide()
		return
	}
	switch {
	case k.pendingErr != nil:
		b.pending.SetText("Sync status unknown")
	default:
		b.pending.SetText(fmt.Sprintf("Not yet synced: %d", k.pendingCount))
	}
	b.pending.Show()
}

// failedScreen says why the kiosk could not start.
type failedScreen struct {
	noKeys
	obj   fyne.CanvasObject
	close *button
}

func newFailedScreen(k *Kiosk, err error) *failedScreen {
	s := &failedScreen{}
	s.close = newButton(k, "Close", theme.CancelIcon(), k.exit)
	msg := message(widget.DangerImportance)
	msg.SetText(app.ErrorMessage(err))
	s.obj = page(heading("The kiosk cannot start"), container.NewVBox(msg), s.close)
	return s
}

func (s *failedScreen) view() fyne.CanvasObject { return s.obj }
func (s *failedScreen) first() fyne.Focusable   { return s.close }

// stoppedScreen is what every voter sees once nothing more can be cast
// here: the kiosk's election was deleted, or its official lost the right to
// cast (Kiosk.followed). The officials' button stays, for an official to
// close the kiosk.
type stoppedScreen struct {
	noKeys
	obj fyne.CanvasObject
}

func newStoppedScreen(k *Kiosk, why error) *stoppedScreen {
	voter := message(widget.DangerImportance)
	voter.SetText("Please ask a poll worker. If you were voting, your ballot was not recorded.")
	advice := " Close this kiosk from the officials' menu, and start one for the election that holds these voters now."
	if errors.Is(why, app.ErrAuthority) {
		advice = " Close this kiosk from the officials' menu, and start it again signed in as an official who may run a kiosk."
	}
	official := label("For officials: " + sentence(app.ErrorMessage(why)) + advice)
	return &stoppedScreen{obj: page(heading("Voting has stopped at this station"), container.NewVBox(voter, widget.NewSeparator(), official))}
}

func (s *stoppedScreen) view() fyne.CanvasObject { return s.obj }
func (s *stoppedScreen) first() fyne.Focusable   { return nil }
func (s *stoppedScreen) voterFacing() bool       { return true }

// sentence makes a message a sentence: a capital first letter and a full
// stop.
func sentence(msg string) string {
	msg = strings.TrimSpace(msg)
	if msg == "" {
		return msg
	}
	r, n := utf8.DecodeRuneInString(msg)
	msg = string(unicode.ToUpper(r)) + msg[n:]
	if !strings.HasSuffix(msg, ".") {
		msg += "."
	}
	return msg
}
