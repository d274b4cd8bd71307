package ui

import (
	"image/color"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"votedesk/ui/modal"
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
	// OnEscape, when set, runs when Escape is pressed on the table and no
	// dialog is over the window to close: where the screen's keyboard
	// goes back to.
	OnEscape func()
	// Importance, when set, colours a cell (a count's elected and
	// eliminated).
	Importance func(row, col int) widget.Importance

	cell func(row, col int) string
	bold func(row, col int) bool
	// focused is whether the grid has the focus (its ring shows).
	focused bool
	// fitted is whether fitColumns set each row's height.
	fitted bool
}

// TypedKey takes Enter (and the keypad's) for OnActivate and Escape for
// the dialog the grid is in, else for OnEscape; every other key goes to
// the table (arrows move, Space selects).
func (g *grid) TypedKey(ev *fyne.KeyEvent) {
	if ev.Name == fyne.KeyEscape && modal.EscapeFrom(g) {
		return
	}
	if ev.Name == fyne.KeyEscape && g.OnEscape != nil {
		g.OnEscape()
		return
	}
	if (ev.Name == fyne.KeyReturn || ev.Name == fyne.KeyEnter) && g.OnActivate != nil {
		g.Table.TypedKey(&fyne.KeyEvent{Name: fyne.KeySpace})
		g.OnActivate()
		return
	}
	if (ev.Name == fyne.KeyReturn || ev.Name == fyne.KeyEnter) && modal.PassOn(g, ev) {
		return
	}
	g.Table.TypedKey(ev)
}

// FocusGained shows the focus ring (the table marks its focused cell only
// faintly, and not at all over the selected one).
func (g *grid) FocusGained() {
	g.focused = true
	g.Table.FocusGained()
	g.Refresh()
}

// FocusLost hides the focus ring.
func (g *grid) FocusLost() {
	g.focused = false
	g.Table.FocusLost()
}

// CreateRenderer is the table's, with a ring around it while it has the
// focus, so a keyboard user sees where Tab went.
func (g *grid) CreateRenderer() fyne.WidgetRenderer {
	return newRingRenderer(g.Table.CreateRenderer(), func() bool { return g.focused })
}

// ringRenderer is a focusable widget's renderer with a ring drawn around
// the widget while focused says it has the focus: for the widgets whose own
// sign of focus does not show (a table marks its focused cell only
// faintly, and not at all over the selected one; a list does not mark its
// focused row over the selected one).
type ringRenderer struct {
	fyne.WidgetRenderer
	focused func() bool
	ring    *canvas.Rectangle
}

func newRingRenderer(r fyne.WidgetRenderer, focused func() bool) *ringRenderer {
	ring := canvas.NewRectangle(color.Transparent)
	ring.StrokeWidth = 2
	ring.StrokeColor = theme.Color(theme.ColorNamePrimary)
	ring.Hide()
	return &ringRenderer{WidgetRenderer: r, focused: focused, ring: ring}
}

func (r *ringRenderer) Objects() []fyne.CanvasObject {
	return append(r.WidgetRenderer.Objects(), r.ring)
}

func (r *ringRenderer) Layout(size fyne.Size) {
	r.WidgetRenderer.Layout(size)
	r.ring.Resize(size)
}

func (r *ringRenderer) Refresh() {
	r.WidgetRenderer.Refresh()
	r.ring.StrokeColor = theme.Color(theme.ColorNamePrimary)
	r.ring.Hidden = !r.focused()
	r.ring.Refresh()
}

// searchGoesTo makes Enter in search take the keyboard to the list under
// it, g as it sits in the window (list), with its first row selected, so
// that arrows, Enter or Space go on from there; with no row shown it does
// nothing. A keyboard user who had typed what to find otherwise went
// through the buttons between the two with Tab.
func searchGoesTo(search *modal.Entry, list fyne.Focusable, g *grid) {
	search.OnSubmitted = func(string) {
		if rows, _ := g.Length(); rows == 0 {
			return
		}
		g.Select(widget.TableCellID{Row: 0, Col: 0})
		if c := fyne.CurrentApp().Driver().CanvasForObject(search); c != nil {
			c.Focus(list)
		}
	}
}

// PassesKeys marks a grid as handing Escape and Enter on to its dialog.
func (g *grid) PassesKeys() {}

// openGrid is a grid whose rows open something: Enter, or a double click on
// a row, selects it and runs OnActivate. (Only such grids take double
// clicks: the driver holds a single click back for the double-click delay
// on any widget that takes them.)
type openGrid struct {
	*grid
}

// newOpenGrid is newGrid for a list whose rows open, with activate run on
// Enter or a double click.
func newOpenGrid(cols []column, rows func() int, cell func(row, col int) string, bold func(row, col int) bool, activate func()) *openGrid {
	g := &openGrid{makeGrid(cols, rows, cell, bold)}
	g.OnActivate = activate
	// The open grid is the widget: a click focuses it (the table focuses
	// the widget it was extended by), so Enter then opens the row.
	g.ExtendBaseWidget(g)
	return g
}

// DoubleTapped selects the cell under the pointer, as a click does, and
// opens it.
func (g *openGrid) DoubleTapped(e *fyne.PointEvent) {
	g.Table.Tapped(e)
	g.OnActivate()
}

// newGrid builds a grid over rows rows whose cell (row, col) text is given by
// cell. bold, when set, tells which cells to show in bold.
func newGrid(cols []column, rows func() int, cell func(row, col int) string, bold func(row, col int) bool) *grid {
	g := makeGrid(cols, rows, cell, bold)
	// The grid is the widget (its keys come here first), the table its
	// base.
	g.ExtendBaseWidget(g)
	return g
}

// makeGrid is newGrid for a widget that embeds the grid, which extends the
// base widget itself.
func makeGrid(cols []column, rows func() int, cell func(row, col int) string, bold func(row, col int) bool) *grid {
	g := &grid{cell: cell, bold: bold}
	g.Table = &widget.Table{
		Length: func() (int, int) { return rows(), len(g.cols) },
		CreateCell: func() fyne.CanvasObject {
			l := widget.NewLabel("")
			l.Truncation = fyne.TextTruncateEllipsis
			return l
		},
		UpdateCell: func(id widget.TableCellID, o fyne.CanvasObject) {
			l := o.(*widget.Label)
			align := g.cols[id.Col].Align
			isBold := bold != nil && bold(id.Row, id.Col)
			imp := widget.MediumImportance
			if g.Importance != nil {
				imp = g.Importance(id.Row, id.Col)
			}
			text := cell(id.Row, id.Col)
			if l.Text == text && l.Alignment == align && l.TextStyle.Bold == isBold && l.Importance == imp {
				// The table refreshes every visible cell whenever it
				// is refreshed; laying out a label's text again (which
				// truncation measures glyph by glyph) is what costs.
				return
			}
			l.Alignment, l.TextStyle.Bold, l.Importance = align, isBold, imp
			if l.Text != text {
				l.SetText(text)
			} else {
				l.Refresh()
			}
		},
		ShowHeaderRow: true,
	}
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

// scrollToRow scrolls the grid to row, in its first column, as
// Table.ScrollTo does, but places the row as the table draws it: the
// table finds the rows to draw by multiplying their height, and ScrollTo
// adds the heights up row by row in float32, which drifts by about one
// row in a hundred at 777,777 rows (a ballot found there was shown 7,469
// rows from where it is). Rows of a grid are all one height (a cell's or
// a header's, and the theme's padding), unless fitColumns set each; then
// (a few hundred rows) ScrollTo places them. ScrollTo is not called first
// for the first column's offset, which is 0: its sum walks every row up
// to this one on the UI goroutine.
func (g *grid) scrollToRow(row int) {
	if g.fitted {
		g.ScrollTo(widget.TableCellID{Row: row, Col: 0})
		return
	}
	h := max(g.CreateCell().MinSize().Height, g.CreateHeader().MinSize().Height) + theme.Padding()
	g.ScrollToOffset(fyne.NewPos(0, float32(row)*h))
}

// setColumns replaces the columns (a count with more rounds has more).
func (g *grid) setColumns(cols []column) {
	g.cols = cols
	for i, c := range cols {
		g.SetColumnWidth(i, c.Width)
	}
}

// fitColumns sizes each column to its title and the widest line of its
// cells, between its given width and maxWidth, and each row to its tallest
// cell (a cell may hold several lines). It reads every cell, so it is for
// tables of a few hundred rows, like a count's rounds; longer text than
// maxWidth is cut with an ellipsis and shown whole where the screen offers
// it (the rounds' detail line).
func (g *grid) fitColumns(cols []column, maxWidth float32) {
	rows, _ := g.Length()
	size := theme.TextSize()
	pad := 2*theme.InnerPadding() + 2
	lineH := fyne.MeasureText("Mg", size, fyne.TextStyle{}).Height
	for c := range cols {
		w := fyne.MeasureText(cols[c].Title, size, fyne.TextStyle{Bold: true}).Width
		for r := range rows {
			style := fyne.TextStyle{Bold: g.bold != nil && g.bold(r, c)}
			for line := range strings.SplitSeq(g.cell(r, c), "\n") {
				w = max(w, fyne.MeasureText(line, size, style).Width)
			}
		}
		cols[c].Width = min(max(cols[c].Width, w+pad), maxWidth)
	}
	g.setColumns(cols)
	for r := range rows {
		lines := 1
		for c := range cols {
			lines = max(lines, strings.Count(g.cell(r, c), "\n")+1)
		}
		g.SetRowHeight(r, float32(lines)*lineH+2*theme.InnerPadding())
	}
	g.fitted = true
}
