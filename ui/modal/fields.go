package modal

import (
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// Entry is a text field that hands Escape on to the dialog it is in: a
// focused field takes every key, so without this Escape would do nothing
// while the user types.
type Entry struct{ widget.Entry }

// NewEntry makes a one-line text field.
func NewEntry() *Entry {
	e := &Entry{}
	e.ExtendBaseWidget(e)
	return e
}

// NewPasswordEntry makes a text field that hides what is typed, with an
// eye at its end that shows it.
func NewPasswordEntry() *Entry {
	e := &Entry{}
	e.Password = true
	e.Wrapping = fyne.TextWrap(fyne.TextTruncateClip)
	e.ExtendBaseWidget(e)
	var eye *Button
	eye = NewButtonWithIcon("", theme.VisibilityOffIcon(), func() {
		e.Password = !e.Password
		if e.Password {
			eye.SetIcon(theme.VisibilityOffIcon())
		} else {
			eye.SetIcon(theme.VisibilityIcon())
		}
		e.Refresh()
	})
	eye.Importance = widget.LowImportance
	e.ActionItem = eye
	return e
}

// TypedKey closes the dialog on Escape and, in a one-line field that does
// nothing with it, confirms the dialog on Enter; it is the entry's
// otherwise.
func (e *Entry) TypedKey(ev *fyne.KeyEvent) {
	switch ev.Name {
	case fyne.KeyEscape:
		if EscapeFrom(e) {
			return
		}
	case fyne.KeyReturn, fyne.KeyEnter:
		if !e.MultiLine && e.OnSubmitted == nil && passOn(e, ev) {
			return
		}
	case fyne.KeyTab:
		if tabFrom(e, e.ActionItem) {
			return
		}
	}
	e.Entry.TypedKey(ev)
}

// TypedShortcut hands the window's shortcuts on (see Shortcuts); the
// others are the entry's.
func (e *Entry) TypedShortcut(s fyne.Shortcut) {
	if !handOn(e, s) {
		e.Entry.TypedShortcut(s)
	}
}

// DateEntry is a date field (typed, or picked from its calendar) that hands
// Escape on: it closes the calendar when it is open, else the dialog.
type DateEntry struct{ widget.DateEntry }

// NewDateEntry makes a date field. Its calendar button is a Button (Fyne's
// own would swallow Escape and Enter), opening the calendar at the date
// typed, or today's month.
func NewDateEntry() *DateEntry {
	e := &DateEntry{}
	e.ExtendBaseWidget(e)
	e.Wrapping = fyne.TextWrap(fyne.TextTruncateClip)
	open := NewButtonWithIcon("", theme.CalendarIcon(), e.openCalendar)
	open.Importance = widget.LowImportance
	e.ActionItem = open
	return e
}

// openCalendar shows the calendar under the field; a day picked is set and
// the calendar closed.
func (e *DateEntry) openCalendar() {
	c := fyne.CurrentApp().Driver().CanvasForObject(e)
	if c == nil {
		return
	}
	month := time.Now()
	if e.Date != nil {
		month = *e.Date
	}
	var pop *widget.PopUp
	pop = widget.NewPopUp(widget.NewCalendar(month, func(d time.Time) {
		pop.Hide()
		e.SetDate(&d)
	}), c)
	at := fyne.CurrentApp().Driver().AbsolutePositionForObject(e)
	pop.ShowAtPosition(at.Add(fyne.NewPos(0, e.Size().Height)))
	pop.Resize(fyne.NewSize(e.Size().Width, pop.MinSize().Height))
}

// TypedKey closes the calendar or the dialog on Escape, and is the entry's
// otherwise.
func (e *DateEntry) TypedKey(ev *fyne.KeyEvent) {
	if ev.Name == fyne.KeyEscape && EscapeFrom(e) {
		return
	}
	if (ev.Name == fyne.KeyReturn || ev.Name == fyne.KeyEnter) && e.OnSubmitted == nil && passOn(e, ev) {
		return
	}
	if ev.Name == fyne.KeyTab && tabFrom(e, e.ActionItem) {
		return
	}
	e.DateEntry.TypedKey(ev)
}

// TypedShortcut hands the window's shortcuts on (see Shortcuts); the
// others are the entry's.
func (e *DateEntry) TypedShortcut(s fyne.Shortcut) {
	if !handOn(e, s) {
		e.DateEntry.TypedShortcut(s)
	}
}

// AcceptsTab is true: the field moves the focus itself on Tab and
// Shift+Tab (see tabFrom).
func (e *DateEntry) AcceptsTab() bool { return true }

// NewMultiLineEntry makes a text field of several lines (Enter makes a new
// line; Escape still closes the dialog; Tab moves on, see AcceptsTab).
func NewMultiLineEntry() *Entry {
	e := &Entry{}
	e.MultiLine = true
	e.Wrapping = fyne.TextWrap(fyne.TextTruncateClip)
	e.ExtendBaseWidget(e)
	return e
}

// AcceptsTab is false, also for a field of several lines: Tab moves the
// focus on, as everywhere else, rather than typing a tab character (which
// no field here needs) and trapping a keyboard user in the field. A field
// with a button at its end (a password's eye) takes Tab to move the focus
// itself (see tabFrom).
func (e *Entry) AcceptsTab() bool { return e.ActionItem != nil }

// tabFrom moves the focus on from field, whose button at its end is own,
// for Tab (forward: to own, then on) or Shift+Tab (back: to the object
// before the field, past own). Fyne goes back through a widget before its
// children, so from a password field Shift+Tab would land on its own eye,
// and a keyboard user would need two presses to get back to the name
// field above. It reports whether it moved the focus.
func tabFrom(field fyne.Focusable, own fyne.CanvasObject) bool {
	c := fyne.CurrentApp().Driver().CanvasForObject(field.(fyne.CanvasObject))
	if c == nil {
		return false
	}
	if !shiftHeld() {
		c.FocusNext()
		return true
	}
	c.FocusPrevious()
	if f, ok := c.Focused().(fyne.CanvasObject); ok && own != nil && f == own {
		c.FocusPrevious()
	}
	return true
}

// shiftHeld reports whether Shift is held down, as the desktop driver
// knows it (tests replace it: Fyne's test driver does not know).
var shiftHeld = func() bool {
	d, ok := fyne.CurrentApp().Driver().(desktop.Driver)
	return ok && d.CurrentKeyModifiers()&fyne.KeyModifierShift != 0
}
