package ui

import (
	"context"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"votedesk/app"
	"votedesk/ui/modal"
)

// CandidatesScreen edits an election's candidates, in ballot order. They
// change only while the election is a draft.
type CandidatesScreen struct {
	s        *session
	name     string
	election app.Election
	cands    []app.Candidate
	selected int

	List   *widget.List
	Name   *modal.Entry
	Add    *modal.Button
	Remove *modal.Button
	Note   *widget.Label

	changed func()
	content fyne.CanvasObject
}

func newCandidatesScreen(s *session, election string, changed func()) *CandidatesScreen {
	sc := &CandidatesScreen{s: s, name: election, changed: changed, selected: -1,
		Name: modal.NewEntry(), Note: widget.NewLabel("")}
	sc.Note.Wrapping = fyne.TextWrapWord
	sc.Name.SetPlaceHolder("Candidate name (several: one per line or separated by ;)")
	sc.Name.OnSubmitted = func(string) { sc.add() }
	sc.List = widget.NewList(func() int { return len(sc.cands) },
		func() fyne.CanvasObject { return widget.NewLabel("") },
		func(i widget.ListItemID, o fyne.CanvasObject) {
			o.(*widget.Label).SetText(fmt.Sprintf("%d.  %s", i+1, sc.cands[i].Name))
		})
	sc.List.OnSelected = func(i widget.ListItemID) { sc.selected = i; sc.updateButtons() }
	sc.List.OnUnselected = func(widget.ListItemID) { sc.selected = -1; sc.updateButtons() }
	sc.Add = modal.NewButtonWithIcon("Add", theme.ContentAddIcon(), sc.add)
	sc.Remove = modal.NewButtonWithIcon("Remove", theme.ContentRemoveIcon(), sc.remove)
	top := container.NewVBox(sc.Note, container.NewBorder(nil, nil, nil, container.NewHBox(sc.Add, sc.Remove), sc.Name))
	sc.content = container.NewBorder(top, nil, nil, nil, sc.List)
	sc.updateButtons()
	return sc
}

// setElection tells the screen the election's current state.
func (sc *CandidatesScreen) setElection(e app.Election) {
	sc.election = e
	sc.updateButtons()
}

// refresh reloads the candidates.
func (sc *CandidatesScreen) refresh() {
	load(sc.s, "Cannot list the candidates", func(ctx context.Context) ([]app.Candidate, error) {
		return sc.s.svc.Candidates(ctx, sc.s.actor(), sc.name)
	}, func(c []app.Candidate) {
		sc.cands = c
		sc.selected = -1
		sc.List.UnselectAll()
		sc.List.Refresh()
		sc.updateButtons()
	})
}

// editable says whether candidates may change now, and if not, why.
func (sc *CandidatesScreen) editable() (bool, string) {
	e := sc.election
	switch {
	case e.Name == "":
		return false, ""
	case !sc.s.manages(e):
		return false, fmt.Sprintf("Only the election's owner (%s) or an ADMIN may change its candidates.", e.Owner)
	case e.Status != app.StatusDraft:
		return false, fmt.Sprintf("The election is %s: candidates change only in a draft.", e.Status)
	case e.Ballots > 0:
		return true, "The election holds ballots: candidates can be added but not removed."
	}
	return true, "Candidates appear on the ballot in this order; ties broken by candidate order use it."
}

func (sc *CandidatesScreen) updateButtons() {
	ok, why := sc.editable()
	sc.Note.SetText(fmt.Sprintf("%s. %s", plural(len(sc.cands), "candidate", "candidates"), why))
	enable(sc.Name, ok)
	enable(sc.Add, ok)
	enable(sc.Remove, ok && sc.election.Ballots == 0 && sc.selected >= 0 && sc.selected < len(sc.cands))
}

// add adds the candidates typed in the name field.
func (sc *CandidatesScreen) add() {
	var names []string
	for _, n := range strings.FieldsFunc(sc.Name.Text, func(r rune) bool { return r == '\n' || r == ';' }) {
		if n = strings.TrimSpace(n); n != "" {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return
	}
	sc.s.do("Cannot add the candidate", func(ctx context.Context) error {
		return sc.s.svc.AddCandidates(ctx, sc.s.actor(), sc.name, names...)
	}, func() {
		sc.Name.SetText("")
		sc.changed()
	})
}

// remove asks for confirmation and removes the selected candidate.
func (sc *CandidatesScreen) remove() {
	if sc.selected < 0 || sc.selected >= len(sc.cands) {
		return
	}
	c := sc.cands[sc.selected].Name
	modal.ShowConfirm("Remove candidate", fmt.Sprintf("Remove %q from %q?", c, sc.name), func(ok bool) {
		if !ok {
			return
		}
		sc.s.do("Cannot remove the candidate", func(ctx context.Context) error {
			return sc.s.svc.RemoveCandidates(ctx, sc.s.actor(), sc.name, c)
		}, sc.changed)
	}, sc.s.win)
}
