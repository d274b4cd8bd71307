package kiosk

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"votedesk/ui/modal"
)

// keyRouter receives the keys a focused control does not use itself, so that
// number keys and arrows work wherever the focus is.
type keyRouter interface {
	typedRune(r rune)
	typedKey(ev *fyne.KeyEvent)
}

// button is a kiosk button: never smaller than the theme's target size, a
// clear focus ring, pressed with Enter as well as Space, passing other keys
// on to the kiosk, and telling it of every input (which keeps a voter's
// session from timing out).
type button struct {
	widget.Button
	k       *Kiosk
	focused bool
	space   modal.SpacePress
	// wrap, when set, holds the button's text instead of Text, wrapped at
	// word boundaries (newWrapButton).
	wrap *widget.Label
	// onFocus, when set, runs when the button gains the focus (to scroll it
	// into view).
	onFocus func()
}

func newButton(k *Kiosk, text string, icon fyne.Resource, tapped func()) *button {
	b := &button{k: k}
	b.Text, b.Icon, b.OnTapped = text, icon, tapped
	b.ExtendBaseWidget(b)
	return b
}

// newWrapButton is a button whose text wraps at word boundaries instead of
// widening the button: a long candidate name at the largest text size.
func newWrapButton(k *Kiosk, text string, icon fyne.Resource, tapped func()) *button {
	b := newButton(k, "", icon, tapped)
	b.Alignment = widget.ButtonAlignLeading
	b.wrap = label(text)
	return b
}

// label is the button's text.
func (b *button) label() string {
	if b.wrap != nil {
		return b.wrap.Text
	}
	return b.Text
}

// setLabel sets the button's text, refreshing only when it changes.
func (b *button) setLabel(text string) {
	switch {
	case b.wrap != nil && b.wrap.Text != text:
		b.wrap.SetText(text)
	case b.wrap == nil && b.Text != text:
		b.SetText(text)
	}
}

// MinSize is at least the target size in both directions, and wide enough
// that the focus ring's bands clear the text.
func (b *button) MinSize() fyne.Size {
	s := b.Button.MinSize()
	if b.wrap == nil {
		s.Width += 2 * ringRoom(b.Theme())
	}
	t := targetSize(b.Theme())
	return fyne.NewSize(max(s.Width, t), max(s.Height, t))
}

// ringRoom is how much wider than Fyne's padding a button must be on each
// side for its text to clear the focus ring (with two units of air).
func ringRoom(th fyne.Theme) float32 {
	return max(ringOuter+ringInner+2-th.Size(theme.SizeNameInnerPadding), 0)
}

// TypedKey presses the button on Enter, and on Space as modal.SpacePress
// says, and passes other keys on.
func (b *button) TypedKey(ev *fyne.KeyEvent) {
	switch ev.Name {
	case fyne.KeyReturn, fyne.KeyEnter:
		b.press()
	case fyne.KeySpace:
		if b.space.Typed() {
			b.press()
		}
	default:
		b.k.typedKey(ev)
	}
}

// press runs the button's action. Not Tapped: Fyne's takes the focus off
// the button (a tap comes from the mouse), and the keyboard would lose its
// place on a screen that stays, such as the menu after Sync now.
func (b *button) press() {
	if !b.Disabled() && b.OnTapped != nil {
		b.k.noteInput()
		b.OnTapped()
	}
}

// KeyDown notes a Space going down on the button (modal.SpacePress).
func (b *button) KeyDown(ev *fyne.KeyEvent) { b.space.KeyDown(ev) }

// KeyUp presses the button when the Space that went down on it comes up.
func (b *button) KeyUp(ev *fyne.KeyEvent) {
	if b.space.KeyUp(ev) {
		b.press()
	}
}

// TypedRune passes characters on to the kiosk (number keys rank
// candidates).
func (b *button) TypedRune(r rune) { b.k.typedRune(r) }

// Tapped notes the input, then presses the button.
func (b *button) Tapped(ev *fyne.PointEvent) {
	b.k.noteInput()
	b.Button.Tapped(ev)
}

func (b *button) FocusGained() {
	b.k.noteInput()
	b.focused = true
	b.Button.FocusGained()
	if b.onFocus != nil {
		b.onFocus()
	}
}

func (b *button) FocusLost() {
	b.focused = false
	b.space.Reset()
	b.Button.FocusLost()
}

func (b *button) CreateRenderer() fyne.WidgetRenderer {
	outlined := func() bool { return !b.Disabled() && b.Importance != widget.HighImportance }
	r := b.Button.CreateRenderer()
	if b.wrap != nil {
		r = &wrapRenderer{WidgetRenderer: r, b: b}
	}
	return newRingRenderer(r, func() bool { return b.focused }, outlined, b.Theme)
}

// wrapRenderer lays a button's wrapped text out beside its icon.
type wrapRenderer struct {
	fyne.WidgetRenderer
	b *button
}

// textLeft is where the text starts: after the icon.
func (r *wrapRenderer) textLeft() float32 {
	th := r.b.Theme()
	pad := th.Size(theme.SizeNameInnerPadding)
	if r.b.Icon == nil {
		return pad / 2
	}
	return pad + th.Size(theme.SizeNameInlineIcon)
}

func (r *wrapRenderer) Layout(s fyne.Size) {
	r.WidgetRenderer.Layout(s)
	x := r.textLeft()
	w := max(s.Width-x-r.rightMargin(), 0)
	r.b.wrap.Resize(fyne.NewSize(w, r.b.wrap.MinSize().Height))
	r.b.wrap.Move(fyne.NewPos(x, (s.Height-r.b.wrap.Size().Height)/2))
}

// rightMargin keeps the text clear of the focus ring on the right.
func (r *wrapRenderer) rightMargin() float32 { return ringOuter + ringInner + 2 }

func (r *wrapRenderer) MinSize() fyne.Size {
	l := r.b.wrap.MinSize()
	return fyne.NewSize(r.textLeft()+l.Width+r.rightMargin(), l.Height)
}

func (r *wrapRenderer) Objects() []fyne.CanvasObject {
	return append(r.WidgetRenderer.Objects(), r.b.wrap)
}

func (r *wrapRenderer) Refresh() {
	r.WidgetRenderer.Refresh()
	r.b.wrap.Refresh()
}

// ringRenderer draws a focus ring around a widget, and in high contrast an
// outline around a control that can be pressed. The ring is two bands: the
// ring colour outside and the colour of text on the primary colour inside,
// so that it shows on every background, the primary-coloured buttons' too
// (WCAG 2.4.13: at least 3:1 between focused and unfocused pixels, over
// more than a 2-unit perimeter).
type ringRenderer struct {
	fyne.WidgetRenderer
	outer, inner, outline band
	focused, outlined     func() bool
	th                    func() fyne.Theme
}

// Widths of the focus ring's bands.
const (
	ringOuter = 7
	ringInner = 4
)

// band is a rectangular frame of four filled strips. Strips, unlike a
// rectangle's stroke, sit where they are put with every painter (the GL
// painter draws a stroke inside its rectangle, the software one centred on
// its edge).
type band [4]*canvas.Rectangle

func newBand() band {
	var b band
	for i := range b {
		b[i] = canvas.NewRectangle(color.Transparent)
	}
	return b
}

// layout places the frame inset from the edges of a widget of size s, width
// wide.
func (b band) layout(s fyne.Size, inset, width float32) {
	w, h := max(s.Width-2*inset, 0), max(s.Height-2*inset, 0)
	b[0].Move(fyne.NewPos(inset, inset))
	b[0].Resize(fyne.NewSize(w, width))
	b[1].Move(fyne.NewPos(inset, inset+h-width))
	b[1].Resize(fyne.NewSize(w, width))
	b[2].Move(fyne.NewPos(inset, inset))
	b[2].Resize(fyne.NewSize(width, h))
	b[3].Move(fyne.NewPos(inset+w-width, inset))
	b[3].Resize(fyne.NewSize(width, h))
}

// show colours the frame, or hides it.
func (b band) show(on bool, c color.Color) {
	for _, r := range b {
		r.FillColor = c
		r.Hidden = !on
		r.Refresh()
	}
}

func newRingRenderer(r fyne.WidgetRenderer, focused, outlined func() bool, th func() fyne.Theme) *ringRenderer {
	rr := &ringRenderer{WidgetRenderer: r, focused: focused, outlined: outlined, th: th,
		outer: newBand(), inner: newBand(), outline: newBand()}
	rr.style()
	return rr
}

func (r *ringRenderer) Layout(s fyne.Size) {
	r.WidgetRenderer.Layout(s)
	r.outline.layout(s, 0, r.th().Size(theme.SizeNameInputBorder))
	r.outer.layout(s, 0, ringOuter)
	r.inner.layout(s, ringOuter, ringInner)
}

func (r *ringRenderer) Objects() []fyne.CanvasObject {
	objs := r.WidgetRenderer.Objects()
	for _, b := range []band{r.outline, r.outer, r.inner} {
		for _, x := range b {
			objs = append(objs, x)
		}
	}
	return objs
}

func (r *ringRenderer) Refresh() {
	r.WidgetRenderer.Refresh()
	r.style()
}

// style colours the bands for the theme and shows those the widget's state
// asks for.
func (r *ringRenderer) style() {
	th := r.th()
	r.outer.show(r.focused(), th.Color(theme.ColorNamePrimary, 0))
	r.inner.show(r.focused(), th.Color(theme.ColorNameForegroundOnPrimary, 0))
	r.outline.show(r.outlined(), th.Color(colorNameOutline, 0))
}

// targetSize is the smallest control size of th: the kiosk theme's, or 48
// under any other theme (after the kiosk hands its window back). A theme
// override wraps the kiosk theme, so it is asked by name.
func targetSize(th fyne.Theme) float32 {
	return max(th.Size(sizeNameTarget), 48)
}

// entry is a one-line kiosk text field: at least the target height, Enter
// submits, extra keys (F-keys, Escape) go to handlers, and nothing typed can
// leave it for the next voter: no copy, cut, paste, undo or redo, and no
// context menu.
type entry struct {
	widget.Entry
	keys    map[fyne.KeyName]func()
	focused bool
	// onInput, when set, is told of every key typed into the field (not of
	// changes the kiosk makes, such as emptying it).
	onInput func()
}

// TypedRune notes the input and types the character.
func (e *entry) TypedRune(r rune) {
	if e.onInput != nil {
		e.onInput()
	}
	e.Entry.TypedRune(r)
}

func (e *entry) FocusGained() {
	e.focused = true
	e.Entry.FocusGained()
}

func (e *entry) FocusLost() {
	e.focused = false
	e.Entry.FocusLost()
}

// CreateRenderer adds the kiosk's focus ring: the entry's own focused border
// is too close in colour to its unfocused one in high contrast.
func (e *entry) CreateRenderer() fyne.WidgetRenderer {
	return newRingRenderer(e.Entry.CreateRenderer(), func() bool { return e.focused }, func() bool { return false }, e.Theme)
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
	if e.onInput != nil {
		e.onInput()
	}
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
