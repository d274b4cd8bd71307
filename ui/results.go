package ui

import (
	"context"
	"fmt"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"votedesk/app"
	"votedesk/tally"
	"votedesk/tally/report"
	"votedesk/ui/modal"
	"votedesk/ui/offui"
)

// methodChoices are the counting methods the results screen offers, with
// their names in words.
var methodChoices = []struct {
	method tally.Method
	label  string
}{
	{tally.IRV, "Instant runoff (IRV)"},
	{tally.STV, "Single transferable vote (STV)"},
	{tally.Schulze, "Schulze"},
	{tally.RankedPairs, "Ranked Pairs (winning votes)"},
	{tally.RankedPairsMargin, "Ranked Pairs (margins)"},
	{tally.Copeland, "Copeland"},
	{tally.Minimax, "Minimax (winning votes)"},
	{tally.MinimaxMargin, "Minimax (margins)"},
	{tally.MinimaxOpposition, "Minimax (pairwise opposition)"},
	{tally.Kemeny, "Kemeny-Young"},
	{tally.Borda, "Borda count"},
	{tally.Dowdall, "Dowdall"},
	{tally.Plurality, "Plurality (first choices)"},
}

func methodChoiceLabels() []string {
	out := make([]string, len(methodChoices))
	for i, m := range methodChoices {
		out[i] = m.label
	}
	return out
}

func methodLabel(m tally.Method) string {
	for _, c := range methodChoices {
		if c.method == m {
			return c.label
		}
	}
	return string(m)
}

func methodByLabel(label string) tally.Method {
	for _, c := range methodChoices {
		if c.label == label {
			return c.method
		}
	}
	return tally.IRV
}

// The result tabs.
const (
	resultRounds = iota
	resultChart
	resultFlow
	resultPairwise
	resultRanking
	resultBallots
	resultRules
)

// ResultsScreen counts an election with a chosen method and RCTab rules and
// shows the result: a winner banner, the rounds as a table, a bar chart per
// round and a flow picture (IRV, STV), the pairwise matrices (Condorcet
// methods), the final ranking, and the ballots (without voter names in a
// secret election, for roles below AUDITOR). The count runs off the UI
// goroutine; a newer count supersedes an older one still running.
type ResultsScreen struct {
	s        *session
	name     string
	election app.Election
	count    *app.Count
	gen      int // the count whose result is awaited

	// TieChoice is the open tie dialog's choice of candidate; tieChoices
	// the ties decided so far for the count going on (see results_ties.go).
	TieChoice  *modal.Select
	tieDialog  *modal.Dialog
	tieChoices []int
	opened     bool
	round      int // the chart's round (index)

	Method     *modal.Select
	Rules      *RulesForm
	Count      *modal.Button
	SaveRules  *modal.Button
	ExportJSON *modal.Button
	ExportCSV  *modal.Button
	ExportHTML *modal.Button
	Activity   *widget.Activity
	Status     *widget.Label
	Banner     *widget.Label
	// Standing says how final the count is (PRELIMINARY, UNOFFICIAL or
	// FINAL, and why), above the banner, as every surface says it.
	Standing *widget.Label
	// Ties says, under the banner, every tie the count broke and how (as
	// the command line and the HTML report say it); hidden with none.
	Ties   *widget.Label
	Tabs   *container.AppTabs
	Rounds *grid
	// RoundDetail shows the selected cell of Rounds whole.
	RoundDetail *widget.Label
	Chart       *BarChart
	ChartRound  *modal.Select
	Flow        *FlowView
	Preferences *grid
	Paths       *grid
	PathsTitle  *widget.Label
	Places      *widget.Label
	Sets        *widget.Label
	BallotList  *grid
	BallotNote  *widget.Label
	LoadBallots *modal.Button
	// FindCode finds a ballot of the list by its confirmation code (or an
	// imported one by its source id), the code typed
	// however a voter wrote it down; Found says what it found.
	FindCode  *modal.Entry
	Found     *widget.Label
	rounds    roundsTable
	ballots   ballotPages
	notes     map[int]*widget.Label
	bannerBox *fyne.Container
	// pairwise holds the two matrices, hidden when the count has none.
	pairwise *fyne.Container
	controls *fyne.Container
	content  fyne.CanvasObject
}

func newResultsScreen(s *session, name string) *ResultsScreen {
	sc := &ResultsScreen{s: s, name: name, Rules: newRulesForm(), Activity: widget.NewActivity(),
		Status: widget.NewLabel("Not counted yet."), Places: widget.NewLabel(""), Sets: widget.NewLabel(""),
		BallotNote: widget.NewLabel(""), PathsTitle: widget.NewLabel(""), notes: map[int]*widget.Label{}}
	sc.Status.Wrapping = fyne.TextWrapWord
	sc.Sets.Wrapping = fyne.TextWrapWord
	sc.BallotNote.Wrapping = fyne.TextWrapWord
	sc.Method = modal.NewSelect(methodChoiceLabels(), func(string) { sc.methodChanged() })
	sc.Count = modal.NewButtonWithIcon("Count", theme.MediaPlayIcon(), sc.Recount)
	sc.Count.Importance = widget.HighImportance
	sc.SaveRules = modal.NewButtonWithIcon("Save as the election's method", theme.DocumentSaveIcon(), sc.saveRules)
	// Export: RCTab's JSON and CSV reports, and the HTML report for people.
	sc.ExportJSON = modal.NewButtonWithIcon("JSON…", theme.DownloadIcon(), func() { sc.export("json") })
	sc.ExportCSV = modal.NewButtonWithIcon("CSV…", theme.DownloadIcon(), func() { sc.export("csv") })
	sc.ExportHTML = modal.NewButtonWithIcon("HTML…", theme.DownloadIcon(), func() { sc.export("html") })
	sc.Banner = widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	sc.Banner.SizeName = theme.SizeNameSubHeadingText
	sc.Banner.Wrapping = fyne.TextWrapWord
	bg := canvas.NewRectangle(theme.Color(theme.ColorNameSelection))
	bg.CornerRadius = theme.InputRadiusSize()
	sc.Standing = widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	sc.Standing.Wrapping = fyne.TextWrapWord
	sc.Ties = widget.NewLabel("")
	sc.Ties.Wrapping = fyne.TextWrapWord
	sc.Ties.Hide()
	sc.bannerBox = container.NewStack(bg, container.NewVBox(sc.Standing, sc.Banner, sc.Ties))
	sc.bannerBox.Hide()

	sc.Rounds = newGrid(nil, func() int { return len(sc.rounds.rows) }, func(row, col int) string {
		if col == 0 {
			return sc.rounds.rows[row]
		}
		return sc.rounds.cells[row][col-1]
	}, func(row, _ int) bool { return sc.rounds.bold[row] })
	sc.Rounds.Importance = func(row, col int) widget.Importance {
		switch sc.rounds.mark(row, col-1) {
		case markElected:
			return widget.SuccessImportance
		case markEliminated:
			return widget.DangerImportance
		}
		return widget.MediumImportance
	}
	sc.RoundDetail = widget.NewLabel(roundDetailHint)
	sc.RoundDetail.Wrapping = fyne.TextWrapWord
	sc.Rounds.OnSelected = sc.showRoundCell
	sc.Chart = NewBarChart()
	sc.ChartRound = modal.NewSelect(nil, func(v string) { sc.showRound(v) })
	sc.Flow = NewFlowView()
	sc.Preferences = newGrid(nil, func() int { return sc.pairwiseRows() }, sc.prefCell, sc.prefBold)
	sc.Paths = newGrid(nil, func() int { return sc.pairwiseRows() }, sc.pathCell, nil)
	sc.PathsTitle.TextStyle.Bold = true
	sc.LoadBallots = modal.NewButtonWithIcon("Show the ballots", theme.ListIcon(), sc.loadBallots)
	sc.FindCode = modal.NewEntry()
	sc.FindCode.SetPlaceHolder("Find a confirmation code or source id")
	sc.FindCode.OnSubmitted = sc.findCode
	sc.Found = widget.NewLabel("")
	sc.Found.Truncation = fyne.TextTruncateEllipsis
	sc.BallotList = newGrid([]column{
		{"Confirmation", 300, fyne.TextAlignLeading},
		{"Voter", 180, fyne.TextAlignLeading},
		{"Cast", 150, fyne.TextAlignLeading},
		{"Rankings", 520, fyne.TextAlignLeading},
	}, sc.ballots.Len, sc.ballotCell, nil)

	note := func(tab int) *widget.Label {
		l := widget.NewLabel("")
		l.Wrapping = fyne.TextWrapWord
		l.Hide()
		sc.notes[tab] = l
		return l
	}
	chartTop := container.NewHBox(widget.NewLabel("Round"), sc.ChartRound,
		modal.NewButtonWithIcon("", theme.NavigateBackIcon(), func() { sc.stepRound(-1) }),
		modal.NewButtonWithIcon("", theme.NavigateNextIcon(), func() { sc.stepRound(1) }))
	sc.pairwise = container.NewBorder(nil, nil, nil, nil, container.NewGridWithRows(2,
		container.NewBorder(boldLabel("Head to head: row's votes over column's (bold: row wins)"), nil, nil, nil, sc.Preferences),
		container.NewBorder(sc.PathsTitle, nil, nil, nil, sc.Paths)))
	sc.Tabs = container.NewAppTabs(
		container.NewTabItem("Rounds", container.NewBorder(note(resultRounds), sc.RoundDetail, nil, nil, sc.Rounds)),
		container.NewTabItem("Chart", container.NewBorder(container.NewVBox(note(resultChart), chartTop), nil, nil, nil, container.NewVScroll(sc.Chart))),
		container.NewTabItem("Flow", container.NewBorder(note(resultFlow), nil, nil, nil, sc.Flow)),
		container.NewTabItem("Pairwise", container.NewBorder(note(resultPairwise), nil, nil, nil, sc.pairwise)),
		container.NewTabItem("Ranking", container.NewVScroll(container.NewVBox(note(resultRanking), sc.Places, sc.Sets))),
		container.NewTabItem("Ballots", container.NewBorder(container.NewVBox(sc.BallotNote, container.NewBorder(nil, nil, container.NewHBox(sc.LoadBallots, container.NewGridWrap(fyne.NewSize(300, sc.FindCode.MinSize().Height), sc.FindCode)), nil, sc.Found)), nil, nil, nil, sc.BallotList)),
		// The rules are a tab of their own that scrolls: shown above the
		// result they made the window taller than the screen.
		container.NewTabItem("Counting rules", container.NewVScroll(sc.Rules.content)))
	sc.controls = container.NewVBox(
		container.NewBorder(nil, nil, widget.NewLabel("Method"), nil, container.NewGridWrap(fyne.NewSize(320, sc.Method.MinSize().Height), sc.Method)),
		toolbar(sc.Count, sc.Activity, sc.SaveRules, sc.ExportJSON, sc.ExportCSV, sc.ExportHTML),
		sc.Status, sc.bannerBox)
	sc.content = container.NewBorder(sc.controls, nil, nil, nil, sc.Tabs)
	sc.updateButtons()
	return sc
}

func boldLabel(s string) *widget.Label {
	return widget.NewLabelWithStyle(s, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
}

// setElection tells the screen the election's current state; the first
// time, the method and rules start as the election's own. The election
// screen then calls refresh, which counts if the tab is open.
func (sc *ResultsScreen) setElection(e app.Election) {
	first := sc.election.Name == ""
	sc.election = e
	if first {
		m := tally.IRV
		if e.Method != "" {
			if pm, err := tally.ParseMethod(e.Method); err == nil {
				m = pm
			}
		}
		sc.Rules.Set(e.Rules)
		sc.Method.SetSelected(methodLabel(m))
	}
	sc.updateButtons()
}

// open counts the first time the tab is shown, then keeps the result.
func (sc *ResultsScreen) open() {
	if sc.opened {
		return
	}
	sc.opened = true
	if sc.election.Name != "" {
		sc.autoCount()
	}
}

// refresh counts again (F5 on the tab).
func (sc *ResultsScreen) refresh() {
	if sc.opened && sc.election.Name != "" {
		sc.autoCount()
	}
}

// autoCount counts when the tab opens or is refreshed: only when there is
// something to count, and a refusal is said in the status line rather than
// in a dialog nobody asked for.
func (sc *ResultsScreen) autoCount() {
	switch e := sc.election; {
	case e.Candidates == 0:
		sc.clear("No candidates yet: add them on the Candidates tab; the results appear once ballots are cast.")
	case e.Ballots == 0:
		sc.clear("No ballots yet: the results appear here once ballots are cast (or imported).")
	default:
		sc.count1(false, false)
	}
}

// clear shows no result, with a note why.
func (sc *ResultsScreen) clear(why string) {
	sc.gen++
	sc.count = nil
	sc.Status.SetText(why)
	sc.bannerBox.Hide()
	sc.rounds = roundsTable{}
	sc.Rounds.setColumns(nil)
	sc.Rounds.Refresh()
	sc.ChartRound.SetOptions(nil)
	sc.Chart.Set(nil, 0, "")
	sc.Flow.Set(flowModel{})
	sc.showPairwise()
	sc.Places.SetText("")
	sc.content.Refresh()
	sc.updateButtons()
}

// methodChanged shows the seats field filled sensibly for the method.
func (sc *ResultsScreen) methodChanged() {
	m := methodByLabel(sc.Method.Selected)
	if m == tally.STV && strings.TrimSpace(sc.Rules.Seats.Text) == "1" {
		sc.Rules.Seats.SetText("2")
	}
	if m == tally.IRV && strings.TrimSpace(sc.Rules.Seats.Text) != "1" && sc.election.Rules["numberOfWinners"] == "" {
		sc.Rules.Seats.SetText("1")
	}
	sc.updateButtons()
}

func (sc *ResultsScreen) updateButtons() {
	enable(sc.SaveRules, sc.election.Name != "" && sc.s.manages(sc.election) && sc.election.Status == app.StatusDraft)
	enable(sc.ExportJSON, sc.count != nil)
	enable(sc.ExportCSV, sc.count != nil && len(sc.count.Result.Passes) > 0)
	enable(sc.ExportHTML, sc.count != nil)
}

// Recount counts the election off the UI goroutine with the method and
// rules chosen, showing activity meanwhile (the Count button). Ties decided
// for an earlier count are asked again.
func (sc *ResultsScreen) Recount() { sc.count1(true, false) }

// count1 counts; asked says whether the user asked (a refusal is then shown
// as a dialog too); keepTies keeps the tie decisions made so far (a count
// going on after a decision).
func (sc *ResultsScreen) count1(asked, keepTies bool) {
	if !keepTies {
		sc.tieChoices = nil
	}
	method := methodByLabel(sc.Method.Selected)
	rules, err := sc.Rules.Rules()
	if err != nil {
		sc.Status.SetText("The counting rules are not valid: " + app.ErrorMessage(err))
		if asked {
			sc.s.fail("Cannot count: the rules are not valid", err)
		}
		return
	}
	sc.gen++
	gen := sc.gen
	sc.Activity.Start()
	sc.Activity.Show()
	sc.Status.SetText(fmt.Sprintf("Counting %s with %s…", plural(sc.election.Ballots, "ballot", "ballots"), methodLabel(method)))
	start := time.Now()
	decided := &decisions{chosen: append([]int(nil), sc.tieChoices...)}
	var names []string // the candidates in count order, when a tie is asked
	var keep func()    // the count cache's write, once the count is shown
	offui.Run(sc.s.tasks, func() (app.Count, error) {
		c, k, err := sc.s.svc.CountFirst(sc.s.ctx(), sc.s.actor(), sc.name, method, rules, tally.WithDecider(decided))
		keep = k
		if _, ok := askedTie(err); ok {
			cands, cerr := sc.s.svc.Candidates(sc.s.ctx(), sc.s.actor(), sc.name)
			if cerr != nil {
				return c, cerr
			}
			for _, cand := range cands {
				names = append(names, cand.Name)
			}
		}
		return c, err
	}, func(c app.Count, err error) {
		if keep != nil {
			defer offui.Run(sc.s.tasks, func() (struct{}, error) { keep(); return struct{}{}, nil }, func(struct{}, error) {})
		}
		if gen != sc.gen {
			return
		}
		sc.Activity.Stop()
		sc.Activity.Hide()
		if tie, ok := askedTie(err); ok {
			sc.Status.SetText(fmt.Sprintf("Round %d has a tie for an official to decide.", tie.Round))
			sc.askTie(tie, names)
			return
		}
		if err != nil {
			sc.Status.SetText(app.ErrorMessage(err))
			if asked {
				sc.s.fail("Cannot count "+sc.name, err)
			}
			return
		}
		sc.show(&c, sc.s.since(start))
	})
}

// show puts a finished count on every tab, refreshing each view once.
func (sc *ResultsScreen) show(c *app.Count, took time.Duration) {
	sc.count = c
	res := c.Result
	rcv := ranked(res.Method)
	sc.Status.SetText(fmt.Sprintf("%s counted with %s in %s.", plural(int64(c.Ballots.Total()), "ballot", "ballots"),
		methodLabel(res.Method), fmtDuration(took)))
	sc.Banner.SetText(banner(*c))
	sc.Standing.Importance = widget.WarningImportance
	if c.Standing.Final {
		sc.Standing.Importance = widget.SuccessImportance
	}
	sc.Standing.SetText(c.Standing.String())
	var ties []string
	for _, tb := range res.TieBreaks {
		ties = append(ties, tb.Text(func(i int) string { return c.Contest.Candidates[i].Name }))
	}
	sc.Ties.SetText(strings.Join(ties, "\n"))
	sc.Ties.Hidden = len(ties) == 0
	sc.bannerBox.Show()
	sc.content.Refresh()

	sc.setNote(resultRounds, !rcv, "Rounds, transfers and inactive ballots belong to the ranked-choice methods (IRV, STV). Choose one of them to see them; see Pairwise and Ranking for this method.")
	sc.setNote(resultChart, !rcv, "The bar chart shows the rounds of a ranked-choice count (IRV, STV).")
	sc.setNote(resultFlow, !rcv, "The flow picture shows where votes went between the rounds of a ranked-choice count (IRV, STV).")
	sc.setNote(resultPairwise, res.Pairwise == nil, "Pairwise matrices belong to the Condorcet methods (Schulze, Ranked Pairs, Copeland, Minimax, Kemeny-Young). Choose one of them to see who beats whom head to head.")
	sc.setNote(resultRanking, false, "")
	if rcv {
		sc.rounds = newRoundsTable(*c)
		sc.RoundDetail.SetText(roundDetailHint)
		p := lastPass(res)
		cols := []column{{"Candidate", 160, fyne.TextAlignLeading}}
		opts := make([]string, len(p.Rounds))
		for i, rd := range p.Rounds {
			cols = append(cols, column{fmt.Sprintf("Round %d", rd.Number), 120, fyne.TextAlignTrailing})
			opts[i] = fmt.Sprintf("%d of %d", rd.Number, len(p.Rounds))
		}
		if len(res.Passes) > 1 {
			sc.setNote(resultRounds, true, fmt.Sprintf("Multi-pass IRV: %d passes, one per seat; the rounds of the last pass are shown.", len(res.Passes)))
		}
		sc.Rounds.fitColumns(cols, 420)
		sc.ChartRound.SetOptions(opts)
		sc.round = len(p.Rounds) - 1
		sc.ChartRound.SetSelectedIndex(sc.round)
		sc.Flow.Set(newFlowModel(*c))
	} else {
		sc.rounds = roundsTable{}
		sc.Rounds.setColumns(nil)
		sc.ChartRound.SetOptions(nil)
		sc.Chart.Set(nil, 0, "")
		sc.Flow.Set(flowModel{})
	}
	sc.Rounds.Refresh()
	sc.showPairwise()
	sc.Places.SetText(placesText(*c))
	sc.ballots = ballotPages{}
	sc.BallotList.Refresh()
	sc.BallotNote.SetText(sc.ballotNote())
	switch {
	case rcv:
		sc.Tabs.SelectIndex(resultRounds)
	case res.Pairwise != nil:
		sc.Tabs.SelectIndex(resultPairwise)
	default:
		sc.Tabs.SelectIndex(resultRanking)
	}
	sc.updateButtons()
}

func (sc *ResultsScreen) setNote(tab int, show bool, text string) {
	l := sc.notes[tab]
	if show {
		l.SetText(text)
		l.Show()
	} else {
		l.Hide()
	}
}

// showRound draws the chart for the round picked ("3 of 5").
func (sc *ResultsScreen) showRound(v string) {
	if sc.count == nil || !ranked(sc.count.Result.Method) {
		return
	}
	var n int
	if _, err := fmt.Sscanf(v, "%d of", &n); err != nil {
		return
	}
	p := lastPass(sc.count.Result)
	if n < 1 || n > len(p.Rounds) {
		return
	}
	sc.round = n - 1
	rd := p.Rounds[sc.round]
	var bars []bar
	won := map[int]bool{}
	for _, w := range sc.count.Result.Winners {
		won[w] = true
	}
	scale := rd.Threshold
	for _, v := range rd.Tally {
		if v.Votes.Cmp(scale) > 0 {
			scale = v.Votes
		}
	}
	for _, cand := range placeOrder(*sc.count) {
		v, ok := rd.VotesOf(cand)
		if !ok {
			continue
		}
		label := sc.count.Contest.Candidates[cand].Name
		if r := []rune(label); len(r) > 24 {
			label = string(r[:23]) + "…"
		}
		text := report.Votes(v) + "  " + report.Share(sc.count.Rules, p.Rounds, sc.round, cand)
		if oneOfInts(cand, rd.Elected) {
			text += "  elected"
		} else if oneOfInts(cand, rd.Eliminated) {
			text += "  eliminated"
		}
		bars = append(bars, bar{Label: label, Value: ratio(v, scale), Text: text, Color: candidateColor(cand), Bold: won[cand]})
	}
	caption := fmt.Sprintf("Round %d: %s active ballots, threshold %s (red line), %s inactive", rd.Number, report.Votes(rd.Active), report.Votes(rd.Threshold), report.Votes(rd.Inactive.Total()))
	sc.Chart.Set(bars, ratio(rd.Threshold, scale), caption)
}

// stepRound shows the previous or next round in the chart.
func (sc *ResultsScreen) stepRound(d int) {
	n := len(sc.ChartRound.Options)
	if n == 0 {
		return
	}
	sc.ChartRound.SetSelectedIndex(min(max(sc.round+d, 0), n-1))
}

// saveRules stores the method and rules chosen as the election's own.
func (sc *ResultsScreen) saveRules() {
	method := string(methodByLabel(sc.Method.Selected))
	if _, err := sc.Rules.Rules(); err != nil {
		sc.s.fail("Cannot save: the rules are not valid", err)
		return
	}
	rules := sc.Rules.Values()
	known := false
	for _, m := range app.Methods {
		known = known || m == method
	}
	if !known {
		sc.s.fail("Cannot save the method", app.Errorf(app.CodeInvalid, "%s can be used to count but not stored as an election's method (stored methods: %s)", methodLabel(tally.Method(method)), strings.Join(app.Methods, ", ")))
		return
	}
	name, base := sc.election.Name, sc.election.Version
	sc.s.doHint("Cannot save the counting method", lifecycleHint, func(ctx context.Context) error {
		return sc.s.svc.UpdateElection(ctx, sc.s.actor(), name, base, app.ElectionChanges{Method: &method, Rules: &rules})
	}, func() { sc.s.changed() })
}

// roundDetailHint is the detail line before a cell is selected.
const roundDetailHint = "Select a cell (click it, or arrows and Space) to read it whole here."

// showRoundCell writes the selected cell of the round table whole, with
// its row and round, below the table.
func (sc *ResultsScreen) showRoundCell(id widget.TableCellID) {
	t := sc.rounds
	if id.Row < 0 || id.Row >= len(t.rows) || id.Col < 1 || id.Col > len(t.cells[id.Row]) {
		return
	}
	text := strings.ReplaceAll(t.cells[id.Row][id.Col-1], "\n", "; ")
	if text == "" {
		text = "nothing"
	}
	sc.RoundDetail.SetText(fmt.Sprintf("%s, %s: %s", sc.Rounds.cols[id.Col].Title, t.rows[id.Row], text))
}
