package report

import (
	"bufio"
	"fmt"
	"io"
	"strconv"

	"votedesk/tally"
)

// statusText names why a ballot became inactive in the audit log.
var statusText = map[tally.Status]string{
	tally.NoRankings:        "No Rankings",
	tally.Overvoted:         "Overvote",
	tally.SkippedRankings:   "Skipped Ranking",
	tally.RepeatedRanking:   "Repeated Ranking",
	tally.ExhaustedChoices:  "Exhausted Choice",
	tally.FinalRoundSurplus: "Final Round Surplus",
}

// WriteAudit writes the count's audit trail one line per ballot record and
// round in which its count changed, in the shape of RCTab's audit log:
//
//	[Round] 1 [CVR] 0007 [counted for] Alice
//	[Round] 2 [CVR] 0007 [transferred to] Bob [value] 0.2499
//	[Round] 3 [CVR] 0007 [became inactive] Exhausted Choice
//
// A value other than exactly 1 and a count other than 1 are appended.
// Ballots without an id are named by their record number. Passes of a
// multi-pass count are introduced by a "[Pass] n" line.
func WriteAudit(w io.Writer, c tally.Contest, b *tally.BallotSet, res tally.Result) error {
	aw := NewAuditWriter(w, c, b, len(res.Passes) > 1)
	for pi, p := range res.Passes {
		if err := aw.Round(pi+1, p.Audit, p.AuditValues); err != nil {
			return err
		}
	}
	return aw.Flush()
}

// AuditWriter writes an audit trail as it is counted (tally.WithAuditSink):
// its Round method is an AuditSink.
type AuditWriter struct {
	w         *bufio.Writer
	contest   tally.Contest
	ballots   *tally.BallotSet
	multiPass bool
	pass      int
	line      []byte
	one       tally.Decimal
}

// NewAuditWriter writes to w the audit trail of counting ballots for
// contest; multiPass introduces each pass with a "[Pass] n" line.
func NewAuditWriter(w io.Writer, contest tally.Contest, ballots *tally.BallotSet, multiPass bool) *AuditWriter {
	return &AuditWriter{w: bufio.NewWriterSize(w, 1<<16), contest: contest, ballots: ballots, multiPass: multiPass, one: tally.DecimalInt(1)}
}

// Round writes one round's entries (of pass, counting from 1).
func (a *AuditWriter) Round(pass int, entries []tally.AuditEntry, values []tally.Decimal) error {
	if a.multiPass && pass != a.pass {
		fmt.Fprintf(a.w, "[Pass] %d\n", pass)
	}
	a.pass = pass
	p := tally.Pass{AuditValues: values}
	for _, e := range entries {
		line := append(a.line[:0], "[Round] "...)
		line = strconv.AppendInt(line, int64(e.Round), 10)
		line = append(line, " [CVR] "...)
		if id := a.ballots.ID(int(e.Ballot)); id != "" {
			line = append(line, id...)
		} else {
			line = append(line, "record "...)
			line = strconv.AppendInt(line, int64(e.Ballot)+1, 10)
		}
		switch {
		case e.Status != tally.Active:
			line = append(append(line, " [became inactive] "...), statusText[e.Status]...)
		case e.Round == 1:
			line = append(append(line, " [counted for] "...), a.contest.Candidates[e.Candidate].Name...)
		default:
			line = append(append(line, " [transferred to] "...), a.contest.Candidates[e.Candidate].Name...)
		}
		if v := p.AuditValue(e); v.Scale() != 0 || v.Cmp(a.one) != 0 {
			line = append(append(line, " [value] "...), v.String()...)
		}
		if n := count(a.ballots, int(e.Ballot)); n != 1 {
			line = append(line, " [count] "...)
			line = strconv.AppendUint(line, uint64(n), 10)
		}
		line = append(line, '\n')
		a.line = line
		if _, err := a.w.Write(line); err != nil {
			return err
		}
	}
	return nil
}

// Flush writes out what is buffered.
func (a *AuditWriter) Flush() error { return a.w.Flush() }

func count(b *tally.BallotSet, i int) uint32 {
	if b.Counts == nil {
		return 1
	}
	return b.Counts[i]
}
