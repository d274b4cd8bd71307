package cli

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"votedesk/tally"
	"votedesk/tally/report"
)

// WriteResultText prints a count as tables a person reads: the rounds of a
// ranked-choice count, or the places (with the pairwise matrices) of the
// other methods.
func WriteResultText(w io.Writer, c tally.Contest, rules tally.Rules, res tally.Result) {
	name := func(i int) string { return c.Candidates[i].Name }
	names := func(idx []int) string {
		out := make([]string, len(idx))
		for i, x := range idx {
			out[i] = name(x)
		}
		return strings.Join(out, ", ")
	}
	fmt.Fprintf(w, "%s — %s\n", c.Name, res.Method)
	for pi, p := range res.Passes {
		if len(res.Passes) > 1 {
			fmt.Fprintf(w, "\nPass %d (seat %d)\n", pi+1, pi+1)
		}
		writeRounds(w, c, rules, p)
	}
	if len(res.Passes) == 0 {
		writePlaces(w, c, res)
	}
	for _, tb := range res.TieBreaks {
		fmt.Fprintln(w, tb.Text(name))
	}
	fmt.Fprintf(w, "Winner(s): %s\n", names(res.Winners))
}

func writeRounds(w io.Writer, c tally.Contest, rules tally.Rules, p tally.Pass) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "CANDIDATE\t")
	for _, rd := range p.Rounds {
		fmt.Fprintf(tw, "ROUND %d\t", rd.Number)
	}
	fmt.Fprintln(tw)
	for ci, cand := range c.Candidates {
		if cand.Excluded {
			continue
		}
		fmt.Fprintf(tw, "%s\t", cand.Name)
		for i := range p.Rounds {
			fmt.Fprintf(tw, "%s\t", votesCell(rules, p.Rounds, i, ci))
		}
		fmt.Fprintln(tw)
	}
	fmt.Fprint(tw, "Inactive ballots\t")
	for _, rd := range p.Rounds {
		fmt.Fprintf(tw, "%s\t", rd.Inactive.Total())
	}
	fmt.Fprint(tw, "\nThreshold\t")
	for _, rd := range p.Rounds {
		fmt.Fprintf(tw, "%s\t", rd.Threshold)
	}
	fmt.Fprintln(tw)
	tw.Flush()
	for _, rd := range p.Rounds {
		var parts []string
		for _, x := range rd.Elected {
			parts = append(parts, "elected "+c.Candidates[x].Name)
		}
		for _, x := range rd.Eliminated {
			parts = append(parts, "eliminated "+c.Candidates[x].Name)
		}
		if len(parts) > 0 {
			fmt.Fprintf(w, "Round %d: %s\n", rd.Number, strings.Join(parts, "; "))
		}
	}
}

// votesCell is a candidate's votes in round i and their share of it, or
// "-" once they are out.
func votesCell(rules tally.Rules, rounds []tally.Round, i, c int) string {
	v, in := rounds[i].VotesOf(c)
	if !in {
		return "-"
	}
	return report.Votes(v) + " (" + report.Share(rules, rounds, i, c) + ")"
}

func writePlaces(w io.Writer, c tally.Contest, res tally.Result) {
	if p := res.Pairwise; p != nil {
		matrix := func(title string, m [][]int64) {
			if m == nil {
				return
			}
			fmt.Fprintln(w, title)
			tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
			fmt.Fprint(tw, "\t")
			for _, x := range p.Candidates {
				fmt.Fprintf(tw, "%s\t", c.Candidates[x].Name)
			}
			fmt.Fprintln(tw)
			for i, x := range p.Candidates {
				fmt.Fprintf(tw, "%s\t", c.Candidates[x].Name)
				for j := range p.Candidates {
					fmt.Fprintf(tw, "%d\t", m[i][j])
				}
				fmt.Fprintln(tw)
			}
			tw.Flush()
		}
		matrix("Preferences (row over column):", p.Preferences)
		matrix("Strongest paths:", p.StrongestPaths)
	}
	fmt.Fprintln(w, "Places:")
	for _, pl := range res.Places {
		var parts []string
		for _, x := range pl.Candidates {
			s := c.Candidates[x].Name
			if res.Scores != nil {
				s += fmt.Sprintf(" (%s)", res.Scores[x])
			}
			parts = append(parts, s)
		}
		fmt.Fprintf(w, "  %d. %s\n", pl.Place, strings.Join(parts, ", "))
	}
}
