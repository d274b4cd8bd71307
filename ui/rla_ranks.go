package ui

import (
	"fmt"
	"image/color"
	"strconv"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"votedesk/app"
	"votedesk/tally/report"
	"votedesk/ui/modal"
)

// noMark is the choice of a rank on which the paper has no mark (a skipped
// rank, or one after the last the voter used).
const noMark = "— no mark —"

// boardKeys is what Enter and Escape do in an audit board's entry: save the
// reading, and go back to the list of draws.
type boardKeys struct{ submit, escape func() }

// key runs submit for Enter typed into o, unless a dialog or pop-up is
// over the window (which then takes it), and escape for Escape when there
// is nothing over the window to close; it reports whether it used the key.
func (k *boardKeys) key(o fyne.CanvasObject, ev *fyne.KeyEvent) bool {
	switch ev.Name {
	case fyne.KeyReturn, fyne.KeyEnter:
		if c := fyne.CurrentApp().Driver().CanvasForObject(o); c != nil && c.Overlays().Top() != nil {
			return modal.PassOn(o, ev)
		}
		if k.submit != nil {
			k.submit()
			return true
		}
	case fyne.KeyEscape:
		if modal.EscapeFrom(o) {
			return true
		}
		if k.escape != nil {
			k.escape()
			return true
		}
	}
	return false
}

// rankSelect is a drop-down of the candidates for one rank that the
// keyboard fills fast: a candidate's number picks them (as the legend and
// the options number them), 0, minus, Backspace or Delete pick no mark,
// Left and Right step through the options, Enter saves the reading and
// Escape goes back to the draws.
type rankSelect struct {
	modal.Select
	keys *boardKeys
	// offset is the option index of candidate 1: 1 after noMark, else 0.
	offset int
	digits string
}

func newRankSelect(options []string, offset int, keys *boardKeys) *rankSelect {
	s := &rankSelect{keys: keys, offset: offset}
	s.Options = options
	s.ExtendBaseWidget(s)
	return s
}

// TypedRune picks a candidate by number, or no mark.
func (s *rankSelect) TypedRune(r rune) {
	switch {
	case r == '-' || r == '0' && s.digits == "":
		s.clear()
	case r >= '0' && r <= '9':
		n := len(s.Options) - s.offset
		s.digits += string(r)
		v, _ := strconv.Atoi(s.digits)
		if v < 1 || v > n {
			s.digits = string(r)
			v = int(r - '0')
		}
		if v >= 1 && v <= n {
			s.SetSelectedIndex(s.offset + v - 1)
		}
	}
}

// TypedKey saves on Enter, goes back on Escape, and clears on Backspace
// or Delete; other keys are the drop-down's.
func (s *rankSelect) TypedKey(ev *fyne.KeyEvent) {
	switch {
	case s.keys.key(s, ev):
	case ev.Name == fyne.KeyBackspace || ev.Name == fyne.KeyDelete:
		s.clear()
	default:
		s.Select.TypedKey(ev)
	}
}

// FocusGained starts a new number.
func (s *rankSelect) FocusGained() {
	s.digits = ""
	s.Select.FocusGained()
}

// clear picks no mark.
func (s *rankSelect) clear() {
	s.digits = ""
	if s.offset > 0 {
		s.SetSelectedIndex(0)
	} else {
		s.ClearSelected()
	}
}

// boardButton is a button of the audit board: Enter and Space press it,
// Escape goes back to the list of draws (unless a dialog is over the
// window, which then takes it).
type boardButton struct {
	modal.Button
	keys *boardKeys
}

func newBoardButton(label string, icon fyne.Resource, keys *boardKeys, tapped func()) *boardButton {
	b := &boardButton{keys: keys}
	b.Text, b.Icon, b.OnTapped = label, icon, tapped
	b.ExtendBaseWidget(b)
	return b
}

// TypedKey goes back on Escape; other keys are the button's.
func (b *boardButton) TypedKey(ev *fyne.KeyEvent) {
	if ev.Name == fyne.KeyEscape && b.keys.key(b, ev) {
		return
	}
	b.Button.TypedKey(ev)
}

// boardCheck is a check box of an audit board's entry: Space ticks it,
// Enter saves the reading, Escape goes back to the draws.
type boardCheck struct {
	modal.Check
	keys *boardKeys
}

func newBoardCheck(label string, keys *boardKeys, changed func(bool)) *boardCheck {
	c := &boardCheck{keys: keys}
	c.Text, c.OnChanged = label, changed
	c.ExtendBaseWidget(c)
	return c
}

// TypedKey saves on Enter and goes back on Escape; other keys are the
// check box's.
func (c *boardCheck) TypedKey(ev *fyne.KeyEvent) {
	if !c.keys.key(c, ev) {
		c.Check.TypedKey(ev)
	}
}

// RankEntry is how an audit board enters what a paper ballot shows, rank
// by rank: the candidate marked at each rank or no mark (a skipped rank),
// every other candidate marked at that rank where there are more (an
// overvote, kept whole as paper entry keeps "1/2/3", since the counting
// rules may read two marks and three differently), and "not found" when the
// paper is not where the manifest puts it. It starts empty every time, so
// nothing entered before leads the reader.
type RankEntry struct {
	Rows     []*RankRow
	NotFound *boardCheck
	names    []string
	keys     *boardKeys
	content  *fyne.Container
}

// RankRow is one rank of a RankEntry: the candidate marked, and whether
// more are marked too (More, then one drop-down in Others per further
// candidate; picking one in the last adds another, empty, below it).
type RankRow struct {
	Mark   *rankSelect
	More   *boardCheck
	Others []*rankSelect
	others *fyne.Container
	below  *fyne.Container // others, indented; hidden while empty
}

// candidateOption is a candidate as the entry offers them: "3 · Chen Wei".
func candidateOption(i int, name string) string { return fmt.Sprintf("%d · %s", i+1, name) }

// newRankEntry makes an empty entry for a ballot of the candidates names
// (in ballot order), one row per rank.
func newRankEntry(names []string, keys *boardKeys) *RankEntry {
	re := &RankEntry{names: names, keys: keys}
	rows := container.NewVBox()
	for rank := range names {
		row := &RankRow{Mark: newRankSelect(append([]string{noMark}, re.options()...), 1, keys), others: container.NewVBox()}
		row.Mark.SetSelectedIndex(0)
		row.More = newBoardCheck("More marks", keys, func(on bool) {
			row.Others = nil
			row.others.RemoveAll()
			row.below.Hide()
			if on {
				re.addOther(row)
				row.below.Show()
			}
		})
		label := widget.NewLabelWithStyle(report.Ordinal(rank+1)+" choice", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
		rows.Add(container.NewBorder(nil, nil, container.NewStack(minWidth(110), label), row.More, row.Mark))
		row.below = container.NewBorder(nil, nil, minWidth(110), nil, row.others)
		row.below.Hide()
		rows.Add(row.below)
		re.Rows = append(re.Rows, row)
	}
	re.NotFound = newBoardCheck("The ballot is not found where the manifest puts it", keys, func(on bool) {
		for _, r := range re.Rows {
			for _, w := range append([]*rankSelect{r.Mark}, r.Others...) {
				enable(w, !on)
			}
			enable(r.More, !on)
		}
	})
	re.content = container.NewVBox(rows, re.NotFound)
	return re
}

// options are the candidates as the drop-downs offer them.
func (re *RankEntry) options() []string {
	out := make([]string, len(re.names))
	for i, n := range re.names {
		out[i] = candidateOption(i, n)
	}
	return out
}

// addOther adds an empty drop-down for one more candidate marked at row's
// rank, unless every candidate already has one; picking a candidate in the
// last adds the next.
func (re *RankEntry) addOther(row *RankRow) {
	if len(row.Others)+1 >= len(re.names) {
		return
	}
	o := newRankSelect(re.options(), 0, re.keys)
	o.PlaceHolder = "another candidate marked at this rank"
	o.OnChanged = func(string) {
		if o.SelectedIndex() >= 0 && row.Others[len(row.Others)-1] == o {
			re.addOther(row)
		}
	}
	row.Others = append(row.Others, o)
	row.others.Add(container.NewBorder(nil, nil, widget.NewLabel("and"), nil, o))
}

// First is the control the keyboard starts in: the first rank.
func (re *RankEntry) First() fyne.Focusable { return re.Rows[0].Mark }

// Rankings reads the entry: the marks rank by rank, or not found. It
// refuses a rank ticked for more marks without another candidate, and a
// candidate chosen twice at one rank.
func (re *RankEntry) Rankings() ([]app.Ranking, bool, error) {
	if re.NotFound.Checked {
		return nil, true, nil
	}
	var out []app.Ranking
	for i, r := range re.Rows {
		first := r.Mark.SelectedIndex() - 1
		if first >= 0 {
			out = append(out, app.Ranking{Candidate: re.names[first], Rank: i + 1})
		}
		if !r.More.Checked {
			continue
		}
		picked := map[int]bool{first: true}
		more := 0
		for _, o := range r.Others {
			c := o.SelectedIndex()
			switch {
			case c < 0:
				continue
			case picked[c]:
				return nil, false, app.Errorf(app.CodeInvalid, "the %s choice names %s twice: choose each candidate marked there once", report.Ordinal(i+1), re.names[c])
			}
			picked[c] = true
			more++
			out = append(out, app.Ranking{Candidate: re.names[c], Rank: i + 1})
		}
		if first < 0 || more == 0 {
			return nil, false, app.Errorf(app.CodeInvalid, "the %s choice is ticked for more marks: choose every candidate marked there, or untick it", report.Ordinal(i+1))
		}
	}
	return out, false, nil
}

// readingColumn is one reading shown beside others: its title and its
// marks by rank (app.MarksByRank), or, when Missing is set, why it has none (a
// ballot not found, no cast vote record).
type readingColumn struct {
	Title   string
	Marks   []string
	Missing string
}

// readingTable lays readings out side by side for people to compare: a
// header row of titles, then one row per rank, the ranks on which the
// readings differ in bold and in the danger colour.
func readingTable(cols []readingColumn) *fyne.Container {
	ranks := 0
	for _, c := range cols {
		ranks = max(ranks, len(c.Marks))
	}
	grid := container.NewGridWithColumns(len(cols) + 1)
	grid.Add(widget.NewLabelWithStyle("Rank", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}))
	for _, c := range cols {
		grid.Add(widget.NewLabelWithStyle(c.Title, fyne.TextAlignLeading, fyne.TextStyle{Bold: true}))
	}
	if ranks == 0 {
		ranks = 1
	}
	cell := func(c readingColumn, rank int) string {
		switch {
		case c.Missing != "":
			if rank == 0 {
				return c.Missing
			}
			return ""
		case rank < len(c.Marks) && c.Marks[rank] != "":
			return c.Marks[rank]
		case rank == 0 && len(c.Marks) == 0:
			return "no mark at all (blank)"
		}
		return "—"
	}
	for rank := range ranks {
		texts := make([]string, len(cols))
		differ := false
		for i, c := range cols {
			texts[i] = cell(c, rank)
			differ = differ || i > 0 && texts[i] != texts[0]
		}
		grid.Add(widget.NewLabel(report.Ordinal(rank + 1)))
		for _, t := range texts {
			l := widget.NewLabel(t)
			l.Wrapping = fyne.TextWrapWord
			if differ {
				l.Importance = widget.DangerImportance
				l.TextStyle.Bold = true
			}
			grid.Add(l)
		}
	}
	bg := canvas.NewRectangle(color.Transparent)
	bg.StrokeColor = theme.Color(theme.ColorNameSeparator)
	bg.StrokeWidth = 1
	bg.CornerRadius = theme.InputRadiusSize()
	return container.NewStack(bg, container.NewPadded(grid))
}
