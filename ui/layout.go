package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
)

// toolbar is a row of buttons that wraps onto more rows when the window is
// narrow, so a screen's buttons never make the window wider than the
// screen.
func toolbar(objs ...fyne.CanvasObject) *fyne.Container {
	return container.New(&wrapRow{}, objs...)
}

// wrapRow lays its objects out left to right at their minimum sizes,
// starting a new row where the next would not fit. Its minimum width is its
// widest object; its minimum height is that of the rows the last width laid
// out took, one row before it was ever laid out. (Fyne's RowWrapLayout
// starts at one row per object, which, in a tab not yet shown, makes the
// window as tall as all its buttons stacked.)
type wrapRow struct {
	width float32
}

func (l *wrapRow) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var widest, rowH float32
	for _, o := range objs {
		if o.Visible() {
			m := o.MinSize()
			widest, rowH = max(widest, m.Width), max(rowH, m.Height)
		}
	}
	rows := float32(1)
	if l.width > 0 {
		rows = float32(l.place(objs, l.width, false))
	}
	return fyne.NewSize(widest, rows*rowH+(rows-1)*theme.Padding())
}

func (l *wrapRow) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	l.width = size.Width
	l.place(objs, size.Width, true)
}

// place lays the objects out in width (moving them when move is set) and
// returns the number of rows taken.
func (l *wrapRow) place(objs []fyne.CanvasObject, width float32, move bool) int {
	pad := theme.Padding()
	var rowH float32
	for _, o := range objs {
		if o.Visible() {
			rowH = max(rowH, o.MinSize().Height)
		}
	}
	rows, x, first := 1, float32(0), true
	for _, o := range objs {
		if !o.Visible() {
			continue
		}
		m := o.MinSize()
		if !first && x+m.Width > width {
			rows++
			x = 0
		}
		first = false
		if move {
			o.Resize(fyne.NewSize(m.Width, rowH))
			o.Move(fyne.NewPos(x, float32(rows-1)*(rowH+pad)))
		}
		x += m.Width + pad
	}
	return rows
}
