package ui

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"votedesk/app"
	"votedesk/tally"
	"votedesk/ui/kiosk"
	"votedesk/ui/modal"
	"votedesk/ui/offui"
)

// The tabs of an open election, as remembered in preferences.
const (
	tabOverview   = "overview"
	tabCandidates = "candidates"
	tabPollBook   = "pollbook"
	tabResults    = "results"
	tabAudit      = "audit"
)

// ElectionScreen is one open election: an overview of its settings and
// lifecycle with the commands on it, its candidates, its poll book, its
// results and its risk-limiting audit, one tab each.
type ElectionScreen struct {
	s        *session
	name     string
	election app.Election

	Heading                                              *widget.Label
	Status                                               *widget.Label
	Settings                                             *widget.Form
	Back, Edit, Launch, Close, Finalize, Archive, Delete *modal.Button
	// StartKiosk turns this window into a kiosk for the election;
	// KioskStarted, when set, is called once the kiosk has the window.
	StartKiosk   *modal.Button
	KioskStarted func(*kiosk.Kiosk)
	// ImportBallots imports a cast vote record file.
	ImportBallots *modal.Button
	// ImportFolder imports a Dominion or Hart export folder.
	ImportFolder *modal.Button
	Import       *BallotImport
	Tabs         *container.AppTabs
	Candidates   *CandidatesScreen
	PollBook     *PollBookScreen
	Results      *ResultsScreen
	RiskAudit    *RiskAuditScreen
	EditForm     *ElectionForm

	settingsBox *fyne.Container
	back        func()
	onTab       func(tab string)
	content     fyne.CanvasObject

	// id is the election's, once known: the screen reloads it by id, so
	// that it follows a rename instead of showing whichever election has
	// taken its name. renamed is called with the new name when it was
	// renamed, gone when it was deleted or merged; closed is set once the
	// shell shows something else.
	id      string
	renamed func(newName string)
	gone    func(err error)
	closed  bool
	// loaded is called each time the election is shown anew.
	loaded func()
	// missing, when set, is called instead of an error when the first load
	// finds that no such election was ever here: one remembered from an
	// earlier session of another database is not worth a dialog (one
	// deleted or merged meanwhile is, and gone says so).
	missing func()
}

func newElectionScreen(s *session, name string, back func(), onTab func(string)) *ElectionScreen {
	sc := &ElectionScreen{s: s, name: name, back: back, onTab: onTab,
		Heading: title(name), Status: widget.NewLabel(""), settingsBox: container.NewVBox()}
	sc.Status.Wrapping = fyne.TextWrapWord
	sc.Back = modal.NewButtonWithIcon("All elections", theme.NavigateBackIcon(), back)
	sc.Edit = modal.NewButtonWithIcon("Edit settings", theme.DocumentCreateIcon(), func() {
		sc.EditForm = editElection(s, sc.election, sc.refresh)
	})
	sc.Launch = modal.NewButtonWithIcon("Launch", theme.MediaPlayIcon(), func() { launchElection(s, sc.election, sc.refresh) })
	sc.Close = modal.NewButtonWithIcon("Close polls", theme.MediaStopIcon(), func() { closeElection(s, sc.election, sc.refresh) })
	sc.Finalize = modal.NewButtonWithIcon("Finalize", theme.ConfirmIcon(), func() { finalizeElection(s, sc.election, sc.refresh) })
	sc.Archive = modal.NewButtonWithIcon("Archive", theme.FolderIcon(), func() { archiveElection(s, sc.election, back) })
	sc.Delete = modal.NewButtonWithIcon("Delete", theme.DeleteIcon(), func() { deleteElection(s, sc.election, back) })
	sc.StartKiosk = modal.NewButtonWithIcon("Start kiosk", theme.ComputerIcon(), sc.startKiosk)
	sc.Import = newBallotImport(s, name, sc.refresh)
	sc.ImportBallots = modal.NewButtonWithIcon("Import ballots…", theme.UploadIcon(), sc.Import.choose)
	sc.ImportFolder = modal.NewButtonWithIcon("Import export folder…", theme.FolderOpenIcon(), sc.Import.chooseFolder)
	sc.Candidates = newCandidatesScreen(s, name, sc.refresh)
	sc.PollBook = newPollBookScreen(s, name, sc.refresh)
	sc.Results = newResultsScreen(s, name)
	sc.RiskAudit = newRiskAuditScreen(s, name)
	overview := container.NewVScroll(container.NewVBox(
		sc.Status,
		container.NewHBox(sc.Edit, sc.Launch, sc.Close, sc.Finalize, sc.Archive, sc.Delete),
		container.NewHBox(sc.StartKiosk, sc.ImportBallots, sc.ImportFolder),
		widget.NewSeparator(),
		sc.settingsBox))
	sc.Tabs = container.NewAppTabs(
		container.NewTabItemWithIcon("Overview", theme.InfoIcon(), overview),
		container.NewTabItemWithIcon("Candidates", theme.AccountIcon(), sc.Candidates.content),
		container.NewTabItemWithIcon("Poll book", theme.ListIcon(), sc.PollBook.content),
		container.NewTabItemWithIcon("Results", theme.GridIcon(), sc.Results.content),
		container.NewTabItemWithIcon("Audit", theme.VisibilityIcon(), sc.RiskAudit.content))
	sc.Tabs.OnSelected = func(*container.TabItem) { sc.tabSelected() }
	top := container.NewBorder(nil, nil, sc.Back, nil, sc.Heading)
	sc.content = container.NewBorder(top, nil, nil, nil, sc.Tabs)
	sc.updateButtons()
	return sc
}

// tabNames are the tabs in order.
var tabNames = []string{tabOverview, tabCandidates, tabPollBook, tabResults, tabAudit}

// ShowTab selects a tab by name ("" is the overview).
func (sc *ElectionScreen) ShowTab(tab string) {
	for i, n := range tabNames {
		if n == tab {
			sc.Tabs.SelectIndex(i)
			return
		}
	}
	sc.Tabs.SelectIndex(0)
}

// field is the shown tab's field to type in, where the keyboard lands
// when the tab is opened by keyboard: the Candidates tab's name, the Poll
// book's search; nil for the tabs without one.
func (sc *ElectionScreen) field() *modal.Entry {
	switch sc.tab() {
	case tabCandidates:
		return sc.Candidates.Name
	case tabPollBook:
		return sc.PollBook.Search
	}
	return nil
}

// tab names the selected tab.
func (sc *ElectionScreen) tab() string { return tabNames[sc.Tabs.SelectedIndex()] }

// tabSelected loads what the newly selected tab shows.
func (sc *ElectionScreen) tabSelected() {
	switch sc.tab() {
	case tabCandidates:
		sc.Candidates.refresh()
	case tabPollBook:
		sc.PollBook.refresh()
	case tabResults:
		sc.Results.open()
	case tabAudit:
		sc.RiskAudit.open()
	}
	if sc.onTab != nil {
		sc.onTab(sc.tab())
	}
}

// refresh reloads the election, then what the selected tab shows.
func (sc *ElectionScreen) refresh() {
	name, id, actor := sc.name, sc.id, sc.s.actor()
	offui.Run(sc.s.tasks, func() (app.Election, error) {
		if id != "" {
			return sc.s.svc.ElectionByID(sc.s.ctx(), actor, id)
		}
		return sc.s.svc.Election(sc.s.ctx(), actor, name)
	}, func(e app.Election, err error) {
		missing := sc.missing
		sc.missing = nil
		switch {
		case sc.closed:
			return
		case err != nil && missing != nil && app.IsCode(err, app.CodeNotFound) && !errors.Is(err, app.ErrElectionGone):
			// Never here (a deletion or a merge is said, below).
			missing()
			return
		case err != nil && id != "" && sc.gone != nil && (app.IsCode(err, app.CodeNotFound) || app.IsCode(err, app.CodeConflict)):
			sc.gone(err)
			return
		case err != nil:
			sc.s.fail("Cannot show "+name, err)
			return
		case e.Name != sc.name && sc.renamed != nil:
			sc.renamed(e.Name)
			return
		}
		sc.show(e)
		switch sc.tab() {
		case tabCandidates:
			sc.Candidates.refresh()
		case tabPollBook:
			sc.PollBook.refresh()
		case tabResults:
			sc.Results.refresh()
		case tabAudit:
			sc.RiskAudit.refresh()
		}
	})
}

// show fills the overview with e.
func (sc *ElectionScreen) show(e app.Election) {
	sc.election, sc.id = e, e.ID
	sc.s.showing(e.Name, e.ID)
	if sc.loaded != nil {
		sc.loaded()
	}
	sc.Candidates.setElection(e)
	sc.PollBook.setElection(e)
	sc.Results.setElection(e)
	sc.RiskAudit.setElection(e)
	now := sc.s.svc.Now()
	sc.Status.SetText(statusLine(e, now))
	method := methodLabel(tally.Method(e.Method))
	if e.Method == "" {
		method = methodLabel(tally.IRV) + " (default)"
	}
	if rules := e.RuleList(); len(rules) > 0 {
		method += "; rules " + strings.Join(rules, ", ")
	}
	yes := map[bool]string{true: "yes", false: "no"}
	rows := [][2]string{
		{"Description", orDash(e.Description)},
		{"Owner", e.Owner},
		{"Status", fmt.Sprintf("%s (version %d)", e.Phase(now), e.Version)},
		{"Secret ballot", yes[e.Secret]},
		{"Voting opens", orText(fmtTime(e.NoVotingBefore), "no limit")},
		{"Voting closes", orText(fmtTime(e.NoVotingAfter), "no limit")},
		{"Re-casting allowed", yes[e.AllowRecast]},
		{"Poll-book edits allowed", yes[e.AllowEdit]},
		{"Counting method", method},
		{"Candidates", fmtCount(e.Candidates)},
		{"Voters", fmtCount(e.Voters)},
		{"Ballots", fmtCount(e.Ballots)},
		{"Conflicts", fmtCount(e.Conflicts)},
		{"Kiosk join code", app.JoinCode(e)},
		{"Created", fmtTime(e.Created)},
		{"Last change", fmtTime(e.LastChanged)},
	}
	sc.Settings = widget.NewForm()
	for _, r := range rows {
		v := widget.NewLabel(r[1])
		v.Wrapping = fyne.TextWrapWord
		sc.Settings.Append(r[0], v)
	}
	sc.settingsBox.Objects = []fyne.CanvasObject{sc.Settings}
	sc.settingsBox.Refresh()
	sc.updateButtons()
}

// statusLine says in words where the election stands and what comes next.
func statusLine(e app.Election, now time.Time) string {
	switch e.Phase(now) {
	case "draft":
		return "Draft: add candidates and voters, set the voting window, then launch. Launching needs at least two candidates and freezes the settings."
	case "finalized":
		return "Finalized (certified): nothing in this election can change. Results are final. Archive it to take it off the list; its records are kept."
	case "closed":
		if e.Status == app.StatusClosed {
			return "Polls closed: no more ballots. Count, review conflicts and audit, then finalize to certify the results."
		}
		return "Launched, but its voting window is not open now. Close the polls when voting is over."
	}
	return "Open: voting is on; settings and candidates are frozen. Close the polls when voting is over, then count and finalize."
}

// updateButtons enables what the user may do with this election.
func (sc *ElectionScreen) updateButtons() {
	e := sc.election
	m := e.Name != "" && sc.s.manages(e)
	enable(sc.Edit, m && e.Status != app.StatusFinalized)
	enable(sc.Launch, m && e.Status == app.StatusDraft)
	enable(sc.Close, m && e.Status == app.StatusLaunched)
	enable(sc.Finalize, m && (e.Status == app.StatusLaunched || e.Status == app.StatusClosed))
	enable(sc.Archive, e.Name != "" && app.MayArchive(sc.s.user, e))
	enable(sc.Delete, m && sc.s.mayDelete(e))
	enable(sc.StartKiosk, e.Name != "" && e.Status == app.StatusLaunched && sc.s.can(app.PermUseApplication))
	enable(sc.ImportBallots, m && e.Status != app.StatusFinalized && e.Candidates > 0)
	enable(sc.ImportFolder, m && e.Status != app.StatusFinalized && e.Candidates > 0)
}

// startKiosk asks for the officer passcode and hands the window to a kiosk
// for this election; when an official leaves the kiosk, sign-in is asked
// again.
func (sc *ElectionScreen) startKiosk() {
	var syncer kiosk.Syncer
	if cs, ok := sc.s.sync.(*CloudSyncer); ok {
		syncer = kiosk.CloudSync(cs.AppSyncer())
	}
	kiosk.ShowStartDialog(fyne.CurrentApp(), sc.s.win, kiosk.StartRequest{
		Service: sc.s.svc, Official: sc.s.actor(), Election: sc.election.Name, Sync: syncer, OnExit: sc.s.kioskDone,
		// Nothing of the officials' app may stay reachable: its menu bar goes.
		OnStart: func(*kiosk.Kiosk) { sc.s.win.SetMainMenu(nil) },
		Started: func(k *kiosk.Kiosk) {
			if sc.KioskStarted != nil {
				sc.KioskStarted(k)
			}
		},
		Runner: sc.s.tasks,
	})
}

func orDash(s string) string { return orText(s, "—") }

// orText returns s, or alt when s is empty or "—".
func orText(s, alt string) string {
	if s == "" || s == "—" {
		return alt
	}
	return s
}
