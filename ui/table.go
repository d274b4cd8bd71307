package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// column is one column of a grid: its title, width, and how its text lines up.
type column struct {
	Title string
	Width float32
	Align fyne.TextAlign
}

// grid is a widget.Table with a header row of titles and one line of text
// per cell. Its data lives with the screen; the grid asks for it cell by
// cell, so a million rows cost what the visible ones do.
type grid struct {
	*widget.Table
	cols []column
	// OnActivate, when set, runs when Enter is pressed on the table: the
	// focused row is selected first, as Space selects it, so Enter opens
	// what the keyboard is on.
	OnActivate func()
}

// TypedKey takes Enter (and the keypad's) for OnActivate; every other key
// goes to the table (arrows move, Space selects).
func (g *grid) TypedKey(ev *fyne.KeyEvent) {
	if (ev.Name == fyne.KeyReturn || ev.Name == fyne.KeyEnter) && g.OnActivate != nil {
		g.Table.TypedKey(&fyne.KeyEvent{Name: fyne.KeySpace})
		g.OnActivate()
		return
	}
	g.Table.TypedKey(ev)
}

// newGrid builds a grid over rows rows whose cell (row, col) text is given by
// cell. bold, when set, tells which cells to show in bold.
func newGrid(cols []column, rows func() int, cell func(row, col int) string, bold func(row, col int) bool) *grid {
	g := &grid{}
	g.Table = &widget.Table{
		Length: func() (int, int) { return rows(), len(g.cols) },
		CreateCell: func() fyne.CanvasObject {
			l := widget.NewLabel("")
			l.Truncation = fyne.TextTruncateEllipsis
			return l
		},
		UpdateCell: func(id widget.TableCellID, o fyne.CanvasObject) {
			l := o.(*widget.Label)
			l.Alignment = g.cols[id.Col].Align
			l.TextStyle.Bold = bold != nil && bold(id.Row, id.Col)
			l.SetText(cell(id.Row, id.Col))
		},
		ShowHeaderRow: true,
	}
	// The grid is the widget (its keys come here first), the table its
	// base.
	g.ExtendBaseWidget(g)
	g.CreateHeader = func() fyne.CanvasObject {
		l := widget.NewLabel("")
		l.TextStyle.Bold = true
		l.Truncation = fyne.TextTruncateEllipsis
		return l
	}
	g.UpdateHeader = func(id widget.TableCellID, o fyne.CanvasObject) {
		l := o.(*widget.Label)
		if id.Col >= 0 && id.Col < len(g.cols) {
			l.Alignment = g.cols[id.Col].Align
			l.SetText(g.cols[id.Col].Title)
		}
	}
	g.setColumns(cols)
	return g
}

// setColumns replaces the columns (a count with more rounds has more).
func (g *grid) setColumns(cols []column) {
	g.cols = cols
	for i, c := range cols {
		g.SetColumnWidth(i, c.Width)
	}
}
