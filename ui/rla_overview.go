package ui

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"votedesk/app"
	"votedesk/app/dataio"
	"votedesk/tally/raire"
	"votedesk/tally/rla"
	"votedesk/ui/modal"
	"votedesk/ui/offui"
)

// AuditOverview says where an audit stands: the verdict and what to do
// next, how it was set up, each assertion in words with its risk, whether
// it is confirmed and the discrepancies found, the elimination trees the
// assertions leave, and the rounds. Whoever may run the audit starts the
// next round here when the measured risk asks for one; anyone who sees it
// exports its report.
type AuditOverview struct {
	sc *RiskAuditScreen
	st *app.AuditState

	Verdict   *widget.Label
	Setup     *widget.Label
	NextRound *modal.Button
	// NextForm is the last Start round dialog shown.
	NextForm *NextRoundForm
	// ReadBallots goes to the audit board, at the next draw to read.
	ReadBallots *modal.Button
	ExportHTML  *modal.Button
	ExportJSON  *modal.Button
	// Assertions holds one block per assertion; Rounds one line per round.
	Assertions *fyne.Container
	Rounds     *fyne.Container
	TreesNote  *widget.Label
	Trees      *fyne.Container
	treesOf    string // the audit whose trees are drawn
	scroll     *container.Scroll
	content    fyne.CanvasObject
}

func newAuditOverview(sc *RiskAuditScreen) *AuditOverview {
	o := &AuditOverview{sc: sc, Verdict: title(""), Setup: widget.NewLabel(""),
		Assertions: container.NewVBox(), Rounds: container.NewVBox(), TreesNote: widget.NewLabel(""), Trees: container.NewStack()}
	o.Verdict.Wrapping = fyne.TextWrapWord
	o.Setup.Wrapping = fyne.TextWrapWord
	o.TreesNote.Wrapping = fyne.TextWrapWord
	o.NextRound = modal.NewButtonWithIcon("Next round…", theme.MediaSkipNextIcon(), o.askNextRound)
	o.NextRound.Importance = widget.HighImportance
	o.ReadBallots = modal.NewButtonWithIcon("Audit board: read the ballots", theme.DocumentCreateIcon(), o.readBallots)
	o.ExportHTML = modal.NewButtonWithIcon("Export report (HTML)…", theme.DownloadIcon(), func() { o.export(dataio.AuditHTML) })
	o.ExportJSON = modal.NewButtonWithIcon("Export report (JSON)…", theme.DownloadIcon(), func() { o.export(dataio.AuditJSON) })
	o.scroll = container.NewVScroll(container.NewVBox(
		o.Verdict, o.Setup,
		toolbar(o.ReadBallots, o.NextRound, o.ExportHTML, o.ExportJSON),
		widget.NewSeparator(), boldLabel("Assertions: what the audit checks"), o.Assertions,
		widget.NewSeparator(), boldLabel("Elimination trees"), o.TreesNote, container.NewHScroll(o.Trees),
		widget.NewSeparator(), boldLabel("Rounds"), o.Rounds))
	o.content = o.scroll
	return o
}

// show fills the overview with an audit's state.
func (o *AuditOverview) show(st *app.AuditState) {
	o.st = st
	au := st.Audit
	o.Verdict.SetText(dataio.AuditConclusion(*st))
	o.Verdict.Importance = widget.MediumImportance
	switch {
	case st.Problem != "" || st.Status.FullHandCount:
		o.Verdict.Importance = widget.DangerImportance
	case st.Status.Confirmed:
		o.Verdict.Importance = widget.SuccessImportance
	}
	o.Verdict.Refresh()
	o.Setup.SetText(fmt.Sprintf("%s audit at a %s risk limit of the count of %s: %s is the reported winner. Seed %s. "+
		"The manifest lists %s in %s; %s cast vote records. Started %s by %s.",
		kindWord(au), dataio.Percent(au.RiskLimit), au.Election, au.Candidates[au.Winner], au.Seed,
		plural(au.Manifest.Total(), "paper ballot", "paper ballots"), plural(len(au.Manifest.Batches), "batch", "batches"),
		fmtCount(au.Ballots), fmtTime(au.Started), au.StartedBy))
	if app.MayRunAudit(o.sc.s.user, o.sc.election) {
		o.NextRound.SetText("Next round…")
		if st.Status.FullHandCount {
			o.NextRound.SetText("Sample on instead…")
		}
		o.NextRound.Show()
		enable(o.NextRound, nextRoundDue(st))
	} else {
		o.NextRound.Hide()
	}
	o.Assertions.Objects = nil
	for i, a := range au.Assertions {
		o.Assertions.Add(o.assertion(i, a))
	}
	o.Assertions.Refresh()
	if o.treesOf != au.ID {
		// An audit's assertions never change: its trees are drawn once.
		o.treesOf = au.ID
		trees := raire.Tree(len(au.Candidates), au.Winner, au.Assertions)
		o.TreesNote.SetText(treeCaption(trees, au.Candidates))
		o.Trees.Objects = []fyne.CanvasObject{newTreesPicture(trees, au.Candidates)}
		o.Trees.Refresh()
	}
	o.Rounds.Objects = nil
	for _, line := range roundLines(st) {
		l := widget.NewLabel(line)
		l.Wrapping = fyne.TextWrapWord
		o.Rounds.Add(l)
	}
	o.Rounds.Refresh()
}

// readBallots shows the audit board at the next draw to read, or at the
// list when every draw is read.
func (o *AuditOverview) readBallots() {
	b := o.sc.Board
	o.sc.ShowView(rlaBoard)
	if o.st != nil && o.st.Unread > 0 {
		b.NextUnread()
		return
	}
	b.backToList()
}

// nextRoundDue reports whether the audit's status offers another round
// now: every draw is read, the risk is not yet within the limit, and either
// the audit has not escalated to a full hand count or a round still fits
// within the manifest to sample on instead.
func nextRoundDue(st *app.AuditState) bool {
	s := st.Status
	return st.Problem == "" && st.Unread == 0 && !s.Confirmed && (s.NextRound > 0 || s.FullHandCount && s.Continue > 0)
}

// assertion is one assertion's block: its number and where it stands (its
// risk, whether it is confirmed), what it says, and its reported margin
// and the discrepancies found.
func (o *AuditOverview) assertion(i int, a raire.Assertion) fyne.CanvasObject {
	st := o.st
	names := st.Audit.Candidates
	head := widget.NewLabelWithStyle(fmt.Sprintf("%d. Not measured: %s.", i+1, orText(st.Problem, "no draws read yet")), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	head.Wrapping = fyne.TextWrapWord
	explain := widget.NewLabel(a.Explain(names))
	explain.Wrapping = fyne.TextWrapWord
	out := container.NewVBox(head, explain)
	if i < len(st.Status.Assertions) && st.Problem == "" {
		s := st.Status.Assertions[i]
		head.SetText(fmt.Sprintf("%d. Not confirmed yet: risk %.4f, above the %s limit", i+1, s.Risk, dataio.Percent(st.Audit.RiskLimit)))
		head.Importance = widget.WarningImportance
		if s.Confirmed {
			head.SetText(fmt.Sprintf("%d. ✓ Confirmed: risk %.4f, within the %s limit", i+1, s.Risk, dataio.Percent(st.Audit.RiskLimit)))
			head.Importance = widget.SuccessImportance
		}
		found := fmt.Sprintf("for %s %d, for %s %d, for neither %d", names[a.Winner], s.For, names[a.Loser], s.Against, s.Neither)
		if st.Audit.Kind == rla.Comparison {
			found = fmt.Sprintf("overstatements: %d of two votes, %d of one; understatements: %d of one, %d of two", s.O2, s.O1, s.U1, s.U2)
		}
		stats := widget.NewLabel(fmt.Sprintf("Reported diluted margin %.4f. In the %s measured, %s.", s.Margin, plural(st.Measured, "draw", "draws"), found))
		stats.Wrapping = fyne.TextWrapWord
		stats.SizeName = theme.SizeNameCaptionText
		out.Add(stats)
	}
	return out
}

// assertionWords says an assertion in a few plain words.
func assertionWords(a raire.Assertion, names []string) string {
	if a.Type == raire.NEB {
		return fmt.Sprintf("%s cannot be eliminated before %s", raire.CandidateName(names, a.Winner), raire.CandidateName(names, a.Loser))
	}
	left := make([]string, len(a.Continuing))
	for i, c := range a.Continuing {
		left[i] = raire.CandidateName(names, c)
	}
	return fmt.Sprintf("With only %s left, %s is not eliminated next", strings.Join(left, ", "), raire.CandidateName(names, a.Winner))
}

// roundLines says each round in a line: its draws and, once they are all
// read, the risk after it.
func roundLines(st *app.AuditState) []string {
	var out []string
	from := 1
	for i, n := range st.Rounds {
		line := fmt.Sprintf("Round %d: draws %d to %d", i+1, from, n)
		if i < len(st.ByRound) {
			s := st.ByRound[i]
			verdict := "not confirmed"
			if s.Confirmed {
				verdict = "confirmed"
			}
			line += fmt.Sprintf(", all read: risk %.4f, %s.", s.Risk, verdict)
		} else {
			unread := 0
			for _, d := range st.Draws[from-1 : min(n, len(st.Draws))] {
				if d.Reading == nil {
					unread++
				}
			}
			line += fmt.Sprintf(", %s not read yet.", plural(unread, "draw", "draws"))
		}
		out = append(out, line)
		from = n + 1
	}
	if s := st.Status; st.Problem == "" && s.FullHandCount && s.Continue > 0 {
		out = append(out, fmt.Sprintf("Escalated: count every paper ballot by hand, or, if you doubt what was found, sample on with round %d, of at least %s.",
			len(st.Rounds)+1, plural(s.Continue, "ballot", "ballots")))
	} else if st.Problem == "" && s.FullHandCount {
		out = append(out, "No further sample round can confirm the outcome: count every paper ballot by hand.")
	} else if nextRoundDue(st) {
		out = append(out, fmt.Sprintf("Next: round %d draws %s more.", len(st.Rounds)+1, plural(s.NextRound, "ballot", "ballots")))
	}
	return out
}

// NextRoundForm is the dialog that starts the next round: how many ballots
// it draws, the size the measured risk asks for filled in (or, once the
// audit has escalated, the least round it still offers instead of the
// hand count).
type NextRoundForm struct {
	Form  *modal.Form
	Draws *modal.Entry
}

// askNextRound asks for the next round's size, then starts it.
func (o *AuditOverview) askNextRound() {
	st := o.st
	if st == nil || !nextRoundDue(st) {
		return
	}
	s := st.Status
	round := len(st.Rounds) + 1
	size, msg := s.NextRound, fmt.Sprintf("The measured risk is %.4f, above the %s limit. Round %d draws more ballots from the seed for the audit board to read: %s is what the measured risk asks for.",
		s.Risk, dataio.Percent(st.Audit.RiskLimit), round, plural(s.NextRound, "ballot", "ballots"))
	if s.FullHandCount {
		size, msg = s.Continue, fmt.Sprintf("The audit has escalated to a full hand count: the discrepancies found make it unlikely that more sampling confirms the reported outcome. "+
			"If you doubt what was found (a misread ballot, say), you may sample on instead: round %d draws more ballots from the seed, at least %d suggested, and the risk is measured again.",
			round, s.Continue)
	}
	f := &NextRoundForm{Draws: modal.NewEntry()}
	f.Draws.SetText(strconv.Itoa(size))
	note := widget.NewLabel(msg)
	note.Wrapping = fyne.TextWrapWord
	items := []*widget.FormItem{{Widget: note},
		{Text: "Ballots to draw", Widget: f.Draws, HintText: fmt.Sprintf("A whole number; the manifest holds %s.", plural(st.Audit.Manifest.Total(), "ballot", "ballots"))}}
	sc := o.sc
	f.Form = modal.NewForm(sc.s.win, fmt.Sprintf("Start round %d", round), fmt.Sprintf("Start round %d", round), "Cancel", items, func(done func(error)) {
		n, err := strconv.Atoi(strings.TrimSpace(f.Draws.Text))
		if err != nil || n < 1 {
			done(app.Errorf(app.CodeInvalid, "the ballots to draw are a whole number, at least 1, not %q", strings.TrimSpace(f.Draws.Text)))
			return
		}
		ses, id := sc.s, st.Audit.ID
		offui.Run(ses.tasks, func() (int, error) {
			return ses.svc.NextAuditRound(ses.ctx(), ses.actor(), sc.name, id, n)
		}, func(_ int, err error) {
			done(err)
			if err == nil {
				sc.load(nil)
			}
		})
	})
	f.Form.Resize(fyne.NewSize(min(640, sc.s.win.Canvas().Size().Width*0.95), 0))
	f.Form.Show()
	o.NextForm = f
}

// export asks where to save the audit's report, then writes it.
func (o *AuditOverview) export(format string) {
	if o.st == nil {
		return
	}
	name := fmt.Sprintf("%s_audit.%s", fileSafe(o.sc.name), format)
	askSavePath(o.sc.s, prefLastFolder, "Export the audit report", name, true, func(path string) { o.Save(path, format) })
}

// Save writes the audit's report to path in format (html or json), as the
// command line's `audit report` does, through the one guarded writer (a
// database, a folder or a link is refused and nothing changes). The state
// is read again off the UI goroutine, so the report says where the audit
// stands now.
func (o *AuditOverview) Save(path, format string) {
	s, name, id := o.sc.s, o.sc.name, o.st.Audit.ID
	s.do("Cannot export the audit report", func(ctx context.Context) error {
		st, err := s.svc.AuditState(ctx, s.actor(), name, id)
		if err != nil {
			return err
		}
		r := dataio.AuditReport(st, dataio.GeneratedBy, s.svc.Now())
		return dataio.WriteFileAtomic(path, 0o644, func(w io.Writer) error { return dataio.WriteAuditReport(w, format, r) })
	}, func() {
		modal.ShowInformation("Exported", fmt.Sprintf("The report of the audit of %q was written to %s.", name, path), s.win)
	})
}
