package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"votedesk/ui/modal"
)

// progressDialog is a dialog without buttons that says what long work is
// doing and how far it has got, shown while the work runs off the UI
// goroutine (imports).
type progressDialog struct {
	title string
	width float32
	Stage *widget.Label
	Bar   *widget.ProgressBar
	d     *modal.Dialog
}

func newProgressDialog(title string, width float32) *progressDialog {
	return &progressDialog{title: title, width: width, Stage: widget.NewLabel(""), Bar: widget.NewProgressBar()}
}

// show opens the dialog on win if it is not open and shows stage and, when
// value is 0 to 1, the bar at value.
func (p *progressDialog) show(win fyne.Window, stage string, value float64) {
	if p.d == nil {
		p.d = modal.NewCustomWithoutButtons(p.title, container.NewVBox(p.Stage, p.Bar), win)
		p.d.Resize(fyne.NewSize(p.width, 0))
		modal.ShowBusy(win, p.d)
	}
	p.Stage.SetText(stage)
	if value >= 0 && value <= 1 {
		p.Bar.SetValue(value)
	}
}

// hide closes the dialog if it is open.
func (p *progressDialog) hide() {
	if p.d != nil {
		p.d.Hide()
		p.d = nil
	}
}
