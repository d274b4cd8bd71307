package kiosk

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// keyRouter receives the keys a focused control does not use itself, so that
// number keys and arrows work wherever the focus is.
type keyRouter interface {
	typedRune(r rune)
	typedKey(ev *fyne.KeyEvent)
}

// button is a kiosk button: never smaller than the theme's target size, a
// clear focus ring, pressed with Enter as well as Space, and passing other
// keys on to the screen.
type button struct {
	widget.Button
	keys    keyRouter
	focused bool
	// onFocus, when set, runs when the button gains the focus (to scroll it
	// into view).
	onFocus func()
}

func newButton(keys keyRouter, text string, icon fyne.Resource, tapped func()) *button {
	b := &button{keys: keys}
	b.Text, b.Icon, b.OnTapped = text, icon, tapped
	b.ExtendBaseWidget(b)
	return b
}

// MinSize is at least the target size in both directions.
func (b *button) MinSize() fyne.Size {
	s := b.Button.MinSize()
	t := targetSize(b.Theme())
	return fyne.NewSize(max(s.Width, t), max(s.Height, t))
}

// TypedKey presses the button on Enter or Space and passes other keys on.
func (b *button) TypedKey(ev *fyne.KeyEvent) {
	switch ev.Name {
	case fyne.KeyReturn, fyne.KeyEnter, fyne.KeySpace:
		if !b.Disabled() {
			b.Tapped(&fyne.PointEvent{})
		}
	default:
		if b.keys != nil {
			b.keys.typedKey(ev)
		}
	}
}

// TypedRune passes characters on to the screen (number keys rank candidates).
func (b *button) TypedRune(r rune) {
	if b.keys != nil {
		b.keys.typedRune(r)
	}
}

func (b *button) FocusGained() {
	b.focused = true
	b.Button.FocusGained()
	if b.onFocus != nil {
		b.onFocus()
	}
}

func (b *button) FocusLost() {
	b.focused = false
	b.Button.FocusLost()
}

func (b *button) CreateRenderer() fyne.WidgetRenderer {
	ring := canvas.NewRectangle(color.Transparent)
	return &ringRenderer{WidgetRenderer: b.Button.CreateRenderer(), ring: ring, focused: func() bool { return b.focused }, th: b.Theme}
}

// ringRenderer draws a focus ring around a widget.
type ringRenderer struct {
	fyne.WidgetRenderer
	ring    *canvas.Rectangle
	focused func() bool
	th      func() fyne.Theme
}

func (r *ringRenderer) Layout(s fyne.Size) {
	r.WidgetRenderer.Layout(s)
	r.ring.Resize(s)
	r.ring.Move(fyne.NewPos(0, 0))
}

func (r *ringRenderer) Objects() []fyne.CanvasObject {
	return append(r.WidgetRenderer.Objects(), r.ring)
}

func (r *ringRenderer) Refresh() {
	r.WidgetRenderer.Refresh()
	th := r.th()
	r.ring.StrokeColor = th.Color(theme.ColorNamePrimary, 0)
	if kt, ok := th.(kioskTheme); ok {
		r.ring.StrokeColor = kt.focusRing()
	}
	r.ring.StrokeWidth = 0
	if r.focused() {
		r.ring.StrokeWidth = max(3, th.Size(theme.SizeNameInputBorder)+1)
	}
	r.ring.CornerRadius = th.Size(theme.SizeNameButtonRadius)
	r.ring.Refresh()
}

// targetSize is the smallest control size of th: the kiosk theme's, or 48
// under any other theme (after the kiosk hands its window back).
func targetSize(th fyne.Theme) float32 {
	if kt, ok := th.(kioskTheme); ok {
		return kt.Size(sizeNameTarget)
	}
	return 48
}

// entry is a one-line kiosk text field: at least the target height, Enter
// submits, extra keys (F-keys, Escape) go to handlers, and nothing typed can
// leave it for the next voter: no copy, cut, paste, undo or redo, and no
// context menu.
type entry struct {
	widget.Entry
	keys map[fyne.KeyName]func()
}

func newEntry(placeholder string, submit func(string)) *entry {
	e := &entry{}
	e.PlaceHolder, e.OnSubmitted = placeholder, submit
	e.ExtendBaseWidget(e)
	return e
}

func newPasswordEntry(placeholder string, submit func(string)) *entry {
	e := newEntry(placeholder, submit)
	e.Password = true
	return e
}

// MinSize is at least the target height.
func (e *entry) MinSize() fyne.Size {
	s := e.Entry.MinSize()
	return fyne.NewSize(s.Width, max(s.Height, targetSize(e.Theme())))
}

// TypedKey runs the handler of keys the kiosk uses and leaves the rest to
// the text field.
func (e *entry) TypedKey(ev *fyne.KeyEvent) {
	if f := e.keys[ev.Name]; f != nil {
		f()
		return
	}
	e.Entry.TypedKey(ev)
}

// TypedShortcut refuses the clipboard and the undo history.
func (e *entry) TypedShortcut(s fyne.Shortcut) {
	switch s.(type) {
	case *fyne.ShortcutCopy, *fyne.ShortcutCut, *fyne.ShortcutPaste, *fyne.ShortcutUndo, *fyne.ShortcutRedo:
		return
	}
	e.Entry.TypedShortcut(s)
}

// TappedSecondary shows no context menu.
func (e *entry) TappedSecondary(*fyne.PointEvent) {}

// label is a wrapping text label.
func label(text string) *widget.Label {
	l := widget.NewLabel(text)
	l.Wrapping = fyne.TextWrapWord
	return l
}

// heading is a large bold label.
func heading(text string) *widget.Label {
	l := widget.NewLabelWithStyle(text, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	l.SizeName = theme.SizeNameHeadingText
	l.Wrapping = fyne.TextWrapWord
	return l
}

// message is a label for refusals and warnings.
func message(importance widget.Importance) *widget.Label {
	l := label("")
	l.Importance = importance
	l.TextStyle.Bold = true
	return l
}
