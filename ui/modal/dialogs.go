package modal

import (
	"unicode"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// Dialog is a dialog built here rather than by Fyne, so that its buttons
// are Buttons: a focused button takes Enter as well as Space and hands
// Escape on, where Fyne's own take Space only and a user who tabbed to one
// would find Escape and Enter dead.
type Dialog struct {
	*dialog.CustomDialog
	win fyne.Window
	// enter is what Enter does over the dialog; nil closes it.
	enter func()
	// ConfirmButton and DismissButton are the dialog's buttons (either may
	// be nil).
	ConfirmButton, DismissButton *Button
	// message is the text of a message dialog, which is as wide as it
	// needs up to a limit (as Fyne's are) and wraps beyond.
	message string
	sized   bool
	// fields are a form dialog's items: the keyboard starts in the first
	// that takes it (Show).
	fields []*widget.FormItem
}

// maxMessageWidth and maxMessageShare bound a message dialog's width, as
// Fyne's text dialogs are bounded.
const (
	maxMessageWidth = 600
	maxMessageShare = 0.9
)

func newDialog(title string, icon fyne.Resource, content fyne.CanvasObject, win fyne.Window) *Dialog {
	d := &Dialog{CustomDialog: dialog.NewCustomWithoutButtons(title, content, win), win: win}
	if icon != nil {
		d.SetIcon(icon)
	}
	return d
}

func newMessage(title, message string, icon fyne.Resource, win fyne.Window) *Dialog {
	label := &widget.Label{Text: message, Alignment: fyne.TextAlignCenter, Wrapping: fyne.TextWrapWord}
	d := newDialog(title, icon, label, win)
	d.message = message
	return d
}

// buttons sets the dialog's row of buttons: dismiss (which closes it) and
// confirm (which runs onConfirm), either left out when its label is "".
func (d *Dialog) buttons(dismiss, confirm string, onConfirm func()) {
	var row []fyne.CanvasObject
	if dismiss != "" {
		d.DismissButton = NewButton(dismiss, d.Hide)
		if confirm != "" {
			d.DismissButton.SetIcon(theme.CancelIcon())
		}
		row = append(row, d.DismissButton)
	}
	if confirm != "" {
		d.ConfirmButton = NewButtonWithIcon(confirm, theme.ConfirmIcon(), onConfirm)
		d.ConfirmButton.Importance = widget.HighImportance
		d.enter = d.ConfirmButton.press
		row = append(row, d.ConfirmButton)
	}
	d.SetButtons(row)
}

// answered makes a dialog that answers callback once: true from confirm,
// false however else it closes (its dismiss button, Escape).
func (d *Dialog) answered(dismiss, confirm string, callback func(bool)) {
	yes := false
	d.buttons(dismiss, confirm, func() {
		yes = true
		d.Hide()
	})
	d.SetOnClosed(func() {
		if callback != nil {
			callback(yes)
		}
		yes = false
	})
}

// Show shows the dialog with its keys (see Show).
func (d *Dialog) Show() { Show(d.win, d, nil) }

// show is what Show does once the keys are known: a message dialog takes
// the width of its message, within bounds, the first time.
func (d *Dialog) show() {
	if d.message != "" && !d.sized {
		d.sized = true
		w := widget.NewLabel(d.message).MinSize().Width + 32 + theme.Padding()*2
		w = fyne.Min(fyne.Min(w, maxMessageWidth), d.win.Canvas().Size().Width*maxMessageShare)
		// Laid out at its width first, the message wraps as it will on
		// screen, and the dialog takes the height that needs.
		d.Resize(fyne.NewSize(w, d.MinSize().Height))
		d.Resize(fyne.NewSize(w, d.MinSize().Height))
	}
	d.CustomDialog.Show()
}

// Submit answers yes, as the confirm button does (not while it is
// disabled, as for a form with an invalid field); a dialog without one
// closes.
func (d *Dialog) Submit() {
	if d.ConfirmButton == nil {
		d.Hide()
		return
	}
	d.ConfirmButton.press()
}

// SetConfirmText relabels the confirm button.
func (d *Dialog) SetConfirmText(label string) {
	if d.ConfirmButton != nil {
		d.ConfirmButton.SetText(label)
	}
}

// NewInformation is a message with an OK button.
func NewInformation(title, message string, win fyne.Window) *Dialog {
	d := newMessage(title, message, theme.InfoIcon(), win)
	d.buttons("OK", "", nil)
	return d
}

// NewError is a message saying what went wrong, with an OK button.
func NewError(err error, win fyne.Window) *Dialog {
	text := err.Error()
	if r, size := utf8.DecodeRuneInString(text); r != utf8.RuneError {
		text = string(unicode.ToUpper(r)) + text[size:]
	}
	d := newMessage("Error", text, theme.ErrorIcon(), win)
	d.buttons("OK", "", nil)
	return d
}

// NewConfirm is a question answered Yes or No.
func NewConfirm(title, message string, callback func(bool), win fyne.Window) *Dialog {
	d := newMessage(title, message, theme.QuestionIcon(), win)
	d.answered("No", "Yes", callback)
	return d
}

// NewCustom shows content with a button that closes it.
func NewCustom(title, dismiss string, content fyne.CanvasObject, win fyne.Window) *Dialog {
	d := newDialog(title, nil, content, win)
	d.buttons(dismiss, "", nil)
	return d
}

// NewCustomConfirm shows content with a confirm and a dismiss button.
func NewCustomConfirm(title, confirm, dismiss string, content fyne.CanvasObject, callback func(bool), win fyne.Window) *Dialog {
	d := newDialog(title, nil, content, win)
	d.answered(dismiss, confirm, callback)
	return d
}

// NewCustomWithoutButtons shows content whose buttons the caller sets with
// SetButtons (they should be Buttons, for the keys).
func NewCustomWithoutButtons(title string, content fyne.CanvasObject, win fyne.Window) *Dialog {
	return newDialog(title, nil, content, win)
}

// NewFormDialog is a form whose confirm button is enabled while every field
// is valid; callback is answered as for NewCustomConfirm. Use Form instead
// where a try may be refused.
func NewFormDialog(title, confirm, dismiss string, items []*widget.FormItem, callback func(bool), win fyne.Window) *Dialog {
	form := widget.NewForm(items...)
	d := newDialog(title, nil, form, win)
	d.fields = items
	d.answered(dismiss, confirm, callback)
	valid := func(err error) {
		if err != nil {
			d.ConfirmButton.Disable()
		} else {
			d.ConfirmButton.Enable()
		}
	}
	valid(form.Validate())
	form.SetOnValidationChanged(valid)
	return d
}

// ShowInformation shows a message, with the keys.
func ShowInformation(title, message string, win fyne.Window) {
	NewInformation(title, message, win).Show()
}

// ShowConfirm asks a question, with the keys: Enter answers yes.
func ShowConfirm(title, message string, callback func(bool), win fyne.Window) {
	NewConfirm(title, message, callback, win).Show()
}

// ShowCustom shows content with a closing button, with the keys.
func ShowCustom(title, dismiss string, content fyne.CanvasObject, win fyne.Window) {
	NewCustom(title, dismiss, content, win).Show()
}

// Button is a button that takes Enter as well as Space when focused, and
// hands Escape on to the dialog or pop-up it is in (or, with none, to the
// window).
type Button struct {
	widget.Button
	space SpacePress
}

// NewButton makes a button.
func NewButton(label string, tapped func()) *Button {
	return NewButtonWithIcon(label, nil, tapped)
}

// NewButtonWithIcon makes a button with an icon.
func NewButtonWithIcon(label string, icon fyne.Resource, tapped func()) *Button {
	b := &Button{}
	b.Text, b.Icon, b.OnTapped = label, icon, tapped
	b.ExtendBaseWidget(b)
	return b
}

// press taps the button unless it is disabled.
func (b *Button) press() {
	if !b.Disabled() && b.OnTapped != nil {
		b.OnTapped()
	}
}

// TypedKey presses the button on Enter, and on Space as SpacePress says;
// closes the dialog on Escape, and is the button's otherwise.
func (b *Button) TypedKey(ev *fyne.KeyEvent) {
	switch ev.Name {
	case fyne.KeyReturn, fyne.KeyEnter:
		b.press()
		return
	case fyne.KeySpace:
		if b.space.Typed() {
			b.press()
		}
		return
	case fyne.KeyEscape:
		if passOn(b, ev) {
			return
		}
	}
	b.Button.TypedKey(ev)
}

// KeyDown notes a Space going down on the button (see SpacePress).
func (b *Button) KeyDown(ev *fyne.KeyEvent) { b.space.KeyDown(ev) }

// KeyUp presses the button when the Space that went down on it comes up.
func (b *Button) KeyUp(ev *fyne.KeyEvent) {
	if b.space.KeyUp(ev) {
		b.press()
	}
}

// FocusLost forgets a Space held when the focus left.
func (b *Button) FocusLost() {
	b.space.Reset()
	b.Button.FocusLost()
}

// SpacePress is when Space presses a button: when the key comes up, as
// desktop buttons do, where the driver says when keys go down and up.
// Pressed on the way down, a button that opens a dialog put the focus in
// the dialog's first field before the space character of the same key
// press arrived, and the field took it: an officer's passcode began with
// a space nobody typed. Where the driver does not say (Fyne's test
// driver), the typed Space presses it at once.
type SpacePress struct{ down bool }

// KeyDown notes a Space going down on the button.
func (s *SpacePress) KeyDown(ev *fyne.KeyEvent) {
	if ev.Name == fyne.KeySpace {
		s.down = true
	}
}

// KeyUp reports whether the key coming up is a Space that went down on
// the button: the button is pressed now.
func (s *SpacePress) KeyUp(ev *fyne.KeyEvent) bool {
	if ev.Name != fyne.KeySpace || !s.down {
		return false
	}
	s.down = false
	return true
}

// Typed reports whether a typed Space presses the button now: none went
// down on it first (its key-up will, otherwise).
func (s *SpacePress) Typed() bool { return !s.down }

// Reset forgets a Space held, when the focus leaves the button.
func (s *SpacePress) Reset() { s.down = false }

// Check is a check box that hands Escape and Enter on to the dialog it is
// in (Space ticks it).
type Check struct{ widget.Check }

// NewCheck makes a check box.
func NewCheck(label string, changed func(bool)) *Check {
	c := &Check{}
	c.Text, c.OnChanged = label, changed
	c.ExtendBaseWidget(c)
	return c
}

// TypedKey closes or confirms the dialog on Escape or Enter, and is the
// check box's otherwise.
func (c *Check) TypedKey(ev *fyne.KeyEvent) {
	if passOn(c, ev) {
		return
	}
	c.Check.TypedKey(ev)
}

// Select is a drop-down that hands Escape and Enter on to the dialog it is
// in (Space, Up and Down open it).
type Select struct{ widget.Select }

// NewSelect makes a drop-down of options.
func NewSelect(options []string, changed func(string)) *Select {
	s := &Select{}
	s.Options, s.OnChanged = options, changed
	s.ExtendBaseWidget(s)
	return s
}

// TypedKey closes or confirms the dialog on Escape or Enter, and is the
// drop-down's otherwise.
func (s *Select) TypedKey(ev *fyne.KeyEvent) {
	if passOn(s, ev) {
		return
	}
	s.Select.TypedKey(ev)
}

// passOn hands Escape and Enter typed into o to what is on top of its
// canvas and, with nothing over the window, Escape to the window's own key
// handler (which a focused control would otherwise keep from it). It
// reports whether it handed the key on.
func passOn(o fyne.CanvasObject, ev *fyne.KeyEvent) bool {
	c := fyne.CurrentApp().Driver().CanvasForObject(o)
	if c == nil {
		return false
	}
	if Key(c, ev) {
		return true
	}
	if h := c.OnTypedKey(); ev.Name == fyne.KeyEscape && h != nil {
		h(ev)
		return true
	}
	return false
}

// KeyPasser is a focusable control that hands Escape and Enter on to the
// dialog it is in when it has no use for them itself. Every focusable
// control in a dialog must be one: Fyne's own controls swallow both keys
// while they have the focus.
type KeyPasser interface {
	fyne.Focusable
	PassesKeys()
}

// PassOn hands Escape and Enter typed into o to what is on top of its
// canvas, reporting whether it did.
func PassOn(o fyne.CanvasObject, ev *fyne.KeyEvent) bool { return passOn(o, ev) }

// PassesKeys marks the controls of this package as KeyPassers.
func (*Button) PassesKeys()    {}
func (*Check) PassesKeys()     {}
func (*Select) PassesKeys()    {}
func (*Entry) PassesKeys()     {}
func (*DateEntry) PassesKeys() {}

// observe, when set, is told of every dialog shown.
var observe func(overlay fyne.CanvasObject)

// Observe has f told of every dialog shown from now on, by its overlay (a
// test uses it to check every control in every dialog is a KeyPasser).
func Observe(f func(overlay fyne.CanvasObject)) { observe = f }
