package dataio

import (
	"fmt"
	"io"
	"strings"
	"time"

	"votedesk/app"
	"votedesk/tally/raire"
	"votedesk/tally/report"
	"votedesk/tally/rla"
)

// Audit report formats.
const (
	AuditJSON = "json"
	AuditHTML = "html"
)

// AuditReport is an audit's state as its report shows it.
func AuditReport(st app.AuditState, generatedBy string, now time.Time) report.Audit {
	au := st.Audit
	r := report.Audit{GeneratedBy: generatedBy, Generated: now.UTC(), Election: au.Election, ID: au.ID,
		Kind: string(au.Kind), RiskLimit: au.RiskLimit, Seed: au.Seed, Sampler: rla.SamplerDescription,
		Candidates: au.Candidates, Winner: au.Candidates[au.Winner], Batches: len(au.Manifest.Batches),
		Ballots: au.Manifest.Total(), Records: au.Ballots, Measured: st.Measured, Risk: st.Status.Risk,
		Confirmed: st.Status.Confirmed, FullHandCount: st.Status.FullHandCount, NextRound: st.Status.NextRound,
		Conclusion: AuditConclusion(st), Problem: st.Problem, LogSeq: st.HeadSeq, LogHash: st.HeadHash}
	for i, a := range au.Assertions {
		x := report.AuditAssertion{Type: string(a.Type), Winner: au.Candidates[a.Winner], Loser: au.Candidates[a.Loser],
			Explanation: a.Explain(au.Candidates)}
		for _, c := range a.Continuing {
			x.Continuing = append(x.Continuing, au.Candidates[c])
		}
		if i < len(st.Status.Assertions) {
			s := st.Status.Assertions[i]
			x.Margin, x.Risk, x.Confirmed = s.Margin, s.Risk, s.Confirmed
			x.O1, x.O2, x.U1, x.U2 = s.O1, s.O2, s.U1, s.U2
			x.For, x.Against, x.Neither = s.For, s.Against, s.Neither
		}
		r.Assertions = append(r.Assertions, x)
	}
	r.Trees = raire.Tree(len(au.Candidates), au.Winner, au.Assertions)
	for i, n := range st.Rounds {
		round := report.AuditRound{Draws: n}
		if i < len(st.ByRound) {
			round.Read = true
			for _, s := range st.ByRound[i].Assertions {
				round.Risks = append(round.Risks, s.Risk)
			}
		}
		r.Rounds = append(r.Rounds, round)
	}
	for i, d := range st.Draws {
		x := report.AuditDraw{Number: i + 1, Ticket: d.Draw.Ticket, Container: d.Batch.Container, Tabulator: d.Batch.Tabulator,
			Batch: d.Batch.Name, Position: d.Draw.Position, Repeat: d.Repeat, State: string(d.State), Phantom: d.Phantom,
			Overstatements: d.Overstatements}
		if d.Reading != nil {
			x.Paper, x.NotFound = app.MarksByRank(d.Reading.Rankings, "="), d.Reading.NotFound
			x.Record, x.RecordID = app.MarksByRank(d.CVR, "="), d.RecordID
		}
		r.Draws = append(r.Draws, x)
	}
	return r
}

// AuditConclusion says what the audit has shown so far and what to do next.
func AuditConclusion(st app.AuditState) string {
	switch {
	case st.Problem != "":
		return "The audit cannot go on: " + st.Problem + "."
	case st.Status.Confirmed:
		return fmt.Sprintf("Confirmed: the measured risk is %.4f, within the %s risk limit. The reported winner, %s, stands; the audit can stop.",
			st.Status.Risk, Percent(st.Audit.RiskLimit), st.Audit.Candidates[st.Audit.Winner])
	case st.Status.FullHandCount && st.Status.Continue > 0:
		return fmt.Sprintf("Escalate to a full hand count: the discrepancies found make it unlikely that more sampling confirms the reported outcome (measured risk %.4f). "+
			"Officials who doubt what was found may instead sample on, a round of at least %d more ballots.", st.Status.Risk, st.Status.Continue)
	case st.Status.FullHandCount:
		return "Escalate to a full hand count: the sample has not confirmed the reported outcome, and another round would draw as many ballots as the manifest holds."
	case st.Unread > 0:
		return fmt.Sprintf("%d of %d draws are not read yet: both board members enter each ballot, and a difference between them is settled.", st.Unread, len(st.Draws))
	}
	return fmt.Sprintf("Not confirmed yet (measured risk %.4f): the next round draws %d more ballots.", st.Status.Risk, st.Status.NextRound)
}

// Percent writes a fraction as a percentage: 0.05 as "5%".
func Percent(f float64) string {
	s := strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.4f", f*100), "0"), ".")
	return s + "%"
}

// WriteAuditReport writes an audit's report as JSON or HTML.
func WriteAuditReport(w io.Writer, format string, r report.Audit) error {
	switch format {
	case AuditJSON:
		return report.WriteAuditJSON(w, r)
	case AuditHTML:
		return report.WriteAuditHTML(w, r)
	}
	return app.Errorf(app.CodeInvalid, "an audit report is json or html, not %q", format)
}
