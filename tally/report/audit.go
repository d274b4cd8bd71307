package report

import (
	"bufio"
	"fmt"
	"io"

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
	bw := bufio.NewWriter(w)
	for pi, p := range res.Passes {
		if len(res.Passes) > 1 {
			fmt.Fprintf(bw, "[Pass] %d\n", pi+1)
		}
		for _, e := range p.Audit {
			id := b.ID(e.Ballot)
			if id == "" {
				id = fmt.Sprintf("record %d", e.Ballot+1)
			}
			var what string
			switch {
			case e.Status != tally.Active:
				what = "[became inactive] " + statusText[e.Status]
			case e.Round == 1:
				what = "[counted for] " + c.Candidates[e.Candidate].Name
			default:
				what = "[transferred to] " + c.Candidates[e.Candidate].Name
			}
			fmt.Fprintf(bw, "[Round] %d [CVR] %s %s", e.Round, id, what)
			if e.Value.Scale() != 0 || e.Value.Cmp(tally.DecimalInt(1)) != 0 {
				fmt.Fprintf(bw, " [value] %s", e.Value)
			}
			if n := count(b, e.Ballot); n != 1 {
				fmt.Fprintf(bw, " [count] %d", n)
			}
			bw.WriteString("\n")
		}
	}
	return bw.Flush()
}

func count(b *tally.BallotSet, i int) uint32 {
	_, n := b.Ballot(i)
	return n
}
