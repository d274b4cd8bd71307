package modal

import (
	"fyne.io/fyne/v2"
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
	var eye *widget.Button
	eye = widget.NewButtonWithIcon("", theme.VisibilityOffIcon(), func() {
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

// TypedKey closes the dialog on Escape, and is the entry's otherwise.
func (e *Entry) TypedKey(ev *fyne.KeyEvent) {
	if ev.Name == fyne.KeyEscape && EscapeFrom(e) {
		return
	}
	e.Entry.TypedKey(ev)
}

// DateEntry is a date field (typed, or picked from its calendar) that hands
// Escape on: it closes the calendar when it is open, else the dialog.
type DateEntry struct{ widget.DateEntry }

// NewDateEntry makes a date field.
func NewDateEntry() *DateEntry {
	e := &DateEntry{}
	e.ExtendBaseWidget(e)
	e.Wrapping = fyne.TextWrap(fyne.TextTruncateClip)
	return e
}

// TypedKey closes the calendar or the dialog on Escape, and is the entry's
// otherwise.
func (e *DateEntry) TypedKey(ev *fyne.KeyEvent) {
	if ev.Name == fyne.KeyEscape && EscapeFrom(e) {
		return
	}
	e.DateEntry.TypedKey(ev)
}

// NewMultiLineEntry makes a text field of several lines (Enter makes a new
// line; Escape still closes the dialog).
func NewMultiLineEntry() *Entry {
	e := &Entry{}
	e.MultiLine = true
	e.Wrapping = fyne.TextWrap(fyne.TextTruncateClip)
	e.ExtendBaseWidget(e)
	return e
}
