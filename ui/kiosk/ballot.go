package kiosk

import (
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"votedesk/tally/report"
)

// ballotScreen is the ranked ballot: every candidate with a button that
// makes them the next choice, and the chosen order beside them with buttons
// to move a choice up or down or remove it. Keys: 1-9 rank candidate 1-9
// next, Backspace removes the last choice, arrows and Tab move the focus,
// Enter or Space press the focused button.
type ballotScreen struct {
	k      *Kiosk
	s      *session
	prompt *widget.Label
	status *widget.Label
	recast *widget.Label
	cands  []*button
	rows   []*rankRow
	none   *widget.Label

	candScroll, rankScroll *container.Scroll

	clearAll, review, cancel *button
	confirm                  *fyne.Container
	leave, stay              *button
	obj                      fyne.CanvasObject
}

// rankRow shows one choice of the ranking.
type rankRow struct {
	box              *fyne.Container
	name             *widget.Label
	up, down, remove *button
}

func newBallotScreen(k *Kiosk, s *session) *ballotScreen {
	b := &ballotScreen{k: k, s: s, prompt: label(""), status: label(""), recast: message(widget.WarningImportance),
		none: label("No choices yet. Your ranking appears here.")}
	b.prompt.TextStyle.Bold = true
	if s.recast {
		b.recast.SetText("You have voted before in this election. Casting this ballot replaces your earlier one. " +
			"Your earlier choices are not shown.")
	} else {
		b.recast.Hide()
	}
	left := container.NewVBox(b.recast, b.prompt, widget.NewLabelWithStyle("Candidates", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}))
	b.candScroll = container.NewVScroll(left)
	for i := range k.candidates {
		btn := newWrapButton(k, "", theme.ContentAddIcon(), func() { b.rankFromButton(i) })
		btn.onFocus = func() { scrollIntoView(b.candScroll, btn) }
		b.cands = append(b.cands, btn)
		left.Add(btn)
	}
	right := container.NewVBox(widget.NewLabelWithStyle("Your ranking", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}), b.none)
	b.rankScroll = container.NewVScroll(right)
	for p := range k.candidates {
		r := &rankRow{name: widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})}
		r.name.Wrapping = fyne.TextWrapWord
		r.up = newButton(k, "Up", theme.MoveUpIcon(), func() { b.move(p, -1) })
		r.down = newButton(k, "Down", theme.MoveDownIcon(), func() { b.move(p, +1) })
		r.remove = newButton(k, "Remove", theme.DeleteIcon(), func() { b.removeFromButton(p) })
		r.box = container.NewVBox(r.name, container.New(layout.NewRowWrapLayout(), r.up, r.down, r.remove))
		for _, btn := range []*button{r.up, r.down, r.remove} {
			btn.onFocus = func() { scrollIntoView(b.rankScroll, r.box) }
		}
		b.rows = append(b.rows, r)
		right.Add(r.box)
	}
	b.clearAll = newButton(k, "Clear all", theme.ContentClearIcon(), b.clear)
	b.review = newButton(k, "Review my ballot", theme.NavigateNextIcon(), k.showReview)
	b.review.Importance = widget.HighImportance
	b.cancel = newButton(k, "Cancel", theme.CancelIcon(), b.askCancel)
	b.cancel.Importance = widget.LowImportance
	b.leave = newButton(k, "Yes, leave without voting", nil, k.nextVoter)
	b.stay = newButton(k, "No, keep voting", nil, b.keepVoting)
	b.confirm = container.NewHBox(widget.NewLabel("Leave without casting a ballot?"), b.leave, b.stay)
	b.confirm.Hide()

	body := container.NewBorder(nil, b.status, nil, nil,
		container.NewGridWithColumns(2, b.candScroll, b.rankScroll))
	bottom := container.NewVBox(widget.NewSeparator(), b.confirm,
		container.NewHBox(b.cancel, layout.NewSpacer(), b.clearAll, b.review))
	b.obj = container.NewPadded(container.NewBorder(heading("Rank the candidates"), bottom, nil, nil, body))
	b.update()
	return b
}

func (b *ballotScreen) view() fyne.CanvasObject { return b.obj }
func (b *ballotScreen) voterFacing() bool       { return true }

// first is the first candidate not yet ranked, or Review.
func (b *ballotScreen) first() fyne.Focusable {
	for i, c := range b.cands {
		if b.s.rankOf(i) < 0 {
			return c
		}
	}
	return b.review
}

func (b *ballotScreen) typedRune(r rune) {
	if r >= '1' && r <= '9' && int(r-'1') < len(b.cands) {
		b.rank(int(r - '1'))
		b.fixFocus()
	}
}

func (b *ballotScreen) typedKey(ev *fyne.KeyEvent) {
	if ev.Name == fyne.KeyBackspace && len(b.s.ranking) > 0 {
		b.remove(len(b.s.ranking) - 1)
		b.fixFocus()
	}
}

// rank makes candidate c the next choice.
func (b *ballotScreen) rank(c int) {
	name := b.k.candidates[c].Name
	if p := b.s.rankOf(c); p >= 0 {
		b.status.SetText(fmt.Sprintf("%s is already your %s choice. To change that, use Up, Down or Remove under Your ranking.", name, report.Ordinal(p+1)))
		return
	}
	b.s.rankNext(c)
	b.status.SetText(fmt.Sprintf("%s is your %s choice.", name, report.Ordinal(len(b.s.ranking))))
	b.update()
}

// rankFromButton ranks candidate c and moves the focus to the next
// candidate still unranked, or to Review when none is left.
func (b *ballotScreen) rankFromButton(c int) {
	if b.s.rankOf(c) >= 0 {
		b.rank(c) // says where c is
		return
	}
	b.rank(c)
	for i := 1; i <= len(b.cands); i++ {
		if n := (c + i) % len(b.cands); b.s.rankOf(n) < 0 {
			b.focus(b.cands[n])
			return
		}
	}
	b.focus(b.review)
}

// move moves the choice at place p up (-1) or down (+1); the focus follows
// it.
func (b *ballotScreen) move(p, by int) {
	q := p + by
	if q < 0 || q >= len(b.s.ranking) {
		return
	}
	b.s.swap(p, q)
	b.status.SetText(fmt.Sprintf("%s is now your %s choice.", b.k.candidates[b.s.ranking[q]].Name, report.Ordinal(q+1)))
	b.update()
	r := b.rows[q]
	if by < 0 && !r.up.Disabled() || by > 0 && r.down.Disabled() {
		b.focus(r.up)
	} else {
		b.focus(r.down)
	}
}

// remove drops the choice at place p.
func (b *ballotScreen) remove(p int) {
	if p < 0 || p >= len(b.s.ranking) {
		return
	}
	name := b.k.candidates[b.s.ranking[p]].Name
	b.s.remove(p)
	b.status.SetText(fmt.Sprintf("%s is no longer ranked.", name))
	b.update()
}

// removeFromButton removes the choice at p and keeps the focus on a Remove
// button while there are choices left.
func (b *ballotScreen) removeFromButton(p int) {
	b.remove(p)
	switch n := len(b.s.ranking); {
	case p < n:
		b.focus(b.rows[p].remove)
	case n > 0:
		b.focus(b.rows[n-1].remove)
	default:
		b.focus(b.first())
	}
}

func (b *ballotScreen) clear() {
	b.s.clear()
	b.status.SetText("Your ranking is empty.")
	b.update()
	b.focus(b.first())
}

func (b *ballotScreen) askCancel() {
	b.confirm.Show()
	b.focus(b.stay)
}

func (b *ballotScreen) keepVoting() {
	b.confirm.Hide()
	b.focus(b.cancel)
}

// update shows the session's ranking. It changes only what differs:
// refreshing a button redraws its icon, which is not free.
func (b *ballotScreen) update() {
	n := len(b.s.ranking)
	for i, btn := range b.cands {
		name := b.k.candidates[i].Name
		if p := b.s.rankOf(i); p >= 0 {
			setButton(btn, fmt.Sprintf("%d   %s   (your %s choice)", i+1, name, report.Ordinal(p+1)), true)
			setIcon(btn, theme.ConfirmIcon())
		} else {
			setButton(btn, fmt.Sprintf("%d   %s", i+1, name), true)
			setIcon(btn, theme.ContentAddIcon())
		}
	}
	for p, r := range b.rows {
		if p >= n {
			if r.box.Visible() {
				r.name.SetText("")
				r.box.Hide()
			}
			continue
		}
		r.name.SetText(fmt.Sprintf("%s choice: %s", report.Ordinal(p+1), b.k.candidates[b.s.ranking[p]].Name))
		setEnabled(r.up, p > 0)
		setEnabled(r.down, p < n-1)
		r.box.Show()
	}
	if n == 0 {
		b.none.Show()
	} else {
		b.none.Hide()
	}
	setEnabled(b.clearAll, n > 0)
	if n < len(b.cands) {
		b.prompt.SetText(fmt.Sprintf("Press a candidate, or type their number, to make them your %s choice. "+
			"Rank as many as you like; you do not have to rank them all.", report.Ordinal(n+1)))
	} else {
		b.prompt.SetText("You have ranked every candidate. Review your ballot when you are ready.")
	}
}

// focus moves the keyboard focus to f.
func (b *ballotScreen) focus(f fyne.Focusable) { b.k.win.Canvas().Focus(f) }

// fixFocus moves the focus on after a key changed the ranking: to Review
// once every candidate is ranked; from a candidate the key just ranked, or
// from a ranking row it hid, to the first candidate not yet ranked; and
// when nothing has the focus, to the first candidate not yet ranked.
func (b *ballotScreen) fixFocus() {
	f := b.k.win.Canvas().Focused()
	if len(b.s.ranking) == len(b.cands) && f != b.review {
		b.focus(b.review)
		return
	}
	for i, c := range b.cands {
		if f == c && b.s.rankOf(i) >= 0 {
			b.focus(b.first())
			return
		}
	}
	for p := len(b.s.ranking); p < len(b.rows); p++ {
		if r := b.rows[p]; f == r.up || f == r.down || f == r.remove {
			b.focus(b.first())
			return
		}
	}
	if f == nil {
		b.focus(b.first())
	}
}

// wipe empties every text that shows the ranking and the ranking itself.
func (b *ballotScreen) wipe() {
	b.s.clear()
	b.update()
	b.status.SetText("")
	b.recast.SetText("")
}

func setEnabled(b *button, on bool) { setButton(b, b.label(), on) }

// setIcon sets a button's icon, refreshing it only when it changes.
func setIcon(b *button, icon fyne.Resource) {
	if b.Icon != icon {
		b.SetIcon(icon)
	}
}

// scrollIntoView scrolls s so that o, a child of its content, is in view
// with a little room around it for its focus ring.
func scrollIntoView(s *container.Scroll, o fyne.CanvasObject) {
	room := theme.Padding()
	top, bottom := max(o.Position().Y-room, 0), o.Position().Y+o.Size().Height+room
	view := s.Size().Height
	switch {
	case top < s.Offset.Y:
		s.ScrollToOffset(fyne.NewPos(s.Offset.X, top))
	case bottom > s.Offset.Y+view:
		s.ScrollToOffset(fyne.NewPos(s.Offset.X, bottom-view))
	}
}

// setButton sets a button's text and state, refreshing it only when they
// change.
func setButton(b *button, text string, enabled bool) {
	b.setLabel(text)
	switch {
	case enabled && b.Disabled():
		b.Enable()
	case !enabled && !b.Disabled():
		b.Disable()
	}
}
