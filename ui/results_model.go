package ui

import (
	"fmt"
	"math/big"
	"strings"

	"votedesk/app"
	"votedesk/tally"
	"votedesk/tally/report"
)

// ranked reports whether a method counts in rounds (IRV, STV).
func ranked(m tally.Method) bool { return m == tally.IRV || m == tally.STV }

// ratio returns a/b as a float for drawing and percentages (display only;
// the counts themselves stay exact).
func ratio(a, b tally.Decimal) float64 {
	if b.Sign() == 0 {
		return 0
	}
	f, _ := new(big.Rat).Quo(a.Rat(), b.Rat()).Float64()
	return f
}

// names lists candidates' names.
func names(c tally.Contest, ids []int) string {
	out := make([]string, len(ids))
	for i, x := range ids {
		out[i] = c.Candidates[x].Name
	}
	return strings.Join(out, ", ")
}

// lastPass is the pass whose rounds the screens show: the only one, or the
// last of a multi-pass count.
func lastPass(r tally.Result) tally.Pass { return r.Passes[len(r.Passes)-1] }

// banner says who won, in words.
func banner(c app.Count) string {
	res := c.Result
	if len(res.Winners) == 0 && len(res.Places) > 0 && len(res.Passes) == 0 {
		res.Winners = res.Places[0].Candidates
	}
	switch {
	case len(res.Winners) == 0:
		return "No winner: the count elected nobody."
	case ranked(res.Method) && len(res.Winners) == 1:
		p := lastPass(res)
		for _, rd := range p.Rounds {
			for _, w := range rd.Elected {
				if w == res.Winners[0] {
					v, _ := rd.VotesOf(w)
					return fmt.Sprintf("Winner: %s — elected in round %d of %d with %s of %s active votes (%s)",
						c.Contest.Candidates[w].Name, rd.Number, len(p.Rounds), report.Votes(v), report.Votes(rd.Active), report.Percent(v, rd.Active))
				}
			}
		}
		return "Winner: " + c.Contest.Candidates[res.Winners[0]].Name
	case ranked(res.Method):
		return fmt.Sprintf("Elected (%d seats): %s", len(res.Winners), names(c.Contest, res.Winners))
	case len(res.Winners) > 1:
		return "Tied for first place: " + names(c.Contest, res.Winners)
	}
	w := res.Winners[0]
	if p := res.Pairwise; p != nil && p.CondorcetWinner(w) {
		return fmt.Sprintf("Winner: %s — beats every other candidate head to head", c.Contest.Candidates[w].Name)
	}
	return "Winner: " + c.Contest.Candidates[w].Name
}

// roundsTable is the round-by-round table: one row per candidate (in the
// order of the final places), then the inactive ballots by reason, the
// active total and threshold, and what each round decided.
type roundsTable struct {
	rows  []string   // row titles
	cells [][]string // cells[row][round]
	bold  []bool     // rows to show in bold (winners)
	marks [][]roundMark
}

// roundMark is what a round decided about a candidate, shown in colour as
// well as in words.
type roundMark uint8

const (
	markNone roundMark = iota
	markElected
	markEliminated
)

// markOf is what round rd decided about candidate cand.
func markOf(cand int, rd tally.Round) roundMark {
	switch {
	case oneOfInts(cand, rd.Elected):
		return markElected
	case oneOfInts(cand, rd.Eliminated):
		return markEliminated
	}
	return markNone
}

// mark is what round col (from 0) decided about row's candidate.
func (t roundsTable) mark(row, col int) roundMark {
	if row < 0 || row >= len(t.marks) || col < 0 || col >= len(t.marks[row]) {
		return markNone
	}
	return t.marks[row][col]
}

func newRoundsTable(c app.Count) roundsTable {
	p := lastPass(c.Result)
	var t roundsTable
	add := func(title string, bold bool, cell func(i int, rd tally.Round) string) {
		row := make([]string, len(p.Rounds))
		for i, rd := range p.Rounds {
			row[i] = cell(i, rd)
		}
		t.rows, t.cells, t.bold = append(t.rows, title), append(t.cells, row), append(t.bold, bold)
		t.marks = append(t.marks, make([]roundMark, len(p.Rounds)))
	}
	won := map[int]bool{}
	for _, w := range c.Result.Winners {
		won[w] = true
	}
	for _, cand := range placeOrder(c) {
		add(c.Contest.Candidates[cand].Name, won[cand], func(i int, rd tally.Round) string {
			v, ok := rd.VotesOf(cand)
			if !ok {
				return ""
			}
			s := report.Votes(v) + " (" + report.Share(c.Rules, p.Rounds, i, cand) + ")"
			if i > 0 {
				if prev, ok := p.Rounds[i-1].VotesOf(cand); ok {
					if d := v.Sub(prev); d.Sign() > 0 {
						s += " +" + report.Votes(d)
					}
				}
			}
			switch markOf(cand, rd) {
			case markElected:
				s += " · elected"
			case markEliminated:
				s += " · eliminated"
			}
			return s
		})
		for i, rd := range p.Rounds {
			t.marks[len(t.marks)-1][i] = markOf(cand, rd)
		}
	}
	inactive := []struct {
		title string
		get   func(tally.Inactive) tally.Decimal
	}{
		{"Inactive: exhausted choices", func(in tally.Inactive) tally.Decimal { return in.ExhaustedChoices }},
		{"Inactive: overvotes", func(in tally.Inactive) tally.Decimal { return in.Overvotes }},
		{"Inactive: skipped rankings", func(in tally.Inactive) tally.Decimal { return in.SkippedRankings }},
		{"Inactive: repeated rankings", func(in tally.Inactive) tally.Decimal { return in.RepeatedRankings }},
		{"Inactive: no rankings", func(in tally.Inactive) tally.Decimal { return in.NoRankings }},
		{"Final-round surplus", func(in tally.Inactive) tally.Decimal { return in.FinalRoundSurplus }},
	}
	for _, k := range inactive {
		nonzero := false
		for _, rd := range p.Rounds {
			nonzero = nonzero || k.get(rd.Inactive).Sign() != 0
		}
		if nonzero {
			add(k.title, false, func(_ int, rd tally.Round) string { return report.Votes(k.get(rd.Inactive)) })
		}
	}
	add("Active ballots", false, func(_ int, rd tally.Round) string { return report.Votes(rd.Active) })
	add("Threshold", false, func(_ int, rd tally.Round) string { return report.Votes(rd.Threshold) })
	add("Transfers", false, func(_ int, rd tally.Round) string { return transfers(c.Contest, rd) })
	return t
}

// transfers describes a round's transfers, one a line: "Cid to Bob: 2",
// "Cid to exhausted: 1".
func transfers(c tally.Contest, rd tally.Round) string {
	var parts []string
	for _, tr := range rd.Transfers {
		to := "exhausted"
		switch tr.To {
		case tally.Exhausted:
		case tally.ResidualSurplus:
			to = "residual surplus"
		default:
			to = c.Candidates[tr.To].Name
		}
		parts = append(parts, fmt.Sprintf("%s to %s: %s", c.Candidates[tr.From].Name, to, report.Votes(tr.Votes)))
	}
	return strings.Join(parts, "\n")
}

// placeOrder lists the candidates by final place, then any unplaced in
// contest order.
func placeOrder(c app.Count) []int {
	var out []int
	seen := make([]bool, len(c.Contest.Candidates))
	for _, pl := range c.Result.Places {
		for _, x := range pl.Candidates {
			if !seen[x] {
				out, seen[x] = append(out, x), true
			}
		}
	}
	for i := range seen {
		if !seen[i] {
			out = append(out, i)
		}
	}
	return out
}

func oneOfInts(x int, set []int) bool {
	for _, s := range set {
		if s == x {
			return true
		}
	}
	return false
}

// placesText lists the places, one line each, with scores when the method
// has them: "1st  Ann (score 12)".
func placesText(c app.Count) string {
	var b strings.Builder
	for _, pl := range c.Result.Places {
		var ns []string
		for _, x := range pl.Candidates {
			n := c.Contest.Candidates[x].Name
			if c.Result.Scores != nil {
				n += fmt.Sprintf(" (score %s)", report.Votes(c.Result.Scores[x]))
			}
			ns = append(ns, n)
		}
		tie := ""
		if len(pl.Candidates) > 1 {
			tie = "  (tie)"
		}
		fmt.Fprintf(&b, "%s\t%s%s\n", report.Ordinal(pl.Place), strings.Join(ns, ", "), tie)
	}
	return strings.TrimSuffix(b.String(), "\n")
}
