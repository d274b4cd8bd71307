package ui

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"votedesk/app"
	"votedesk/tally/raire"
	"votedesk/tally/rla"
	"votedesk/ui/uitest"
)

// rlaSeed is a public seed as dice would roll it: 20 digits.
const rlaSeed = "31415926535897932384"

var rlaCandidates = []string{"Ada Ames", "Ben Burke", "Cy Cole", "Dee Dunn"}

// rlaElection is a closed instant-runoff election of cast vote records in
// four batches, the paper they were read from (by batch, then position),
// and its ballot manifest as a CSV file in the user's Documents.
type rlaElection struct {
	name     string
	manifest rla.Manifest
	path     string
	paper    map[string][][]app.Ranking
}

// rank is a ballot ranking names in order, one per rank.
func rank(names ...string) []app.Ranking {
	out := make([]app.Ranking, len(names))
	for i, n := range names {
		out[i] = app.Ranking{Candidate: n, Rank: i + 1}
	}
	return out
}

// newRLAElection stores, through the service, a closed election that Ada
// wins clearly: perBatch ballots in each of four batches, some with a
// skipped rank and some with two marks at one rank.
func newRLAElection(h *harness, perBatch int) *rlaElection {
	h.t.Helper()
	home := h.t.TempDir()
	h.t.Setenv("HOME", home)
	e := &rlaElection{name: "Council", paper: map[string][][]app.Ranking{}}
	h.must(h.svc.CreateElection(h.ctx, "Olivia", e.name, "", false))
	h.must(h.svc.AddCandidates(h.ctx, "Olivia", e.name, rlaCandidates...))
	h.must(h.svc.LaunchElection(h.ctx, "Olivia", e.name))
	a, b, c, d := rlaCandidates[0], rlaCandidates[1], rlaCandidates[2], rlaCandidates[3]
	rng := rand.New(rand.NewPCG(5, 9))
	var in []app.ImportedBallot
	var batches []rla.Batch
	for k := range 4 {
		batch := fmt.Sprintf("Box %d", k+1)
		batches = append(batches, rla.Batch{Container: "Vault A", Tabulator: fmt.Sprintf("T%d", k%2+1), Name: batch, Ballots: perBatch})
		for i := range perBatch {
			var r []app.Ranking
			switch x := rng.IntN(100); {
			case x < 42:
				r = rank(a, b)
			case x < 52:
				r = []app.Ranking{{Candidate: a, Rank: 1}, {Candidate: c, Rank: 3}} // the second rank skipped
			case x < 72:
				r = rank(b)
			case x < 78:
				r = []app.Ranking{{Candidate: b, Rank: 1}, {Candidate: a, Rank: 2}, {Candidate: c, Rank: 2}} // two marks second
			case x < 90:
				r = rank(c, a, b)
			default:
				r = rank(d, b, a)
			}
			e.paper[batch] = append(e.paper[batch], r)
			in = append(in, app.ImportedBallot{SourceID: fmt.Sprint(k*perBatch + i + 1), Batch: batch, Rankings: r})
		}
	}
	_, err := h.svc.ImportBallots(h.ctx, "Olivia", e.name, app.SourceCVR, in, nil)
	h.must(err)
	h.must(h.svc.CloseElection(h.ctx, "Olivia", e.name))
	e.manifest, err = rla.NewManifest(batches)
	h.must(err)
	docs := filepath.Join(home, "Documents")
	h.must(os.MkdirAll(docs, 0o755))
	e.path = filepath.Join(docs, "manifest.csv")
	f, err := os.Create(e.path)
	h.must(err)
	h.must(e.manifest.WriteCSV(f))
	h.must(f.Close())
	return e
}

// paperOf is the paper ballot of a draw.
func (e *rlaElection) paperOf(d app.AuditDraw) []app.Ranking {
	return e.paper[d.Batch.Name][d.Draw.Position-1]
}

// startAudit starts an audit of e through the service, as Olivia.
func (e *rlaElection) startAudit(h *harness) app.Audit {
	h.t.Helper()
	au, err := h.svc.StartAudit(h.ctx, "Olivia", e.name, app.AuditSetup{Kind: rla.Comparison, RiskLimit: 0.05, Seed: rlaSeed, Manifest: e.manifest})
	h.must(err)
	return au
}

// enterMarks enters a paper ballot's marks as a board member does: the
// candidate's number typed at each rank, More marks ticked for a second,
// and each further one typed into the drop-down that then appears below.
func enterMarks(t *testing.T, re *RankEntry, marks []app.Ranking) {
	t.Helper()
	used := map[int]bool{}
	for _, m := range marks {
		row := re.Rows[m.Rank-1]
		digit := rune('1' + slices.Index(rlaCandidates, m.Candidate))
		if !used[m.Rank] {
			used[m.Rank] = true
			row.Mark.TypedRune(digit)
			continue
		}
		if !row.More.Checked {
			test.Tap(row.More)
		}
		row.Others[len(row.Others)-1].TypedRune(digit)
	}
}

// screenText is every text the window draws, dialogs included.
func screenText(h *harness) string {
	h.relayout()
	return strings.Join(uitest.Texts(h.win.Canvas()), "\n")
}

// openAudit signs in and opens the election's Audit tab.
func openAudit(h *harness, user, election string) *RiskAuditScreen {
	h.t.Helper()
	h.signIn(user)
	h.sh.OpenElection(election, tabAudit)
	h.wait()
	return h.sh.Election.RiskAudit
}

// TestAuditFromTheGUI starts an audit from the Audit tab (the seed
// checked under its field, the manifest chosen with the open dialog), then
// the audit board reads every draw by double entry through the entry's
// controls until the audit is confirmed; the cast vote record appears
// beside a reading only once both passes agree.
func TestAuditFromTheGUI(t *testing.T) {
	h := newHarness(t, nil)
	h.owner()
	e := newRLAElection(h, 40)
	ra := openAudit(h, "Olivia", e.name)
	if !ra.Start.Visible() || !strings.Contains(ra.Note.Text, "No audit of this election yet") {
		t.Fatalf("before an audit: start shown %v, note %q", ra.Start.Visible(), ra.Note.Text)
	}
	test.Tap(ra.Start)
	f := ra.StartForm
	t.Run("SeedCheckedUnderItsField", func(t *testing.T) {
		test.Type(f.Seed, "12345")
		if err := f.Seed.Validate(); err == nil || !strings.Contains(err.Error(), "at least 20") {
			t.Errorf("a 5-digit seed: %v", err)
		}
		f.Form.Submit()
		h.wait()
		if !f.Form.Error.Visible() || !strings.Contains(f.Form.Error.Text, "at least 20") {
			t.Errorf("starting with a short seed says %q", f.Form.Error.Text)
		}
		f.Seed.SetText(rlaSeed)
		if err := f.Seed.Validate(); err != nil {
			t.Errorf("the seed %s: %v", rlaSeed, err)
		}
	})
	t.Run("ManifestFromTheOpenDialog", func(t *testing.T) {
		test.Tap(f.ChooseManifest)
		op := h.sh.sess.opening
		op.Path.SetText(e.path)
		op.Path.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
		h.wait()
		if want := "160 ballots in 4 batches"; !strings.Contains(f.ManifestFile.Text, want) {
			t.Fatalf("manifest read: %q, want %q", f.ManifestFile.Text, want)
		}
	})
	t.Run("RefusalSaidInTheDialog", func(t *testing.T) {
		short := slices.Clone(e.manifest.Batches)
		short[0].Ballots = 30
		m, err := rla.NewManifest(short)
		h.must(err)
		good := f.manifest
		f.manifest = &m
		f.Form.Submit()
		h.wait()
		f.manifest = good
		if want := `batch "Box 1" of tabulator "T1" holds 40 cast vote records but the manifest counts 30`; f.Started != nil || !strings.Contains(f.Form.Error.Text, want) {
			t.Errorf("a manifest short of the records: started %v, the dialog says %q", f.Started != nil, f.Form.Error.Text)
		}
	})
	f.Form.Submit()
	h.wait()
	if f.Started == nil || ra.state == nil {
		t.Fatalf("the audit did not start: %q %s", f.Form.Error.Text, h.dialogText())
	}
	h.assertDialog("Audit started", "Ada Ames is the reported winner")
	h.closeDialogs()
	ov, b := ra.Overview, ra.Board
	if !strings.Contains(ov.Verdict.Text, "not read yet") || !ov.NextRound.Visible() || !ov.NextRound.Disabled() {
		t.Errorf("a new audit: verdict %q, next round shown %v, disabled %v", ov.Verdict.Text, ov.NextRound.Visible(), ov.NextRound.Disabled())
	}
	for _, want := range []string{"Burke wins", "Dunn wins", "NEB", "Rounds", "cannot be eliminated before"} {
		ra.ShowView(rlaOverview)
		if got := screenText(h); !strings.Contains(got, want) {
			t.Errorf("the overview does not show %q", want)
		}
	}

	rounds := 0
	for read := 0; ; read++ {
		if read > 500 {
			t.Fatal("the audit never ends")
		}
		if ra.state.Unread == 0 {
			if !nextRoundDue(ra.state) {
				break
			}
			rounds++
			test.Tap(ov.NextRound)
			ov.NextForm.Form.Submit()
			h.wait()
			continue
		}
		test.Tap(ov.ReadBallots)
		d := b.st.Draws[b.sel]
		paper := e.paperOf(d)
		for pass := 1; pass <= 2; pass++ {
			if b.pass != pass || b.Entry == nil {
				t.Fatalf("draw %d: pass %d, entry %v; want pass %d", b.sel+1, b.pass, b.Entry != nil, pass)
			}
			if got := screenText(h); strings.Contains(got, "Cast vote record") || strings.Contains(got, "discrepancy") {
				t.Fatalf("draw %d: the record shows before pass %d is saved:\n%s", b.sel+1, pass, got)
			}
			enterMarks(t, b.Entry, paper)
			if len(paper) == 0 {
				t.Fatal("a blank ballot")
			}
			test.Tap(b.Save)
			h.wait()
		}
		d = b.st.Draws[b.sel]
		if d.State != app.ReadAgreed || !slices.Equal(d.Reading.Rankings, paper) {
			t.Fatalf("draw %d after two passes: %s, read %v, paper %v", b.sel+1, d.State, d.Reading, paper)
		}
		if got := screenText(h); !strings.Contains(got, "Cast vote record") || !strings.Contains(got, "No discrepancy") {
			t.Fatalf("draw %d read: the record is not shown beside the paper:\n%s", b.sel+1, got)
		}
	}
	st := ra.state
	if !st.Status.Confirmed || !strings.HasPrefix(ov.Verdict.Text, "Confirmed") || st.Unread != 0 {
		t.Fatalf("after %d rounds: confirmed %v, verdict %q, unread %d", rounds+1, st.Status.Confirmed, ov.Verdict.Text, st.Unread)
	}
	if ov.NextRound.Disabled() == false {
		t.Error("next round offered after confirmation")
	}
	t.Logf("confirmed after %d draws in %d rounds, risk %.4f", len(st.Draws), len(st.Rounds), st.Status.Risk)
	t.Run("ExportReport", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "audit.html")
		ov.Save(path, "html")
		h.wait()
		h.closeDialogs()
		html, err := os.ReadFile(path)
		if err != nil || !strings.Contains(string(html), "Confirmed") {
			t.Errorf("the exported report: %v, %.200s", err, html)
		}
	})
}

// TestAuditSettlesDifferingPasses: a second pass that reads the paper
// otherwise than the first leads to the settle view, which shows both
// passes and no record; the record appears once the board settles.
func TestAuditSettlesDifferingPasses(t *testing.T) {
	h := newHarness(t, nil)
	h.owner()
	e := newRLAElection(h, 20)
	e.startAudit(h)
	ra := openAudit(h, "Olivia", e.name)
	ra.ShowView(rlaBoard)
	b := ra.Board
	b.NextUnread()
	paper := e.paperOf(b.st.Draws[b.sel])
	enterMarks(t, b.Entry, paper)
	test.Tap(b.Save)
	h.wait()
	wrong := rank(rlaCandidates[3])
	if paper[0].Candidate == rlaCandidates[3] {
		wrong = rank(rlaCandidates[2])
	}
	enterMarks(t, b.Entry, wrong)
	test.Tap(b.Save)
	h.wait()
	d := b.st.Draws[b.sel]
	if d.State != app.ReadDiffer || d.CVR != nil {
		t.Fatalf("two differing passes: %s, record %v", d.State, d.CVR)
	}
	got := screenText(h)
	for _, want := range []string{"The two passes differ", "Pass 1 (by Olivia)", "Pass 2 (by Olivia)", "Pass 1 is right", rlaCandidates[3]} {
		if !strings.Contains(got, want) {
			t.Errorf("the settle view does not show %q:\n%s", want, got)
		}
	}
	for _, never := range []string{"Cast vote record", "discrepancy", "overstates", "understates"} {
		if strings.Contains(got, never) {
			t.Errorf("before settling, the screen shows %q:\n%s", never, got)
		}
	}
	h.assertGolden("audit_settle.xml")
	test.Tap(b.TakeFirst)
	h.wait()
	d = b.st.Draws[b.sel]
	if d.State != app.ReadSettled || !slices.Equal(d.Reading.Rankings, paper) {
		t.Fatalf("settled with pass 1: %s, %v", d.State, d.Reading)
	}
	if got := screenText(h); !strings.Contains(got, "Cast vote record") || !strings.Contains(got, "settled the reading") {
		t.Errorf("after settling, no record beside the paper:\n%s", got)
	}
}

// TestAuditRights: a USER who does not manage the election sees no Start
// and no Next round but may read ballots on the board; an OBSERVER may not.
func TestAuditRights(t *testing.T) {
	h := newHarness(t, nil)
	h.owner()
	h.addUser("Ursula", app.RoleUser)
	h.addUser("Oscar", app.RoleObserver)
	e := newRLAElection(h, 20)
	ra := openAudit(h, "Ursula", e.name)
	if ra.Start.Visible() || !strings.Contains(ra.Note.Text, "owner or an ADMIN starts it") {
		t.Errorf("a USER is offered Start (%v); note %q", ra.Start.Visible(), ra.Note.Text)
	}
	e.startAudit(h)
	h.sh.Refresh()
	h.wait()
	if ra.Start.Visible() || ra.Overview.NextRound.Visible() {
		t.Errorf("a USER is offered Start (%v) or Next round (%v)", ra.Start.Visible(), ra.Overview.NextRound.Visible())
	}
	if got := screenText(h); strings.Contains(got, "Start an audit") || strings.Contains(got, "Next round") {
		t.Errorf("a USER's screen offers Start or Next round:\n%s", got)
	}
	ra.Overview.readBallots()
	if ra.Board.Entry == nil || !ra.Board.Save.Visible() {
		t.Error("a USER cannot read ballots on the audit board")
	}
	ra = openAudit(h, "Oscar", e.name)
	if ra.state == nil {
		t.Fatalf("an OBSERVER cannot see the audit: %q", ra.Note.Text)
	}
	ra.Overview.readBallots()
	if ra.Board.Entry != nil || ra.Board.Save.Visible() || !strings.Contains(ra.Board.Step.Text, "USE_APPLICATION") {
		t.Errorf("an OBSERVER is offered the entry: %q", ra.Board.Step.Text)
	}
}

// TestAuditKeyboardWalk reads one ballot by keyboard alone: Ctrl+Shift+A
// opens the audit, Enter on the Audit board button goes to the first draw
// to read with the keyboard in its first rank, digits pick the candidates,
// Tab moves on, Space ticks Two marks, Enter saves each pass, Enter on Next
// goes on, and Escape goes back to the list of draws.
func TestAuditKeyboardWalk(t *testing.T) {
	h := newHarness(t, nil)
	h.owner()
	e := newRLAElection(h, 20)
	e.startAudit(h)
	h.signIn("Olivia")
	h.sh.ShowScreen(screenElections)
	h.wait()
	h.sh.Elections.Select(e.name)
	h.sh.TypedShortcut(shortcutAudit)
	h.wait()
	if h.sh.Election == nil || h.sh.Election.tab() != tabAudit {
		t.Fatal("Ctrl+Shift+A does not open the election's audit")
	}
	ra := h.sh.Election.RiskAudit
	c := h.win.Canvas()
	key := func(name fyne.KeyName) {
		t.Helper()
		switch f := c.Focused(); {
		case name == fyne.KeyTab:
			c.FocusNext()
		case f == nil:
			t.Fatalf("%s with nothing focused", name)
		default:
			f.TypedKey(&fyne.KeyEvent{Name: name})
		}
		h.wait()
	}
	typeRune := func(r rune) {
		t.Helper()
		if r == ' ' {
			c.Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeySpace})
		}
		c.Focused().TypedRune(r)
	}
	c.Focus(ra.Overview.ReadBallots)
	key(fyne.KeyReturn)
	b := ra.Board
	if b.sel < 0 || b.Entry == nil || c.Focused() != b.Entry.First() {
		t.Fatalf("Enter on the audit board button: draw %d, focus on %T", b.sel, c.Focused())
	}
	draw := b.sel
	paper := e.paperOf(b.st.Draws[draw])
	// Rank by rank: a digit, then Tab past the rank's More marks (or Space
	// on it, then each further candidate's digit and Tab, and Tab past the
	// empty drop-down for yet another) to the next rank.
	walk := func() {
		t.Helper()
		byRank := map[int][]int{}
		last := 0
		for _, m := range paper {
			byRank[m.Rank] = append(byRank[m.Rank], slices.Index(rlaCandidates, m.Candidate)+1)
			last = max(last, m.Rank)
		}
		for r := 1; r <= last; r++ {
			marks := byRank[r]
			if len(marks) > 0 {
				typeRune(rune('0' + marks[0]))
			}
			key(fyne.KeyTab) // to More marks
			if len(marks) > 1 {
				typeRune(' ')
				for _, m := range marks[1:] {
					key(fyne.KeyTab) // to the drop-down for another candidate
					typeRune(rune('0' + m))
				}
				if len(marks) < len(rlaCandidates) {
					key(fyne.KeyTab) // past the empty one below
				}
			}
			key(fyne.KeyTab) // to the next rank
		}
		key(fyne.KeyReturn)
	}
	walk()
	if d := b.st.Draws[draw]; d.State != app.ReadOnce || b.pass != 2 || c.Focused() != b.Entry.First() {
		t.Fatalf("Enter after pass 1: %s, pass %d, focus on %T", d.State, b.pass, c.Focused())
	}
	walk()
	if d := b.st.Draws[draw]; d.State != app.ReadAgreed || c.Focused() != b.Next {
		t.Fatalf("Enter after pass 2: %s (paper %v, read %v), focus on %T", d.State, paper, d.Reading, c.Focused())
	}
	key(fyne.KeyReturn)
	if b.sel == draw || b.Entry == nil || c.Focused() != b.Entry.First() {
		t.Fatalf("Enter on Next: draw %d, focus on %T", b.sel+1, c.Focused())
	}
	key(fyne.KeyEscape)
	if c.Focused() != b.Draws {
		t.Errorf("Escape in the entry: focus on %T, want the list of draws", c.Focused())
	}
	// Escape from any of the board's buttons goes back to the list too.
	b.OpenDraw(draw)
	h.wait()
	for _, btn := range []*boardButton{b.Back, b.Next} {
		c.Focus(btn)
		key(fyne.KeyEscape)
		if c.Focused() != b.Draws || ra.Tabs.SelectedIndex() != rlaBoard {
			t.Errorf("Escape on %q: focus on %T, view %d; want the list of draws", btn.Text, c.Focused(), ra.Tabs.SelectedIndex())
		}
	}
	// Escape on the list goes to the overview, whose first button goes
	// back to the board: the two views are a key apart.
	key(fyne.KeyEscape)
	if ra.Tabs.SelectedIndex() != rlaOverview || c.Focused() != ra.Overview.ReadBallots {
		t.Fatalf("Escape on the list of draws: view %d, focus on %T; want the overview's Audit board button", ra.Tabs.SelectedIndex(), c.Focused())
	}
	key(fyne.KeyReturn)
	if ra.Tabs.SelectedIndex() != rlaBoard || b.Entry == nil || c.Focused() != b.Entry.First() {
		t.Errorf("Enter on the overview's Audit board button: view %d, focus on %T", ra.Tabs.SelectedIndex(), c.Focused())
	}
}

// TestAuditNextRound: when every draw is read and the risk is still above
// the limit (here the board reads the first draw's paper as Cy alone,
// which its record is not: a two-vote overstatement), the overview offers
// the next round; starting it draws more ballots for the board.
func TestAuditNextRound(t *testing.T) {
	h := newHarness(t, nil)
	h.owner()
	e := newRLAElection(h, 40)
	au := e.startAudit(h)
	st, err := h.svc.AuditState(h.ctx, "Olivia", e.name, au.ID)
	h.must(err)
	for i, d := range st.Draws {
		paper := e.paperOf(d)
		if i < 1 {
			paper = rank(rlaCandidates[2])
		}
		for pass := 1; pass <= 2 && !d.Repeat; pass++ {
			h.must(h.svc.RecordAuditReading(h.ctx, "Olivia", e.name, au.ID, d.Draw.Index, pass, paper, false))
		}
	}
	ra := openAudit(h, "Olivia", e.name)
	ov := ra.Overview
	if ra.state.Status.Confirmed || ov.NextRound.Disabled() {
		t.Fatalf("risk %.4f with three altered ballots: next round disabled %v; verdict %q", ra.state.Status.Risk, ov.NextRound.Disabled(), ov.Verdict.Text)
	}
	if got := screenText(h); !strings.Contains(got, "Next: round 2 draws") || !strings.Contains(got, "overstatements: 1 of two votes") {
		t.Errorf("the overview does not say what comes next or what was found:\n%s", got)
	}
	// Escalated with a round that still fits: the overview offers to sample
	// on instead, and the dialog says why, with the least round filled in.
	real := ra.state
	escalated := *real
	escalated.Status.FullHandCount, escalated.Status.NextRound, escalated.Status.Continue = true, 0, 12
	ov.show(&escalated)
	if ov.NextRound.Text != "Sample on instead…" || ov.NextRound.Disabled() || !strings.Contains(screenText(h), "sample on with round 2, of at least 12 ballots") {
		t.Errorf("escalated: button %q (disabled %v)\n%s", ov.NextRound.Text, ov.NextRound.Disabled(), screenText(h))
	}
	test.Tap(ov.NextRound)
	if f := ov.NextForm; f == nil || f.Draws.Text != "12" || !strings.Contains(screenText(h), "escalated to a full hand count") {
		t.Errorf("the dialog after escalating: %v\n%s", f, screenText(h))
	}
	h.closeDialogs()
	ov.show(real)
	if ov.NextRound.Text != "Next round…" {
		t.Errorf("not escalated: button %q", ov.NextRound.Text)
	}
	before := len(ra.state.Draws)
	test.Tap(ov.NextRound)
	f := ov.NextForm
	if want := strconv.Itoa(ra.state.Status.NextRound); f == nil || f.Draws.Text != want {
		t.Fatalf("the Start round dialog: %v, want the size %s filled in", f, want)
	}
	f.Draws.SetText("a few")
	f.Form.Submit()
	h.wait()
	if !strings.Contains(f.Form.Error.Text, `not "a few"`) || len(ra.state.Draws) != before {
		t.Fatalf("a size of \"a few\": the dialog says %q; %d draws (before %d)", f.Form.Error.Text, len(ra.state.Draws), before)
	}
	f.Draws.SetText(strconv.Itoa(ra.state.Status.NextRound))
	f.Form.Submit()
	h.wait()
	if len(ra.state.Rounds) != 2 || len(ra.state.Draws) <= before || ra.Board.Draws.Length == nil {
		t.Fatalf("after Next round: rounds %v, %d draws (before %d)", ra.state.Rounds, len(ra.state.Draws), before)
	}
	if rows, _ := ra.Board.Draws.Length(); rows != len(ra.state.Draws) || !ov.NextRound.Disabled() {
		t.Errorf("the board lists %d of %d draws; next round disabled %v", rows, len(ra.state.Draws), ov.NextRound.Disabled())
	}
}

// auditShots renders the audit screens for TestScreenshots: the start
// dialog, the overview part way through the first round, the board with an
// agreed reading that differs from its record, a difference to settle,
// and a second pass being entered.
func (h *harness) auditShots(dir string) {
	h.t.Helper()
	e := newRLAElection(h, 40)
	ra := openAudit(h, "Olivia", e.name)
	test.Tap(ra.Start)
	f := ra.StartForm
	test.Type(f.Seed, rlaSeed)
	f.ReadManifest(e.path)
	h.shot(dir, "16-audit-start")
	f.Form.Submit()
	h.wait()
	h.closeDialogs()
	st := ra.state
	au := st.Audit
	// The board has read the first eleven draws, one of them (draw 3)
	// otherwise than its record; draw 12's passes differ; draw 13 has one
	// pass.
	for i, d := range st.Draws[:13] {
		paper := e.paperOf(d)
		passes := [][]app.Ranking{paper, paper}
		switch i {
		case 2:
			paper = append(slices.Clone(paper[:1]), app.Ranking{Candidate: rlaCandidates[3], Rank: 2})
			passes = [][]app.Ranking{paper, paper}
		case 11:
			passes[1] = rank(rlaCandidates[2], rlaCandidates[0])
		case 12:
			passes = passes[:1]
		}
		for p, r := range passes {
			if !d.Repeat {
				h.must(h.svc.RecordAuditReading(h.ctx, "Olivia", e.name, au.ID, d.Draw.Index, p+1, r, false))
			}
		}
	}
	h.sh.Refresh()
	h.wait()
	ra.ShowView(rlaOverview)
	h.shot(dir, "17-audit-overview")
	h.relayout()
	ra.Overview.scroll.ScrollToBottom()
	h.shot(dir, "17b-audit-trees")
	ra.ShowView(rlaBoard)
	ra.Board.OpenDraw(2)
	h.shot(dir, "18-audit-board")
	ra.Board.OpenDraw(11)
	h.shot(dir, "19-audit-settle")
	ra.Board.OpenDraw(12)
	enterMarks(h.t.(*testing.T), ra.Board.Entry, e.paperOf(ra.state.Draws[12])[:1])
	h.shot(dir, "20-audit-second-pass")
}

// TestAuditFitsTheScreen: on a small laptop's screen, the audit's overview
// (trees included), the board with a ballot being entered, and the start
// dialog fit; what is long scrolls inside.
func TestAuditFitsTheScreen(t *testing.T) {
	h := newHarness(t, nil)
	h.owner()
	e := newRLAElection(h, 20)
	e.startAudit(h)
	ra := openAudit(h, "Olivia", e.name)
	h.win.Resize(screenSize)
	fits := h.fitsScreen
	ra.ShowView(rlaOverview)
	fits("the overview")
	h.assertGolden("audit_overview.xml")
	ra.Overview.readBallots()
	test.Tap(ra.Board.Entry.Rows[1].More)
	fits("the board")
	test.Tap(ra.Start)
	fits("the start dialog")
	h.closeDialogs()
}

// TestRankEntryOvervotes: a rank on which the paper shows three marks is
// read as three marks (as paper entry keys "1/2/3"), each candidate once,
// and a rank ticked for more marks without another candidate is refused.
func TestRankEntryOvervotes(t *testing.T) {
	test.NewTempApp(t)
	re := newRankEntry(rlaCandidates, &boardKeys{})
	w := test.NewTempWindow(t, re.content)
	w.Resize(fyne.NewSize(700, 500))
	marks := []app.Ranking{{Candidate: "Cy Cole", Rank: 1}, {Candidate: "Ada Ames", Rank: 2}, {Candidate: "Ben Burke", Rank: 2}, {Candidate: "Dee Dunn", Rank: 2}}
	enterMarks(t, re, marks)
	row := re.Rows[1]
	if len(row.Others) != 3 || row.Others[2].SelectedIndex() >= 0 {
		t.Fatalf("after two more candidates at the 2nd choice, %d drop-downs, want 3 (the last empty, for the fourth candidate)", len(row.Others))
	}
	row.Others[2].TypedRune('3')
	if len(row.Others) != 3 {
		t.Fatalf("with every candidate marked at a rank, %d drop-downs, want no empty one more", len(row.Others))
	}
	row.Others[2].TypedRune('-')
	got, notFound, err := re.Rankings()
	if err != nil || notFound || !slices.Equal(got, marks) {
		t.Fatalf("Rankings() = %v, %v, %v; want %v", got, notFound, err, marks)
	}
	row.Others[1].TypedRune('1') // Ada again, already the rank's first mark
	if _, _, err := re.Rankings(); err == nil || !strings.Contains(err.Error(), "names Ada Ames twice") {
		t.Errorf("a candidate chosen twice at a rank: %v", err)
	}
	test.Tap(row.More) // untick: the other marks go
	test.Tap(row.More) // tick again: one empty drop-down
	if len(row.Others) != 1 || row.Others[0].SelectedIndex() >= 0 {
		t.Fatalf("ticked again: %d drop-downs", len(row.Others))
	}
	if _, _, err := re.Rankings(); err == nil || !strings.Contains(err.Error(), "2nd choice is ticked for more marks") {
		t.Errorf("ticked without another candidate: %v", err)
	}
	test.Tap(re.NotFound)
	if row.More.Disabled() == false || row.Others[0].Disabled() == false {
		t.Error("not found leaves the marks enabled")
	}
	if got, notFound, err := re.Rankings(); got != nil || !notFound || err != nil {
		t.Errorf("not found: %v, %v, %v", got, notFound, err)
	}
}

// TestAuditFindingsWords: a read ballot's discrepancies are said once per
// kind, naming the assertions each touches, and coloured by what they mean
// for the reported outcome: an overstatement (evidence against it) in the
// danger colour, an understatement alone as a warning.
func TestAuditFindingsWords(t *testing.T) {
	as := []raire.Assertion{{Type: raire.NEB, Winner: 0, Loser: 1}, {Type: raire.NEB, Winner: 0, Loser: 2}, {Type: raire.NEB, Winner: 0, Loser: 3}}
	st := &app.AuditState{Audit: app.Audit{Kind: rla.Comparison, Candidates: rlaCandidates, Assertions: as}}
	paper := &app.AuditReading{Rankings: []app.Ranking{{Candidate: "Ada Ames", Rank: 1}}}
	for _, c := range []struct {
		name  string
		over  []float64
		cvr   []app.Ranking
		want  []string
		color widget.Importance
	}{
		{"Matches", []float64{0, 0, 0}, paper.Rankings, []string{"No discrepancy: the paper matches its record."}, widget.SuccessImportance},
		{"UnderstatesTwo", []float64{-0.5, -0.5, 0}, nil,
			[]string{"The record understates by one vote each the margins of 2 assertions: “Ada Ames", "Ben Burke”; “Ada Ames"}, widget.WarningImportance},
		{"Mixed", []float64{0.5, -0.5, 1}, []app.Ranking{{Candidate: "Cy Cole", Rank: 1}},
			[]string{"The record overstates the margin of “Ada Ames", "by one vote.", "The record understates the margin of", "The record overstates the margin of", "by two votes."}, widget.DangerImportance},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := app.AuditDraw{Reading: paper, CVR: c.cvr, Overstatements: c.over}
			got := findings(st, d)
			for _, w := range c.want {
				if !strings.Contains(got, w) {
					t.Errorf("findings %q lack %q", got, w)
				}
			}
			if n := strings.Count(got, "The record"); c.name == "UnderstatesTwo" && n != 1 {
				t.Errorf("one kind of discrepancy said %d times: %q", n, got)
			}
			if imp := findingsImportance(d); imp != c.color {
				t.Errorf("coloured %v, want %v", imp, c.color)
			}
		})
	}
}
