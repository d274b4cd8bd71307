package ui

import (
	"fmt"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"votedesk/app"
	"votedesk/tally/rla"
	"votedesk/ui/modal"
	"votedesk/ui/offui"
)

// AuditBoard is where an audit board of two officials reads the sampled
// paper ballots: the list of draws (where each ballot is and how far its
// reading is) and, for the draw chosen, its reading by double entry. The
// first member enters the paper's marks rank by rank and saves pass 1; the
// second enters them again without seeing pass 1 and saves pass 2. When the
// passes agree the ballot is read, and only then is its cast vote record
// shown beside the reading, any discrepancy highlighted; when they differ,
// both are shown and the board settles the reading. Nothing derived from
// the record is shown before the reading is agreed: the service withholds
// it, and the screen shows only where the ballot is and how far its
// reading is.
//
// Keys: arrows and Enter on the list open a draw, Escape there goes back
// to the overview; in the entry, a digit picks a candidate by number, Tab
// moves on, Enter saves the pass, and Escape (from the entry or any of the
// board's buttons) goes back to the list.
type AuditBoard struct {
	sc *RiskAuditScreen
	st *app.AuditState
	// sel is the draw shown (an index into st.Draws), -1 for none; pass the
	// pass Save records (1, 2, or 0 to settle).
	sel  int
	pass int
	keys boardKeys
	// shown identifies the draw the panel shows, as it was (drawKey).
	shown string

	Draws *openGrid
	// Where says which draw is shown and where its paper ballot is; Step
	// what the board does now.
	Where *widget.Label
	Step  *widget.Label
	// Message says why a pass could not be saved.
	Message *widget.Label
	// Entry is the marks being entered; Save saves them as the pass.
	Entry *RankEntry
	Save  *boardButton
	// TakeFirst and TakeSecond settle a difference with one of the passes.
	TakeFirst, TakeSecond *boardButton
	// Next goes to the next draw not yet read; Back to the list.
	Next, Back *boardButton
	// Readings shows readings side by side: the two passes to settle, or
	// the agreed reading beside the cast vote record.
	Readings *fyne.Container
	// Findings says what the comparison found.
	Findings *widget.Label
	panel    *fyne.Container
	content  fyne.CanvasObject
}

// chooseDraw is what the board's panel says with no draw chosen.
const chooseDraw = "Choose a draw in the list (arrows, then Enter) to read its paper ballot. Escape on the list goes back to the overview."

func newAuditBoard(sc *RiskAuditScreen) *AuditBoard {
	b := &AuditBoard{sc: sc, sel: -1, Where: title(""), Step: widget.NewLabel(""), Message: widget.NewLabel(""),
		Findings: widget.NewLabel(""), panel: container.NewVBox()}
	b.keys = boardKeys{submit: b.submit, escape: b.backToList}
	b.Where.Wrapping = fyne.TextWrapWord
	b.Step.Wrapping = fyne.TextWrapWord
	b.Message.Wrapping = fyne.TextWrapWord
	b.Message.Importance = widget.DangerImportance
	b.Findings.Wrapping = fyne.TextWrapWord
	b.Draws = newOpenGrid([]column{
		{Title: "Draw", Width: 60, Align: fyne.TextAlignTrailing}, {Title: "Reading", Width: 170},
		{Title: "Container", Width: 110}, {Title: "Tabulator", Width: 90}, {Title: "Batch", Width: 100},
		{Title: "Ballot", Width: 70, Align: fyne.TextAlignTrailing}},
		b.rows, b.cell, nil, b.focusPanel)
	b.Draws.Importance = func(row, col int) widget.Importance {
		if col != 1 {
			return widget.MediumImportance
		}
		switch b.st.Draws[row].State {
		case app.ReadAgreed, app.ReadSettled:
			return widget.SuccessImportance
		case app.ReadDiffer:
			return widget.DangerImportance
		}
		return widget.MediumImportance
	}
	b.Draws.OnSelected = func(id widget.TableCellID) {
		if id.Row != b.sel {
			b.showDraw(id.Row)
		}
	}
	b.Draws.OnEscape = sc.focusOverview
	b.Save = newBoardButton("Save", theme.DocumentSaveIcon(), &b.keys, b.submit)
	b.Save.Importance = widget.HighImportance
	b.TakeFirst = newBoardButton("Pass 1 is right", theme.ConfirmIcon(), &b.keys, func() { b.settleWith(0) })
	b.TakeSecond = newBoardButton("Pass 2 is right", theme.ConfirmIcon(), &b.keys, func() { b.settleWith(1) })
	b.Next = newBoardButton("Next draw to read", theme.NavigateNextIcon(), &b.keys, b.NextUnread)
	b.Next.Importance = widget.HighImportance
	b.Back = newBoardButton("All draws", theme.ListIcon(), &b.keys, b.backToList)
	b.reset(chooseDraw)
	split := container.NewHSplit(b.Draws, container.NewVScroll(container.NewPadded(b.panel)))
	split.SetOffset(0.42)
	b.content = split
	return b
}

func (b *AuditBoard) rows() int {
	if b.st == nil {
		return 0
	}
	return len(b.st.Draws)
}

// firstDraw is the number of the draw that first drew the ballot of draw
// i (a repeat is read there).
func (b *AuditBoard) firstDraw(i int) int {
	idx := b.st.Draws[i].Draw.Index
	for j, d := range b.st.Draws[:i] {
		if d.Draw.Index == idx {
			return j + 1
		}
	}
	return i + 1
}

func (b *AuditBoard) cell(row, col int) string {
	d := b.st.Draws[row]
	switch col {
	case 0:
		return fmtCount(row + 1)
	case 2:
		return orDash(d.Batch.Container)
	case 3:
		return orDash(d.Batch.Tabulator)
	case 4:
		return d.Batch.Name
	case 5:
		return fmtCount(d.Draw.Position)
	}
	if d.Repeat {
		return fmt.Sprintf("as draw %d", b.firstDraw(row))
	}
	return readStateWords(d)
}

// readStateWords says how far a draw's reading is.
func readStateWords(d app.AuditDraw) string {
	switch d.State {
	case app.ReadOnce:
		return "pass 1 of 2 saved"
	case app.ReadDiffer:
		return "passes differ: settle"
	case app.ReadAgreed:
		return "read (passes agree)"
	case app.ReadSettled:
		return "read (settled)"
	}
	return "not read"
}

// show shows an audit's draws, and the draw shown before if there is one.
func (b *AuditBoard) show(st *app.AuditState) {
	b.st = st
	b.Draws.Refresh()
	if b.sel >= len(st.Draws) {
		b.sel = -1
	}
	if b.sel >= 0 && b.shown != drawKey(st, b.sel) {
		b.showDraw(b.sel)
	}
}

// drawKey identifies what the panel shows for draw i: a reload that finds
// the draw as it was keeps what is being entered.
func drawKey(st *app.AuditState, i int) string {
	return fmt.Sprintf("%s/%d/%s", st.Audit.ID, i, st.Draws[i].State)
}

// OpenDraw shows draw i (0-based) and puts the keyboard in its entry.
func (b *AuditBoard) OpenDraw(i int) {
	b.Draws.Select(widget.TableCellID{Row: i}) // shows it, unless it was selected
	if b.sel != i {
		b.showDraw(i)
	}
	b.focusPanel()
}

// focusPanel puts the keyboard where the draw shown needs it (Enter or a
// double click on the list opens the draw selected): the first rank of an
// entry, else the next draw.
func (b *AuditBoard) focusPanel() {
	c := b.sc.s.win.Canvas()
	switch {
	case b.sel < 0:
	case b.Entry != nil && b.Save.Visible():
		c.Focus(b.Entry.First())
	case b.Next.Visible():
		c.Focus(b.Next)
	}
}

// backToList puts the keyboard back on the list of draws.
func (b *AuditBoard) backToList() {
	b.sc.s.win.Canvas().Focus(b.Draws)
}

// NextUnread shows the first draw whose ballot is not read yet.
func (b *AuditBoard) NextUnread() {
	if b.st == nil {
		return
	}
	for i, d := range b.st.Draws {
		if d.Reading == nil && !d.Repeat {
			b.OpenDraw(i)
			return
		}
	}
	b.reset("Every draw of this round is read. The overview says what the audit found and what comes next.")
	b.sc.ShowView(rlaOverview)
}

// reset shows no draw, with a note.
func (b *AuditBoard) reset(note string) {
	b.sel, b.shown, b.Entry, b.Readings = -1, "", nil, nil
	b.Draws.UnselectAll()
	b.Step.SetText(note)
	b.panel.Objects = []fyne.CanvasObject{b.Step}
	b.panel.Refresh()
}

// showDraw shows draw i: where its ballot is, and its reading as far as it
// has got.
func (b *AuditBoard) showDraw(i int) {
	b.sel = i
	b.shown = drawKey(b.st, i)
	d := b.st.Draws[i]
	au := b.st.Audit
	b.Where.SetText(fmt.Sprintf("Draw %d of %d: ballot %s of batch %s", i+1, len(b.st.Draws), fmtCount(d.Draw.Position), d.Batch.Name))
	where := []string{"batch " + d.Batch.Name}
	if d.Batch.Tabulator != "" {
		where = append([]string{"tabulator " + d.Batch.Tabulator}, where...)
	}
	if d.Batch.Container != "" {
		where = append([]string{"container " + d.Batch.Container}, where...)
	}
	place := widget.NewLabel(fmt.Sprintf("Find it in %s: it is ballot %s of the %s in the batch, counted from the top.",
		strings.Join(where, ", "), fmtCount(d.Draw.Position), plural(d.Batch.Ballots, "ballot", "ballots")))
	place.Wrapping = fyne.TextWrapWord
	b.Message.Hide()
	b.Entry, b.Readings = nil, nil
	objs := []fyne.CanvasObject{b.Where, place, widget.NewSeparator(), b.Step}
	mayRead := app.MayReadAuditBallots(b.sc.s.user)
	entry := func(pass int, save string) {
		b.pass = pass
		b.Entry = newRankEntry(au.Candidates, &b.keys)
		b.Save.SetText(save)
		b.Save.Show()
		objs = append(objs, b.Entry.content, b.Message, container.NewHBox(b.Back, b.Save))
	}
	b.Save.Hide()
	switch {
	case d.Repeat:
		b.Step.SetText(fmt.Sprintf("This ballot was drawn before, at draw %d: it is read there once and counts again here.", b.firstDraw(i)))
		objs = append(objs, container.NewHBox(b.Back, b.Next))
	case d.Reading != nil:
		b.Step.SetText(readStep(d))
		objs = append(objs, b.comparison(d)...)
		objs = append(objs, container.NewHBox(b.Back, b.Next))
	case !mayRead:
		b.Step.SetText("Not read yet. Reading ballots for the audit is for those who run elections (USE_APPLICATION).")
	case d.State == app.ReadDiffer:
		p1, p2 := d.Passes[0], d.Passes[1]
		b.Step.SetText("The two passes differ. Look at the paper ballot together, then take the pass that is right, " +
			"or enter the right reading below and save it as settled.")
		b.Readings = readingTable([]readingColumn{passColumn("Pass 1", p1), passColumn("Pass 2", p2)})
		objs = append(objs, b.Readings, container.NewHBox(b.TakeFirst, b.TakeSecond), widget.NewSeparator(),
			boldLabel("Or enter the right reading:"))
		entry(0, "Save as settled")
	case d.Passes[0] != nil || d.Passes[1] != nil:
		pass, done := 2, d.Passes[0]
		if done == nil {
			pass, done = 1, d.Passes[1]
		}
		step := fmt.Sprintf("Pass %d of 2: the other board member reads the same paper ballot on their own and enters its marks, rank by rank. "+
			"Pass %d was saved by %s at %s; it stays hidden until this pass is saved.", pass, 3-pass, done.By, fmtTime(done.When))
		if done.By == b.sc.s.actor() {
			step += " (You saved it: hand the keyboard to the other member.)"
		}
		b.Step.SetText(step)
		entry(pass, fmt.Sprintf("Save pass %d", pass))
	default:
		b.Step.SetText("Pass 1 of 2: one board member reads the paper ballot and enters its marks, rank by rank " +
			"(a digit picks a candidate by number; Tab moves on; Enter saves). The other then enters them again without seeing these.")
		entry(1, "Save pass 1")
	}
	b.panel.Objects = objs
	b.panel.Refresh()
}

// readStep says how a ballot came to be read.
func readStep(d app.AuditDraw) string {
	if d.State == app.ReadSettled {
		return fmt.Sprintf("Read: the passes differed, and %s settled the reading. The cast vote record is shown beside it.", d.Settled.By)
	}
	return "Read: both passes agree. The cast vote record is shown beside the paper."
}

// passColumn is a pass's reading as a column.
func passColumn(title string, r *app.AuditReading) readingColumn {
	c := readingColumn{Title: fmt.Sprintf("%s (by %s)", title, r.By), Marks: app.MarksByRank(r.Rankings, " and ")}
	if r.NotFound {
		c.Missing = "ballot not found"
	}
	return c
}

// comparison shows a read ballot's paper beside its cast vote record, and
// what the difference means for each assertion.
func (b *AuditBoard) comparison(d app.AuditDraw) []fyne.CanvasObject {
	paper := readingColumn{Title: "Paper (the board's reading)", Marks: app.MarksByRank(d.Reading.Rankings, " and ")}
	if d.Reading.NotFound {
		paper.Missing = "ballot not found"
	}
	record := readingColumn{Title: "Cast vote record", Marks: app.MarksByRank(d.CVR, " and ")}
	if d.RecordID != "" {
		record.Title += " (id " + d.RecordID + ")"
	}
	if d.Phantom {
		record.Missing = "no record (a phantom ballot)"
	}
	b.Readings = readingTable([]readingColumn{paper, record})
	b.Findings.SetText(findings(b.st, d))
	b.Findings.Importance = findingsImportance(d)
	b.Findings.Refresh()
	return []fyne.CanvasObject{b.Readings, b.Findings}
}

// findingsImportance is how the findings of a read ballot are coloured:
// danger for evidence against the reported outcome (an overstatement, a
// ballot not found, a phantom), warning for a difference that does not
// weaken it (an understatement, or marks no assertion counts), success
// when the paper matches its record.
func findingsImportance(d app.AuditDraw) widget.Importance {
	imp := widget.SuccessImportance
	if !d.Phantom && !slices.Equal(d.Reading.Rankings, d.CVR) {
		imp = widget.WarningImportance
	}
	for _, o := range d.Overstatements {
		if o > 0 {
			return widget.DangerImportance
		}
		if o < 0 {
			imp = widget.WarningImportance
		}
	}
	if d.Reading.NotFound || d.Phantom {
		return widget.DangerImportance
	}
	return imp
}

// findings says in words what a read ballot means for the audit.
func findings(st *app.AuditState, d app.AuditDraw) string {
	au := st.Audit
	var out []string
	switch {
	case d.Reading.NotFound:
		out = append(out, "The paper ballot was not found: it counts as the worst case, a vote for every assertion's loser.")
	case d.Phantom:
		out = append(out, "The manifest counts this ballot but there is no cast vote record for it: it counts at its worst.")
	}
	if au.Kind != rla.Comparison {
		return strings.Join(append(out, "A polling audit counts the paper alone; the record is shown for reference."), " ")
	}
	// One sentence per kind of discrepancy, naming the assertions it
	// touches.
	type kind struct {
		verb, votes string
	}
	var kinds []kind
	touched := map[kind][]string{}
	for i, o := range d.Overstatements {
		if o == 0 || i >= len(au.Assertions) {
			continue
		}
		k := kind{"overstates", "one vote"}
		if o < 0 {
			k.verb = "understates"
		}
		if o == 1 || o == -1 {
			k.votes = "two votes"
		}
		if touched[k] == nil {
			kinds = append(kinds, k)
		}
		touched[k] = append(touched[k], "“"+assertionWords(au.Assertions[i], au.Candidates)+"”")
	}
	for _, k := range kinds {
		if as := touched[k]; len(as) == 1 {
			out = append(out, fmt.Sprintf("The record %s the margin of %s by %s.", k.verb, as[0], k.votes))
		} else {
			out = append(out, fmt.Sprintf("The record %s by %s each the margins of %d assertions: %s.", k.verb, k.votes, len(as), strings.Join(as, "; ")))
		}
	}
	switch {
	case len(out) > 0:
		return strings.Join(out, " ")
	case !d.Phantom && !slices.Equal(d.Reading.Rankings, d.CVR):
		return "The paper differs from its record where highlighted, but not in a way any assertion counts: no discrepancy."
	}
	return "No discrepancy: the paper matches its record."
}

// submit saves what the entry holds as the pass shown; a ballot with no
// mark at all is saved only once the board says it is blank.
func (b *AuditBoard) submit() {
	if b.Entry == nil || !b.Save.Visible() || b.Save.Disabled() {
		return
	}
	r, notFound, err := b.Entry.Rankings()
	if err != nil {
		b.Message.SetText(app.ErrorMessage(err))
		b.Message.Show()
		return
	}
	if len(r) == 0 && !notFound {
		modal.ShowConfirm("A blank ballot?", "No mark is entered on any rank. Save the ballot as blank (no mark at all)?", func(ok bool) {
			if ok {
				b.record(b.pass, r, false)
			}
		}, b.sc.s.win)
		return
	}
	b.record(b.pass, r, notFound)
}

// settleWith settles a difference with pass p's reading (0 or 1).
func (b *AuditBoard) settleWith(p int) {
	d := b.st.Draws[b.sel]
	if r := d.Passes[p]; d.State == app.ReadDiffer && r != nil {
		b.record(0, r.Rankings, r.NotFound)
	}
}

// record saves a reading of the draw shown off the UI goroutine, then
// shows the draw as it now stands; a refusal is shown as the app shows
// one, and leaves the entry as it was, to correct.
func (b *AuditBoard) record(pass int, r []app.Ranking, notFound bool) {
	s, st, sel := b.sc.s, b.st, b.sel
	ballot := st.Draws[sel].Draw.Index
	b.Save.Disable()
	offui.Run(s.tasks, func() (struct{}, error) {
		return struct{}{}, s.svc.RecordAuditReading(s.ctx(), s.actor(), b.sc.name, st.Audit.ID, ballot, pass, r, notFound)
	}, func(_ struct{}, err error) {
		b.Save.Enable()
		if err != nil {
			s.fail("Cannot save the reading", err)
			return
		}
		b.sc.load(b.focusPanel)
	})
}
