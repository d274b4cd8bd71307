package kiosk

import (
	"context"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"votedesk/app"
)

// paperStep is where a paper batch is.
type paperStep int

const (
	keyingFirst  paperStep = iota // single entry, or the first pass of a double entry
	keyingSecond                  // the second operator re-keys the batch
	adjudicating                  // an official settles the ballots the passes disagree on
	readyToSave                   // the batch is settled; F9 records it
)

// paperScreen is paper ballot entry for officials, by keyboard alone: each
// ballot is a line of candidate numbers and Enter. In single entry every
// ballot is recorded at Enter. In double entry a first operator keys a
// batch, a second operator keys it again without seeing the first pass,
// the ballots on which they differ are shown one by one to be settled (take
// the first, take the second, or key it again), and then the batch is
// recorded. Every recorded ballot gets its own confirmation code and is
// marked as transcribed. Keys: Enter adds a ballot, F8 undoes the last one,
// F9 finishes the pass or records the batch, F6 switches between single and
// double entry, F1/F2 take the first/second entry, Escape goes back.
type paperScreen struct {
	k      *Kiosk
	double bool
	step   paperStep

	pass1, pass2 []keyed
	mismatches   []mismatch
	at           int     // the mismatch being settled
	settled      []keyed // the batch once settled, in place order
	skip         []bool  // settled places with no ballot (both passes agree there is none)

	rows    []string // what the list shows
	saving  bool
	leaving bool

	input                    *entry
	stepText, msg            *widget.Label
	list                     *widget.List
	mode, undo, finish, back *button
	useFirst, useSecond      *button
	settleBox                *fyne.Container
	obj                      fyne.CanvasObject
	candidates               []app.Candidate
	recorded                 int
}

func newPaperScreen(k *Kiosk) *paperScreen {
	p := &paperScreen{k: k, candidates: k.candidates, stepText: label(""), msg: message(widget.MediumImportance)}
	p.stepText.TextStyle.Bold = true
	p.input = newEntry("Candidate numbers, e.g. 3 1 4", func(string) { p.enter() })
	p.input.keys = map[fyne.KeyName]func(){
		fyne.KeyF1: func() { p.settleWith(1) }, fyne.KeyF2: func() { p.settleWith(2) },
		fyne.KeyF6: p.toggleMode, fyne.KeyF8: p.undoLast, fyne.KeyF9: p.finishStep, fyne.KeyEscape: p.leave,
	}
	p.list = widget.NewList(func() int { return len(p.rows) },
		func() fyne.CanvasObject {
			return widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Monospace: true})
		},
		func(i widget.ListItemID, o fyne.CanvasObject) { o.(*widget.Label).SetText(p.rows[i]) })
	p.mode = newButton(k, "", theme.ContentCopyIcon(), p.toggleMode)
	p.undo = newButton(k, "Undo last (F8)", theme.ContentUndoIcon(), p.undoLast)
	p.finish = newButton(k, "", theme.ConfirmIcon(), p.finishStep)
	p.finish.Importance = widget.HighImportance
	p.back = newButton(k, "Back to menu (Esc)", theme.NavigateBackIcon(), p.leave)
	p.useFirst = newButton(k, "First entry is right (F1)", nil, func() { p.settleWith(1) })
	p.useSecond = newButton(k, "Second entry is right (F2)", nil, func() { p.settleWith(2) })
	p.settleBox = container.NewHBox(p.useFirst, p.useSecond)

	var legend []string
	for i, c := range k.candidates {
		legend = append(legend, fmt.Sprintf("%d %s", i+1, c.Name))
	}
	help := label("Candidates: " + strings.Join(legend, " · ") + ".   " +
		"Type the numbers in order of preference and press Enter: 3 1 4 (or 314 with up to 9 candidates); " +
		"3 1/2 4 for two marks at one rank, 3 - 4 for a skipped rank, 0 for a blank ballot.")
	top := container.NewVBox(help, p.stepText, p.settleBox, p.input, p.msg)
	bottom := container.NewVBox(widget.NewSeparator(), container.NewHBox(p.back, layout.NewSpacer(), p.mode, p.undo, p.finish))
	p.obj = container.NewPadded(container.NewBorder(container.NewVBox(heading("Paper ballot entry"), top), bottom, nil, nil, p.list))
	p.update()
	return p
}

func (p *paperScreen) view() fyne.CanvasObject { return p.obj }
func (p *paperScreen) first() fyne.Focusable   { return p.input }
func (p *paperScreen) voterFacing() bool       { return false }
func (p *paperScreen) typedRune(rune)          {}

// typedKey takes the F-keys when the focus is on a button.
func (p *paperScreen) typedKey(ev *fyne.KeyEvent) {
	if f := p.input.keys[ev.Name]; f != nil {
		f()
	}
}

// update shows the step.
func (p *paperScreen) update() {
	p.mode.SetText(map[bool]string{false: "Double entry: off (F6)", true: "Double entry: on (F6)"}[p.double])
	setEnabled(p.mode, !p.inProgress())
	p.settleBox.Hide()
	p.finish.Show()
	p.undo.Show()
	switch {
	case !p.double:
		p.stepText.SetText("Single entry: each ballot is recorded when you press Enter; the list shows its id.")
		p.finish.Hide()
		p.undo.Hide()
	case p.step == keyingFirst:
		p.stepText.SetText(fmt.Sprintf("Double entry, first pass: %d ballots keyed. Press F9 when the batch is keyed.", len(p.pass1)))
		p.finish.SetText("Finish first pass (F9)")
	case p.step == keyingSecond:
		p.stepText.SetText(fmt.Sprintf("Double entry, second pass: key the same %d ballots again, in the same order. %d keyed. Press F9 when done.",
			len(p.pass1), len(p.pass2)))
		p.finish.SetText("Compare (F9)")
	case p.step == adjudicating:
		m := p.mismatches[p.at]
		p.stepText.SetText(fmt.Sprintf("Ballot %d: the passes differ (%d of %d to settle).\nFirst entry:  %s\nSecond entry: %s\n"+
			"Check the paper ballot: take the entry that is right, or key the ballot again and press Enter.",
			m.place+1, p.at+1, len(p.mismatches), p.describe(m.first), p.describe(m.second)))
		p.settleBox.Show()
		setEnabled(p.useFirst, true)
		setEnabled(p.useSecond, true)
		p.finish.Hide()
	case p.step == readyToSave:
		p.stepText.SetText(fmt.Sprintf("The batch is settled: %d ballots to record. Press F9 to record them.", p.countSettled()))
		p.finish.SetText("Record batch (F9)")
	}
	setEnabled(p.undo, p.canUndo())
	setEnabled(p.finish, !p.saving)
	p.list.Refresh()
	if len(p.rows) > 0 {
		p.list.ScrollToBottom()
	}
}

// row is one line of the list: the ballot's number, its id once recorded
// (or what is happening to it), and what was keyed.
func (p *paperScreen) row(n int, status string, k *keyed) string {
	if k == nil {
		return fmt.Sprintf("%3d.  %-36s", n, status)
	}
	return fmt.Sprintf("%3d.  %-36s  %-10s  %s", n, status, k.String(), k.words(p.candidates))
}

func (p *paperScreen) describe(k *keyed) string {
	if k == nil {
		return "(no ballot)"
	}
	return k.String() + "   (" + k.words(p.candidates) + ")"
}

// inProgress reports whether a double-entry batch holds unrecorded ballots.
func (p *paperScreen) inProgress() bool {
	return p.double && (len(p.pass1) > 0 || len(p.pass2) > 0 || p.step != keyingFirst)
}

func (p *paperScreen) canUndo() bool {
	switch {
	case !p.double:
		return false
	case p.step == keyingFirst:
		return len(p.pass1) > 0
	case p.step == keyingSecond:
		return len(p.pass2) > 0
	}
	return false
}

// enter takes the keyed line.
func (p *paperScreen) enter() {
	line := p.input.Text
	k, err := parseKeyed(line, len(p.candidates))
	if err != nil {
		p.say(widget.DangerImportance, sentence(err.Error()))
		return
	}
	p.leaving = false
	p.input.SetText("")
	switch {
	case !p.double:
		p.recordOne(k)
	case p.step == keyingFirst:
		p.pass1 = append(p.pass1, k)
		p.rows = append(p.rows, p.row(len(p.pass1), "keyed", &k))
		p.say(widget.MediumImportance, "")
	case p.step == keyingSecond:
		p.pass2 = append(p.pass2, k)
		p.rows = append(p.rows, p.row(len(p.pass2), "keyed", &k))
		p.say(widget.MediumImportance, "")
	case p.step == adjudicating:
		p.settle(&k)
	default:
		p.say(widget.DangerImportance, "The batch is settled. Press F9 to record it, or Escape to discard it.")
		p.input.SetText(line)
	}
	p.update()
}

// recordOne records one ballot of single entry off the UI goroutine.
func (p *paperScreen) recordOne(k keyed) {
	p.rows = append(p.rows, p.row(len(p.rows)+1, "saving…", &k))
	row := len(p.rows) - 1
	p.cast([]keyed{k}, func(codes []string, err error) {
		if err != nil {
			p.rows[row] = p.row(row+1, "NOT RECORDED", &k)
			p.say(widget.DangerImportance, fmt.Sprintf("Ballot %d was not recorded: %s", row+1, sentence(app.ErrorMessage(err))))
		} else {
			p.rows[row] = p.row(row+1, codes[0], &k)
		}
		p.update()
	})
}

// cast records ballots in order, off the UI goroutine, stopping at the
// first refusal; done gets the codes of those recorded.
func (p *paperScreen) cast(ballots []keyed, done func(codes []string, err error)) {
	k := p.k
	rankings := make([][]app.Ranking, len(ballots))
	for i, b := range ballots {
		rankings[i] = b.rankings(p.candidates)
	}
	e := k.election
	k.run.Go(func() func() {
		var codes []string
		var err error
		now := e
		for _, r := range rankings {
			var rc app.Receipt
			now, err = k.forElection(now, func(ctx context.Context, election string) (err error) {
				rc, err = k.cfg.Service.CastBallot(ctx, k.cfg.Official, app.Cast{Election: election, Rankings: r,
					Source: app.SourcePaper, Transcribed: true})
				return err
			})
			if err != nil {
				break
			}
			codes = append(codes, rc.Confirmation)
		}
		return func() {
			// An election deleted meanwhile, or an official who may no
			// longer cast, stops voting here from the next voter on; the
			// official sees why on this screen.
			k.followed(e, now, err)
			k.casts += len(codes)
			k.refreshPending()
			done(codes, err)
		}
	})
}

// undoLast drops the last ballot of the current pass.
func (p *paperScreen) undoLast() {
	if !p.canUndo() {
		return
	}
	if p.step == keyingFirst {
		p.pass1 = p.pass1[:len(p.pass1)-1]
	} else {
		p.pass2 = p.pass2[:len(p.pass2)-1]
	}
	p.rows = p.rows[:len(p.rows)-1]
	p.say(widget.MediumImportance, "The last ballot keyed is removed.")
	p.update()
}

// finishStep is F9: end a pass, or record the settled batch.
func (p *paperScreen) finishStep() {
	if !p.double || p.saving {
		return
	}
	switch p.step {
	case keyingFirst:
		if len(p.pass1) == 0 {
			p.say(widget.DangerImportance, "Key at least one ballot first.")
			return
		}
		p.step, p.rows = keyingSecond, nil
		p.say(widget.MediumImportance, "First pass done. Second operator: key the same ballots again.")
	case keyingSecond:
		p.compare()
	case readyToSave:
		p.save()
		return
	default:
		return
	}
	p.update()
	p.k.win.Canvas().Focus(p.input)
}

// compare settles the places where both passes agree and starts on the
// others.
func (p *paperScreen) compare() {
	n := max(len(p.pass1), len(p.pass2))
	p.settled, p.skip = make([]keyed, n), make([]bool, n)
	for i := range min(len(p.pass1), len(p.pass2)) {
		p.settled[i] = p.pass1[i]
	}
	p.mismatches, p.at = compareBatches(p.pass1, p.pass2), 0
	p.rows = nil
	if len(p.mismatches) == 0 {
		p.step = readyToSave
		p.say(widget.SuccessImportance, fmt.Sprintf("Both passes agree on all %d ballots.", n))
		return
	}
	p.step = adjudicating
	p.say(widget.DangerImportance, fmt.Sprintf("The passes differ on %d of %d ballots.", len(p.mismatches), n))
}

// settleWith takes the first (1) or second (2) entry of the mismatch at
// hand.
func (p *paperScreen) settleWith(pass int) {
	if p.step != adjudicating {
		return
	}
	m := p.mismatches[p.at]
	if pass == 1 {
		p.settle(m.first)
	} else {
		p.settle(m.second)
	}
	p.update()
}

// settle records the right version of the mismatch at hand (nil: there is
// no ballot at that place) and moves on.
func (p *paperScreen) settle(k *keyed) {
	m := p.mismatches[p.at]
	if k == nil {
		p.skip[m.place] = true
		p.rows = append(p.rows, p.row(m.place+1, "settled: no ballot", nil))
	} else {
		p.settled[m.place] = *k
		p.rows = append(p.rows, p.row(m.place+1, "settled", k))
	}
	p.at++
	if p.at == len(p.mismatches) {
		p.step = readyToSave
		p.say(widget.SuccessImportance, "Every difference is settled.")
		return
	}
	p.say(widget.MediumImportance, "")
}

func (p *paperScreen) countSettled() int {
	n := 0
	for _, s := range p.skip {
		if !s {
			n++
		}
	}
	return n
}

// save records the settled batch.
func (p *paperScreen) save() {
	var batch []keyed
	for i, k := range p.settled {
		if !p.skip[i] {
			batch = append(batch, k)
		}
	}
	p.saving = true
	p.say(widget.MediumImportance, fmt.Sprintf("Recording %d ballots…", len(batch)))
	p.update()
	p.cast(batch, func(codes []string, err error) {
		p.saving = false
		p.rows = nil
		for i, c := range codes {
			p.rows = append(p.rows, p.row(p.recorded+i+1, c, &batch[i]))
		}
		p.recorded += len(codes)
		if err != nil {
			// Keep what was not recorded as the settled batch, to fix and retry.
			p.settled, p.skip = batch[len(codes):], make([]bool, len(batch)-len(codes))
			p.say(widget.DangerImportance, fmt.Sprintf("Recorded %d of %d; the next was refused: %s Press F9 to try the rest again, or Escape to discard them.",
				len(codes), len(batch), sentence(app.ErrorMessage(err))))
			p.update()
			return
		}
		p.pass1, p.pass2, p.settled, p.skip, p.mismatches = nil, nil, nil, nil, nil
		p.step = keyingFirst
		p.say(widget.SuccessImportance, fmt.Sprintf("Recorded %d ballots. Key the next batch.", len(codes)))
		p.update()
	})
}

// toggleMode switches between single and double entry between batches.
func (p *paperScreen) toggleMode() {
	if p.inProgress() || p.saving {
		p.say(widget.DangerImportance, "Finish or discard the batch before switching.")
		return
	}
	p.double, p.step, p.rows = !p.double, keyingFirst, nil
	p.say(widget.MediumImportance, "")
	p.update()
}

// leave goes back to the menu; an unrecorded batch needs a second Escape.
func (p *paperScreen) leave() {
	if p.saving {
		return
	}
	if p.inProgress() && !p.leaving {
		p.leaving = true
		p.say(widget.DangerImportance, "This batch is not recorded. Press Escape again to discard it and leave.")
		return
	}
	p.k.backToMenu()
}

func (p *paperScreen) say(importance widget.Importance, text string) {
	p.msg.Importance = importance
	p.msg.SetText(text)
}
