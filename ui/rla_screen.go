package ui

import (
	"fmt"
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"votedesk/app"
	"votedesk/app/dataio"
	"votedesk/tally/rla"
	"votedesk/ui/modal"
	"votedesk/ui/offui"
)

// The views of the audit tab.
const (
	rlaOverview = iota
	rlaBoard
)

// RiskAuditScreen is an election's Audit tab: the risk-limiting audit of a
// closed election's count against its paper ballots (not the event log,
// which is the Audit log screen). Whoever manages the election starts an
// audit and its further rounds; the overview says where the audit stands
// (the verdict, the assertions and their risk, the elimination trees, the
// rounds) and exports its report; the audit board reads the sampled paper
// ballots by double entry. Everything the audit reads or computes is loaded
// off the UI goroutine.
type RiskAuditScreen struct {
	s        *session
	name     string
	election app.Election
	opened   bool
	// gen counts the loads asked for: a load that arrives after a later one
	// was asked for is dropped.
	gen    int
	audits []app.Audit
	// chosen is the id of the audit shown ("" for the newest).
	chosen string
	state  *app.AuditState

	// Note says why there is no audit to show, or how the last load failed.
	Note *widget.Label
	// Start opens the Start an audit dialog (only for whoever may run
	// the audit).
	Start *modal.Button
	// Choice picks one of several audits of the election.
	Choice    *modal.Select
	Tabs      *container.AppTabs
	Overview  *AuditOverview
	Board     *AuditBoard
	StartForm *AuditStartForm
	content   fyne.CanvasObject
}

func newRiskAuditScreen(s *session, name string) *RiskAuditScreen {
	sc := &RiskAuditScreen{s: s, name: name, Note: widget.NewLabel("")}
	sc.Note.Wrapping = fyne.TextWrapWord
	sc.Start = modal.NewButtonWithIcon("Start an audit…", theme.ContentAddIcon(), func() { sc.StartForm = askStartAudit(sc) })
	sc.Start.Importance = widget.HighImportance
	sc.Start.Hide()
	sc.Choice = modal.NewSelect(nil, func(string) { sc.choose() })
	sc.Choice.Hide()
	sc.Overview = newAuditOverview(sc)
	sc.Board = newAuditBoard(sc)
	sc.Tabs = container.NewAppTabs(
		container.NewTabItemWithIcon("Overview", theme.InfoIcon(), sc.Overview.content),
		container.NewTabItemWithIcon("Audit board", theme.DocumentCreateIcon(), sc.Board.content))
	sc.Tabs.Hide()
	top := container.NewVBox(toolbar(sc.Start, sc.Choice), sc.Note)
	sc.content = container.NewBorder(top, nil, nil, nil, sc.Tabs)
	return sc
}

// setElection tells the screen the election's current state; the election
// screen then calls refresh, which loads the audit if the tab is open.
func (sc *RiskAuditScreen) setElection(e app.Election) {
	sc.election = e
	if app.MayRunAudit(sc.s.user, e) && e.PollsClosed() {
		sc.Start.Show()
	} else {
		sc.Start.Hide()
	}
}

// open loads the audit the first time the tab is shown.
func (sc *RiskAuditScreen) open() {
	if !sc.opened {
		sc.opened = true
		sc.refresh()
	}
}

// refresh loads the audit again (F5 on the tab, a reading saved).
func (sc *RiskAuditScreen) refresh() { sc.load(nil) }

// auditView is what one load brings: the election's audits and the state
// of the one shown.
type auditView struct {
	audits []app.Audit
	state  *app.AuditState
}

// load reads the election's audits and the state of the one shown off the
// UI goroutine, shows them, then calls then (if set).
func (sc *RiskAuditScreen) load(then func()) {
	e := sc.election
	if !sc.opened || e.Name == "" {
		return
	}
	sc.gen++
	gen := sc.gen
	if !e.PollsClosed() {
		sc.clear("An audit checks the count against the paper ballots once the polls are closed. " +
			"Close the polls, import the cast vote records, then start a risk-limiting audit here.")
		return
	}
	chosen := sc.chosen
	offui.Run(sc.s.tasks, func() (auditView, error) {
		ctx, actor := sc.s.ctx(), sc.s.actor()
		audits, err := sc.s.svc.Audits(ctx, actor, sc.name)
		if err != nil || len(audits) == 0 {
			return auditView{}, err
		}
		if !slices.ContainsFunc(audits, func(a app.Audit) bool { return a.ID == chosen }) {
			chosen = audits[0].ID
		}
		st, err := sc.s.svc.AuditState(ctx, actor, sc.name, chosen)
		return auditView{audits: audits, state: &st}, err
	}, func(v auditView, err error) {
		if gen != sc.gen {
			return
		}
		switch {
		case err != nil:
			sc.clear("The audit cannot be shown: " + app.ErrorMessage(err))
		case v.state == nil:
			sc.clear(sc.noAuditNote())
		default:
			sc.show(v)
		}
		if then != nil {
			then()
		}
	})
}

// noAuditNote says what an audit is and how to start one.
func (sc *RiskAuditScreen) noAuditNote() string {
	s := "No audit of this election yet. A risk-limiting audit draws paper ballots at random, from a seed rolled with dice in public, " +
		"and compares them with the count, until the chance that a wrong outcome goes unnoticed is below the risk limit, or it calls for a full hand count."
	if app.MayRunAudit(sc.s.user, sc.election) {
		return s + " Start one with the ballot manifest (how many paper ballots each batch holds) and the seed."
	}
	return s + " The election's owner or an ADMIN starts it."
}

// clear shows no audit, with a note why.
func (sc *RiskAuditScreen) clear(note string) {
	sc.audits, sc.state = nil, nil
	sc.Start.SetText("Start an audit…")
	sc.Start.Importance = widget.HighImportance
	sc.Start.Refresh()
	sc.Note.SetText(note)
	sc.Note.Show()
	sc.Choice.Hide()
	sc.Tabs.Hide()
}

// show shows an audit's state.
func (sc *RiskAuditScreen) show(v auditView) {
	sc.audits, sc.state = v.audits, v.state
	sc.chosen = v.state.Audit.ID
	sc.Note.Hide()
	if len(v.audits) > 1 {
		labels := make([]string, len(v.audits))
		for i, a := range v.audits {
			labels[i] = auditLabel(a)
		}
		sc.Choice.Options = labels
		sc.Choice.Selected = auditLabel(v.state.Audit)
		sc.Choice.Refresh()
		sc.Choice.Show()
	} else {
		sc.Choice.Hide()
	}
	sc.Start.SetText("Start another audit…")
	sc.Start.Importance = widget.MediumImportance
	sc.Start.Refresh()
	sc.Overview.show(v.state)
	sc.Board.show(v.state)
	sc.Tabs.Show()
}

// choose shows the audit picked in Choice.
func (sc *RiskAuditScreen) choose() {
	for _, a := range sc.audits {
		if auditLabel(a) == sc.Choice.Selected && a.ID != sc.chosen {
			sc.chosen = a.ID
			sc.Board.reset(chooseDraw)
			sc.load(nil)
		}
	}
}

// auditLabel names an audit in the list of an election's audits.
func auditLabel(a app.Audit) string {
	return fmt.Sprintf("%s audit at %s, started %s by %s", kindWord(a), dataio.Percent(a.RiskLimit), fmtTime(a.Started), a.StartedBy)
}

// kindWord is an audit's kind in a word, capitalised.
func kindWord(a app.Audit) string {
	if a.Kind == rla.Polling {
		return "Polling"
	}
	return "Comparison"
}

// ShowView selects the overview or the audit board.
func (sc *RiskAuditScreen) ShowView(view int) { sc.Tabs.SelectIndex(view) }

// focusOverview shows the overview with the keyboard on its first button
// (Escape on the board's list of draws): the audit board is one Enter
// away from there, so the keyboard alone moves between the two views.
func (sc *RiskAuditScreen) focusOverview() {
	sc.ShowView(rlaOverview)
	sc.s.win.Canvas().Focus(sc.Overview.ReadBallots)
}
