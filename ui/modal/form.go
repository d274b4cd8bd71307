package modal

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"votedesk/app"
)

// Form is a dialog of fields whose confirm may be refused. The fields'
// rules belong in their hints, read before the first try; a refusal is
// shown in the dialog, which stays open with everything typed, until a try
// succeeds or the user cancels.
type Form struct {
	// Error says why the last try was refused; hidden until one is.
	Error *widget.Label
	// Confirm tries; Cancel closes the dialog.
	Confirm, Cancel *Button

	win   fyne.Window
	items []*widget.FormItem
	d     *Dialog
	try   func(done func(err error))
	busy  bool
}

// NewForm makes the dialog. try is called on the UI goroutine when the user
// confirms (with the button or Enter); it may work off the UI goroutine and
// must call done on it once: with nil to close the dialog, with the refusal
// to keep it open.
func NewForm(win fyne.Window, title, confirm, dismiss string, items []*widget.FormItem, try func(done func(err error))) *Form {
	f := &Form{win: win, items: items, try: try, Error: widget.NewLabel("")}
	f.Error.Importance = widget.DangerImportance
	f.Error.Wrapping = fyne.TextWrapWord
	f.Error.Hide()
	f.Confirm = NewButtonWithIcon(confirm, theme.ConfirmIcon(), f.Submit)
	f.Confirm.Importance = widget.HighImportance
	f.Cancel = NewButtonWithIcon(dismiss, theme.CancelIcon(), nil)
	for _, it := range items {
		if e, ok := it.Widget.(*Entry); ok && e.OnSubmitted == nil && !e.MultiLine {
			e.OnSubmitted = func(string) { f.Submit() }
		}
	}
	f.d = NewCustomWithoutButtons(title, container.NewVBox(widget.NewForm(items...), f.Error), win)
	f.d.SetButtons([]fyne.CanvasObject{f.Cancel, f.Confirm})
	f.Cancel.OnTapped = f.d.Hide
	return f
}

// Show shows the dialog with the focus in its first empty field.
func (f *Form) Show() {
	Show(f.win, f.d, f.Submit)
	var first fyne.Focusable
	for _, it := range f.items {
		if e, ok := it.Widget.(*Entry); ok && e.Text == "" {
			first = e
			break
		}
		if w, ok := it.Widget.(fyne.Focusable); ok && first == nil {
			first = w
		}
	}
	if first != nil {
		f.win.Canvas().Focus(first)
	}
}

// Resize sets the dialog's size.
func (f *Form) Resize(size fyne.Size) { f.d.Resize(size) }

// Submit tries, unless a try is under way.
func (f *Form) Submit() {
	if f.busy {
		return
	}
	f.busy = true
	f.Confirm.Disable()
	f.try(func(err error) {
		f.busy = false
		f.Confirm.Enable()
		if err == nil {
			f.d.Hide()
			return
		}
		f.Error.SetText(app.ErrorMessage(err))
		f.Error.Show()
		f.d.Refresh()
	})
}
