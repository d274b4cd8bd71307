package ui

import (
	"fmt"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"

	"votedesk/app"
	"votedesk/ui/modal"
)

// windowField picks one bound of a voting window: a date (typed, or picked
// from the calendar) and a time of day, in local time. Both empty means no
// bound.
type windowField struct {
	Date    *modal.DateEntry
	Time    *modal.Entry
	content fyne.CanvasObject
}

func newWindowField() *windowField {
	f := &windowField{Date: modal.NewDateEntry(), Time: modal.NewEntry()}
	f.Time.SetPlaceHolder("HH:MM")
	f.Date.SetPlaceHolder("date")
	f.content = container.NewBorder(nil, nil, nil, container.NewGridWrap(fyne.NewSize(90, f.Time.MinSize().Height), f.Time), f.Date)
	return f
}

// set shows t (the zero time clears the field).
func (f *windowField) set(t time.Time) {
	if t.IsZero() {
		f.Date.SetDate(nil)
		f.Time.SetText("")
		return
	}
	l := t.Local()
	d := time.Date(l.Year(), l.Month(), l.Day(), 0, 0, 0, 0, time.Local)
	f.Date.SetDate(&d)
	f.Time.SetText(l.Format("15:04"))
}

func (f *windowField) enable(on bool) {
	enable(f.Date, on)
	enable(f.Time, on)
}

// value reads the field: the zero time when both parts are empty.
func (f *windowField) value() (time.Time, error) {
	clock := strings.TrimSpace(f.Time.Text)
	if f.Date.Date == nil {
		if strings.TrimSpace(f.Date.Text) != "" {
			return time.Time{}, app.Errorf(app.CodeInvalid, "the date %q is not a date (pick one from the calendar)", f.Date.Text)
		}
		if clock != "" {
			return time.Time{}, app.Errorf(app.CodeInvalid, "a time needs a date")
		}
		return time.Time{}, nil
	}
	h, m := 0, 0
	if clock != "" {
		if _, err := fmt.Sscanf(clock, "%d:%d", &h, &m); err != nil || h < 0 || h > 23 || m < 0 || m > 59 {
			return time.Time{}, app.Errorf(app.CodeInvalid, "the time %q is not a time of day like 07:30", clock)
		}
	}
	d := *f.Date.Date
	return time.Date(d.Year(), d.Month(), d.Day(), h, m, 0, 0, time.Local), nil
}

// zoneName names the local time zone, for hints.
func zoneName() string {
	name, _ := time.Now().Zone()
	return "local time (" + name + ")"
}
