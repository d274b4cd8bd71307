package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// navList is the sidebar's list of screens, with a ring around it while it
// has the focus: a list marks its focused row only when that row is not
// the selected one, and the row of the screen shown always is, so Tab onto
// the list showed nothing.
type navList struct {
	widget.List
	focused bool
}

func newNavList(length func() int, create func() fyne.CanvasObject, update func(widget.ListItemID, fyne.CanvasObject)) *navList {
	l := &navList{}
	l.Length, l.CreateItem, l.UpdateItem = length, create, update
	l.ExtendBaseWidget(l)
	return l
}

// FocusGained shows the ring.
func (l *navList) FocusGained() {
	l.focused = true
	l.List.FocusGained()
	l.Refresh()
}

// FocusLost hides the ring.
func (l *navList) FocusLost() {
	l.focused = false
	l.List.FocusLost()
	l.Refresh()
}

// CreateRenderer is the list's, with the ring.
func (l *navList) CreateRenderer() fyne.WidgetRenderer {
	return newRingRenderer(l.List.CreateRenderer(), func() bool { return l.focused })
}
