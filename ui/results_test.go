package ui

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"votedesk/app"
	"votedesk/tally"
)

// mayorBallots are nine ballots whose IRV count takes two rounds: first
// choices Ann 4, Bob 3, Cid 2; Cid's voters prefer Bob, who wins.
var mayorBallots = [][]string{{"Ann"}, {"Ann"}, {"Ann"}, {"Ann", "Bob"}, {"Bob"}, {"Bob"}, {"Bob", "Ann"}, {"Cid", "Bob"}, {"Cid", "Bob"}}

// mayor creates the election "Mayor" with mayorBallots cast.
func mayor(h *harness, secret bool) {
	h.must(h.svc.CreateElection(h.ctx, "Olivia", "Mayor", "", secret))
	h.must(h.svc.AddCandidates(h.ctx, "Olivia", "Mayor", "Ann", "Bob", "Cid"))
	var voters []app.VoterEntry
	for i := range mayorBallots {
		voters = append(voters, app.VoterEntry{Name: "Voter " + strconv.Itoa(i+1)})
	}
	h.must(h.svc.AddVoters(h.ctx, "Olivia", "Mayor", voters...))
	h.must(h.svc.LaunchElection(h.ctx, "Olivia", "Mayor"))
	for i, b := range mayorBallots {
		var r []app.Ranking
		for j, c := range b {
			r = append(r, app.Ranking{Candidate: c, Rank: j + 1})
		}
		_, err := h.svc.CastBallot(h.ctx, "Olivia", app.Cast{Election: "Mayor", Voter: voters[i].Name, Rankings: r})
		h.must(err)
	}
}

func openResults(h *harness, user string) *ResultsScreen {
	h.signIn(user)
	h.sh.OpenElection("Mayor", tabResults)
	h.wait()
	return h.sh.Election.Results
}

func TestResultsIRV(t *testing.T) {
	h := newHarness(t, nil)
	h.owner()
	mayor(h, false)
	r := openResults(h, "Olivia")
	if r.count == nil {
		t.Fatal("opening the results did not count")
	}
	want := "Winner: Bob — elected in round 2 of 2 with 5 of 9 active votes (55.55%)"
	if r.Banner.Text != want {
		t.Errorf("banner %q, want %q", r.Banner.Text, want)
	}
	if r.pairwise.Visible() || !r.notes[resultPairwise].Visible() {
		t.Error("the Pairwise tab of an IRV count shows empty matrices instead of its note")
	}
	if r.Tabs.SelectedIndex() != resultRounds {
		t.Errorf("tab %d shown", r.Tabs.SelectedIndex())
	}
	t.Run("RoundsTable", func(t *testing.T) {
		rows := strings.Join(r.rounds.rows, "|")
		if rows != "Bob|Ann|Cid|Active ballots|Threshold|Transfers" {
			t.Errorf("rows %s", rows)
		}
		if got := r.rounds.cells[0][1]; got != "5 (55.55%) +2 · elected" {
			t.Errorf("Bob round 2: %q", got)
		}
		if got := r.rounds.cells[2][0]; got != "2 (22.22%) · eliminated" {
			t.Errorf("Cid round 1: %q", got)
		}
		if got := r.rounds.cells[5][0]; got != "Cid to Bob: 2" {
			t.Errorf("transfers round 1: %q", got)
		}
		h.assertGolden("results_irv.xml")
	})
	t.Run("ChartPerRound", func(t *testing.T) {
		r.Tabs.SelectIndex(resultChart)
		r.stepRound(-1)
		if len(r.Chart.bars) != 3 || r.Chart.bars[2].Text != "2  22.22%  eliminated" {
			t.Errorf("round 1 bars %+v", r.Chart.bars)
		}
		r.stepRound(1)
		if len(r.Chart.bars) != 2 || !r.Chart.bars[0].Bold {
			t.Errorf("round 2 bars %+v", r.Chart.bars)
		}
	})
	t.Run("Flow", func(t *testing.T) {
		m := r.Flow.model
		if len(m.nodes) != 2 || len(m.links) != 3 {
			t.Fatalf("flow: %d columns, %d links", len(m.nodes), len(m.links))
		}
		var transfer *flowLink
		for i, l := range m.links {
			if l.from != l.to {
				transfer = &m.links[i]
			}
		}
		if transfer == nil || transfer.from != 2 || transfer.to != 1 {
			t.Errorf("transfer link %+v", transfer)
		}
	})
	t.Run("ExportJSONCSVAndHTML", func(t *testing.T) {
		var js, csv, html bytes.Buffer
		h.must(r.Export(&js, "json"))
		h.must(r.Export(&csv, "csv"))
		h.must(r.Export(&html, "html"))
		if !strings.Contains(html.String(), "<svg") || !strings.Contains(html.String(), "Bob") {
			t.Errorf("HTML report:\n%.600s", html.String())
		}
		if !strings.Contains(js.String(), `"elected" : "Bob"`) || !strings.Contains(js.String(), `"contest" : "Mayor"`) {
			t.Errorf("JSON report:\n%.600s", js.String())
		}
		if !strings.Contains(csv.String(), "Bob") || !strings.Contains(csv.String(), "Eliminated") {
			t.Errorf("CSV report:\n%.600s", csv.String())
		}
	})
	t.Run("F5Recounts", func(t *testing.T) {
		before := r.gen
		h.win.Canvas().OnTypedKey()(&fyneKeyF5)
		h.wait()
		if r.gen != before+1 {
			t.Error("F5 did not count again")
		}
	})
}

func TestResultsMethods(t *testing.T) {
	h := newHarness(t, nil)
	h.owner()
	mayor(h, false)
	r := openResults(h, "Olivia")
	t.Run("Schulze", func(t *testing.T) {
		r.Method.SetSelected(methodLabel(tally.Schulze))
		test.Tap(r.Count)
		h.wait()
		if r.Tabs.SelectedIndex() != resultPairwise || r.pairwiseRows() != 3 || !r.pairwise.Visible() {
			t.Fatalf("tab %d, %d matrix rows", r.Tabs.SelectedIndex(), r.pairwiseRows())
		}
		// Bob over Ann: ballots 5-9 rank Bob above Ann; Ann over Bob: 1-4.
		if got := r.prefCell(1, 1); got != "5" {
			t.Errorf("Bob over Ann %q", got)
		}
		if !r.prefBold(1, 1) || r.prefBold(0, 2) {
			t.Error("wins not in bold")
		}
		// "Strongest paths" is the matrix the command line and the HTML
		// report show under that name (the JSON's strongestPaths).
		sp := r.count.Result.Pairwise.StrongestPaths
		for i := range sp {
			for j := range sp[i] {
				if want := strconv.FormatInt(sp[i][j], 10); i != j && r.pathCell(i, j+1) != want {
					t.Errorf("strongest path %d→%d shown %q, the reports say %s", i, j, r.pathCell(i, j+1), want)
				}
			}
		}
		if !strings.Contains(r.Banner.Text, "Bob") || !strings.Contains(r.Places.Text, "1st\tBob") {
			t.Errorf("banner %q, places %q", r.Banner.Text, r.Places.Text)
		}
		if !strings.Contains(r.notes[resultRounds].Text, "ranked-choice methods") || !r.notes[resultRounds].Visible() {
			t.Error("the rounds tab does not explain why it is empty")
		}
		h.assertGolden("results_schulze.xml")
	})
	t.Run("Borda", func(t *testing.T) {
		r.Method.SetSelected(methodLabel(tally.Borda))
		test.Tap(r.Count)
		h.wait()
		if r.Tabs.SelectedIndex() != resultRanking || !strings.Contains(r.Places.Text, "(score ") {
			t.Errorf("tab %d, places %q", r.Tabs.SelectedIndex(), r.Places.Text)
		}
		if !r.ExportCSV.Disabled() {
			t.Error("RCTab CSV offered for Borda")
		}
	})
	t.Run("STVSeats", func(t *testing.T) {
		r.Method.SetSelected(methodLabel(tally.STV))
		if r.Rules.Seats.Text != "2" {
			t.Errorf("seats %q for STV", r.Rules.Seats.Text)
		}
		test.Tap(r.Count)
		h.wait()
		if !strings.HasPrefix(r.Banner.Text, "Elected (2 seats): ") {
			t.Errorf("banner %q", r.Banner.Text)
		}
	})
	t.Run("ErrBadRule", func(t *testing.T) {
		r.Method.SetSelected(methodLabel(tally.IRV))
		r.Rules.Seats.SetText("1")
		for _, f := range r.Rules.fields {
			if f.name == "decimalPlacesForVoteArithmetic" {
				f.set("99")
			}
		}
		gen := r.gen
		test.Tap(r.Count)
		h.wait()
		h.assertDialog("the rules are not valid", "decimalPlacesForVoteArithmetic")
		h.closeDialogs()
		if r.gen != gen {
			t.Error("counted with invalid rules")
		}
	})
	t.Run("ErrRulesContradict", func(t *testing.T) {
		r.Rules.Set(map[string]string{"numberOfWinners": "2"})
		test.Tap(r.Count)
		h.wait()
		h.assertDialog("Cannot count Mayor", "winnerElectionMode")
		h.closeDialogs()
		r.Rules.Set(nil)
	})
}

func TestResultsSaveMethod(t *testing.T) {
	h := newHarness(t, nil)
	h.owner()
	h.must(h.svc.CreateElection(h.ctx, "Olivia", "Mayor", "", false))
	h.must(h.svc.AddCandidates(h.ctx, "Olivia", "Mayor", "Ann", "Bob"))
	r := openResults(h, "Olivia")
	r.Method.SetSelected(methodLabel(tally.Schulze))
	r.Rules.Set(map[string]string{"tiebreakMode": "random", "randomSeed": "7"})
	test.Tap(r.SaveRules)
	h.wait()
	e, _ := h.svc.Election(h.ctx, "Olivia", "Mayor")
	if e.Method != "schulze" || e.Rules["tiebreakMode"] != "random" || e.Rules["randomSeed"] != "7" || len(e.Rules) != 2 {
		t.Errorf("stored method %q rules %v", e.Method, e.Rules)
	}
	// A new screen starts with the stored method and rules.
	h.sh.OpenElection("Mayor", tabResults)
	h.wait()
	r = h.sh.Election.Results
	if r.Method.Selected != methodLabel(tally.Schulze) || r.Rules.Values()["tiebreakMode"] != "random" {
		t.Errorf("reopened with %q %v", r.Method.Selected, r.Rules.Values())
	}
}

// TestResultsStandAsTheElectionStands: the Results tab says how final the
// count is, as the HTML report and the command line do, at every step from
// voting to certification.
func TestResultsStandAsTheElectionStands(t *testing.T) {
	h := newHarness(t, nil)
	h.owner()
	mayor(h, false)
	steps := []struct {
		step  func()
		label string
		final bool
	}{
		{func() {}, "PRELIMINARY: voting is still open", false},
		{func() { h.must(h.svc.CloseElection(h.ctx, "Olivia", "Mayor")) }, "UNOFFICIAL: the election is not finalized yet", false},
		{func() { h.must(h.svc.FinalizeElection(h.ctx, "Olivia", "Mayor")) }, "FINAL: the election was finalized (certified) on ", true},
	}
	for _, st := range steps {
		st.step()
		r := openResults(h, "Olivia")
		if r.count == nil || !r.bannerBox.Visible() {
			t.Fatalf("%s: not counted", st.label)
		}
		if !strings.HasPrefix(r.Standing.Text, st.label) {
			t.Errorf("standing %q, want %q…", r.Standing.Text, st.label)
		}
		if want := map[bool]widget.Importance{false: widget.WarningImportance, true: widget.SuccessImportance}[st.final]; r.Standing.Importance != want {
			t.Errorf("%s: importance %v, want %v", st.label, r.Standing.Importance, want)
		}
		if r.count.Standing.String() != r.Standing.Text {
			t.Errorf("shown %q, counted %q", r.Standing.Text, r.count.Standing)
		}
	}
}

func TestResultsSecretBallots(t *testing.T) {
	h := newHarness(t, nil)
	h.owner()
	h.addUser("Ursula", app.RoleUser)
	h.addUser("Audrey", app.RoleAuditor)
	mayor(h, true)
	t.Run("ErrWithheldWhilePollsOpen", func(t *testing.T) {
		r := openResults(h, "Ursula")
		if r.count != nil {
			t.Error("a USER sees a count of an open secret election")
		}
	})
	h.must(h.svc.CloseElection(h.ctx, "Olivia", "Mayor"))
	for _, c := range []struct {
		name  string
		user  string
		sees  bool
		noted string
	}{
		{"HiddenBelowAuditor", "Ursula", false, "shows no voter names"},
		{"ShownToAuditor", "Audrey", true, "you see voter names"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := openResults(h, c.user)
			r.Tabs.SelectIndex(resultBallots)
			test.Tap(r.LoadBallots)
			h.wait()
			if r.ballots.Len() != len(mayorBallots) {
				t.Fatalf("%d ballots", r.ballots.Len())
			}
			named := false
			for i := range r.ballots.Len() {
				named = named || strings.HasPrefix(r.ballotCell(i, 1), "Voter ")
			}
			if named != c.sees {
				t.Errorf("voter names shown = %v", named)
			}
			if !strings.Contains(r.BallotNote.Text, c.noted) {
				t.Errorf("note %q", r.BallotNote.Text)
			}
			// A voter's code, typed as a voter might copy it, finds its
			// ballot.
			last := r.ballots.Len() - 1
			code := r.ballotCell(last, 0)
			typed := strings.ToLower(strings.ReplaceAll(code, "-", " "))
			r.FindCode.SetText(typed)
			r.FindCode.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
			if want := fmt.Sprintf("%s is ballot %d of %d", code, last+1, r.ballots.Len()); r.Found.Text != want {
				t.Errorf("found %q, want %q", r.Found.Text, want)
			}
			// Anything else is looked for as a source id, which a secret
			// election withholds below AUDITOR.
			withheld := map[bool]string{false: "its ballots' source ids are withheld from your role", true: "No ballot with the code or source id"}[c.sees]
			for typed, says := range map[string]string{"ZZZZ-ZZZZ-ZZZZ": withheld, "hello": withheld} {
				r.FindCode.SetText(typed)
				r.FindCode.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
				h.wait()
				if !strings.Contains(r.Found.Text, says) {
					t.Errorf("%q: found %q", typed, r.Found.Text)
				}
			}
		})
	}
}

func TestResultsNothingToCount(t *testing.T) {
	h := newHarness(t, nil)
	h.owner()
	h.must(h.svc.CreateElection(h.ctx, "Olivia", "Mayor", "", false))
	r := openResults(h, "Olivia")
	if r.count != nil || len(h.overlays()) != 0 || !strings.HasPrefix(r.Status.Text, "No candidates yet") {
		t.Errorf("no candidates: counted %v, dialogs %q, status %q", r.count != nil, h.dialogText(), r.Status.Text)
	}
	h.must(h.svc.AddCandidates(h.ctx, "Olivia", "Mayor", "Ann", "Bob"))
	h.sh.Refresh()
	h.wait()
	if r.count != nil || r.bannerBox.Visible() || !strings.HasPrefix(r.Status.Text, "No ballots yet") {
		t.Errorf("no ballots: counted %v, banner %q, status %q", r.count != nil, r.Banner.Text, r.Status.Text)
	}
}

// TestRoundsTableFitsRealCounts: at realistic vote counts the round table
// cuts nothing: every column is as wide as its widest line, the Transfers
// row is as tall as its lines, elected and eliminated cells are coloured as
// well as worded, and a selected cell is read whole below the table.
func TestRoundsTableFitsRealCounts(t *testing.T) {
	h := newHarness(t, nil)
	h.owner()
	mayor(h, false)
	r := openResults(h, "Olivia")
	c := *r.count
	c.Contest = tally.Contest{Name: "Mayor", Candidates: []tally.Candidate{
		{Name: "Alexandria Ocasio-Whitfield"}, {Name: "Bartholomew Kingsley"}, {Name: "Cid"}, {Name: "Dee"}, {Name: "Eun-ji Park"}}}
	c.Ballots = &tally.BallotSet{}
	for _, b := range []struct {
		n     uint32
		ranks []uint16
	}{{81234, []uint16{0}}, {70321, []uint16{1}}, {23897, []uint16{2, 1}}, {20225, []uint16{3, 0}}, {9120, []uint16{4, 2, 3}}, {5012, []uint16{4}}} {
		var marks []tally.Mark
		for i, cand := range b.ranks {
			marks = append(marks, tally.Mark{Rank: uint16(i + 1), Candidate: cand})
		}
		h.must(c.Ballots.Add("", b.n, marks))
	}
	res, err := tally.Tabulate(c.Contest, c.Ballots, tally.IRV, tally.DefaultRules())
	h.must(err)
	c.Result = res
	r.show(&c, 0)

	g := r.Rounds
	size := theme.TextSize()
	measure := func(s string, bold bool) float32 {
		return fyne.MeasureText(s, size, fyne.TextStyle{Bold: bold}).Width
	}
	rows, cols := g.Length()
	transfersRow := len(r.rounds.rows) - 1
	for col := range cols {
		for row := range rows {
			for line := range strings.SplitSeq(g.cell(row, col), "\n") {
				w := measure(line, g.bold(row, col))
				if w > g.cols[col].Width {
					t.Errorf("row %q, column %q: %q is %.0f wide in a %.0f column", r.rounds.rows[row], g.cols[col].Title, line, w, g.cols[col].Width)
				}
			}
		}
	}
	if lines := strings.Count(r.rounds.cells[transfersRow][0], "\n") + 1; lines < 2 {
		t.Errorf("round 1 transfers %q: want one line per transfer", r.rounds.cells[transfersRow][0])
	}
	elected, eliminated := 0, 0
	for row := range r.rounds.rows {
		for col := 1; col < cols; col++ {
			cell := r.rounds.cells[row][col-1]
			imp := g.Importance(row, col)
			switch {
			case strings.Contains(cell, "elected") && !strings.Contains(cell, "eliminated"):
				elected++
				if imp != widget.SuccessImportance {
					t.Errorf("%q is not marked elected (%v)", cell, imp)
				}
			case strings.Contains(cell, "eliminated"):
				eliminated++
				if imp != widget.DangerImportance {
					t.Errorf("%q is not marked eliminated (%v)", cell, imp)
				}
			default:
				if imp != widget.MediumImportance {
					t.Errorf("%q is marked %v", cell, imp)
				}
			}
		}
	}
	if elected != 1 || eliminated < 2 {
		t.Errorf("%d elected and %d eliminated cells", elected, eliminated)
	}
	g.Select(widget.TableCellID{Row: transfersRow, Col: 1})
	if got := r.RoundDetail.Text; !strings.HasPrefix(got, "Round 1, Transfers: ") || !strings.Contains(got, "; ") {
		t.Errorf("detail of round 1's transfers: %q", got)
	}
}

// TestResultsBallotsReadByPage: the ballots tab lists a long election's
// ballots a page at a time: the first page with the list, a later one
// when a row of it is first shown ("…" until then). A page that can no
// longer be read as listed (here the election was renamed) empties the
// list and says why, instead of showing rows of another state.
func TestResultsBallotsReadByPage(t *testing.T) {
	h := newHarness(t, nil)
	h.owner()
	mayor(h, false)
	n := 2*ballotPage + 10
	cvrs := make([]app.ImportedBallot, n)
	for i := range cvrs {
		cvrs[i] = app.ImportedBallot{SourceID: fmt.Sprintf("cvr-%04d", i), Rankings: []app.Ranking{{Candidate: "Bob", Rank: 1}}}
	}
	if _, err := h.svc.ImportBallots(h.ctx, "Olivia", "Mayor", app.SourceCVR, cvrs, nil); err != nil {
		t.Fatal(err)
	}
	r := openResults(h, "Olivia")
	r.Tabs.SelectIndex(resultBallots)
	test.Tap(r.LoadBallots)
	h.wait()
	total := len(mayorBallots) + n
	if r.ballots.Len() != total || len(r.ballots.pages) != 1 {
		t.Fatalf("listed %d ballots with %d pages read, want %d with the first", r.ballots.Len(), len(r.ballots.pages), total)
	}
	// A voter's code on a page not read yet is found all the same (the
	// imported ballots, whose keys sort first, fill pages 0 to 2).
	code := r.ballots.list.Code(n + 2)
	r.FindCode.SetText(code)
	r.FindCode.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if want := fmt.Sprintf("%s is ballot %d of %d", code, n+3, total); r.Found.Text != want {
		t.Errorf("found %q, want %q", r.Found.Text, want)
	}
	row := n - 1 // the last imported ballot, on page 2
	if got := r.ballotCell(row, 3); got != "…" {
		t.Errorf("a row of a page not read yet shows %q", got)
	}
	h.wait()
	if got := r.ballotCell(row, 3); got != "1 Bob" || len(r.ballots.pages) < 2 {
		t.Errorf("the row, once its page is read, shows %q; %d pages read", got, len(r.ballots.pages))
	}
	if got := r.ballotCell(n+2, 0); got != code {
		t.Errorf("the voter's row shows %q, found as %q", got, code)
	}
	// A cast vote record's id, printed on its paper, finds its ballot.
	r.FindCode.SetText(" cvr-0300 ")
	r.FindCode.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	h.wait()
	if want := fmt.Sprintf("%s is ballot 301 of %d, source id %q", r.ballots.list.Code(300), total, "cvr-0300"); r.Found.Text != want {
		t.Errorf("found %q, want %q", r.Found.Text, want)
	}

	// Listed again, near row 300: page 2 is not read until shown, and by
	// then the election was renamed.
	test.Tap(r.LoadBallots)
	h.wait()
	if _, read := r.ballots.pages[2]; read {
		t.Fatal("page 2 read before it was shown")
	}
	h.must(h.svc.RenameElection(h.ctx, "Olivia", "Mayor", "Mayor 2026"))
	r.ballotCell(2*ballotPage+5, 0)
	h.wait()
	if r.ballots.Len() != 0 || !strings.Contains(h.dialogText(), "Mayor") {
		t.Errorf("after the election was renamed: %d ballots still listed, dialog %q", r.ballots.Len(), h.dialogText())
	}
}
