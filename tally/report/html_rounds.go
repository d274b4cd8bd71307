package report

import (
	"fmt"
	"html/template"
	"sort"
	"strconv"

	"votedesk/tally"
)

// passView is one ranked-choice count as the report shows it.
type passView struct {
	Title          string
	Rounds         []int
	Rows           []roundRow
	Inactive       []string
	Threshold      []string
	Decisions      []string
	Charts         []template.HTML
	Flow           template.HTML
	FirstActive    string
	NoRankings     string
	FinalThreshold string
	// ShareOf says what the percentages are of (ShareDivisor).
	ShareOf string
}

// roundRow is one candidate's line of the round table.
type roundRow struct {
	Name  string
	Class string // "won", "out" or ""
	Note  string
	Cells []roundCell
}

// roundCell is a candidate's tally in one round: votes, share and change,
// or Out once they are out of the count.
type roundCell struct {
	Votes, Share, Change string
	Out, Decided, Neg    bool
}

// standing orders the candidates of a pass as its tables and charts list
// them: winners in the order elected, then the others by how long they
// lasted, then by their last tally.
func standing(pass tally.Pass) []int {
	last := map[int]int{}
	lastVotes := map[int]float64{}
	for r, rd := range pass.Rounds {
		for _, v := range rd.Tally {
			last[v.Candidate] = r
			lastVotes[v.Candidate] = toFloat(v.Votes)
		}
	}
	won := map[int]int{}
	for i, c := range pass.Winners {
		won[c] = i + 1
	}
	var out []int
	for c := range last {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		switch wa, wb := won[a], won[b]; {
		case wa > 0 && wb > 0:
			return wa < wb
		case wa > 0 || wb > 0:
			return wa > 0
		}
		if last[a] != last[b] {
			return last[a] > last[b]
		}
		if lastVotes[a] != lastVotes[b] {
			return lastVotes[a] > lastVotes[b]
		}
		return a < b
	})
	return out
}

func newPassView(h HTML, index int, pass tally.Pass) passView {
	name := func(c int) string { return h.Contest.Candidates[c].Name }
	v := passView{}
	if len(h.Result.Passes) > 1 {
		v.Title = fmt.Sprintf("Pass %d: seat %d", index+1, index+1)
	}
	order := standing(pass)
	won := map[int]bool{}
	for _, c := range pass.Winners {
		won[c] = true
	}
	outIn := map[int]int{}
	for r, rd := range pass.Rounds {
		v.Rounds = append(v.Rounds, rd.Number)
		for _, c := range rd.Eliminated {
			outIn[c] = r
		}
		v.Inactive = append(v.Inactive, Votes(rd.Inactive.Total()))
		v.Threshold = append(v.Threshold, Votes(rd.Threshold))
		var parts []string
		if len(rd.Elected) > 0 {
			parts = append(parts, tally.JoinNames(names(rd.Elected, name))+" elected")
		}
		if len(rd.Eliminated) > 0 {
			word := " eliminated"
			if len(rd.Eliminated) > 1 {
				word = " eliminated together"
			}
			parts = append(parts, tally.JoinNames(names(rd.Eliminated, name))+word)
		}
		if len(parts) > 0 {
			v.Decisions = append(v.Decisions, fmt.Sprintf("Round %d: %s.", rd.Number, joinParts(parts)))
		}
	}
	for _, c := range order {
		row := roundRow{Name: name(c)}
		switch {
		case won[c]:
			row.Class, row.Note = "won", "elected"
		case c >= 0:
			if r, ok := outIn[c]; ok {
				row.Class, row.Note = "out", "eliminated in round "+strconv.Itoa(pass.Rounds[r].Number)
			}
		}
		var prev tally.Decimal
		for r, rd := range pass.Rounds {
			votes, in := rd.VotesOf(c)
			if !in {
				row.Cells = append(row.Cells, roundCell{Out: true})
				continue
			}
			cell := roundCell{Votes: Votes(votes), Share: Share(h.Rules, pass.Rounds, r, c)}
			if d := votes.Sub(prev); r > 0 && !d.IsZero() {
				cell.Change, cell.Neg = signed(d), d.Sign() < 0
			}
			cell.Decided = contains(rd.Elected, c) || contains(rd.Eliminated, c)
			prev = votes
			row.Cells = append(row.Cells, cell)
		}
		v.Rows = append(v.Rows, row)
	}
	if len(pass.Rounds) > 0 {
		first, last := pass.Rounds[0], pass.Rounds[len(pass.Rounds)-1]
		v.FirstActive = Votes(first.TallySum())
		v.NoRankings = Votes(first.Inactive.NoRankings)
		v.FinalThreshold = Votes(last.Threshold)
		v.ShareOf = "the first round's active ballots, as RCTab's reports give them"
		if SharePerRound(h.Rules) {
			v.ShareOf = "the ballots still active in that round"
		}
	}
	scale := 0.0
	for _, rd := range pass.Rounds {
		scale = max(scale, toFloat(rd.Threshold))
		for _, t := range rd.Tally {
			scale = max(scale, toFloat(t.Votes))
		}
	}
	for i := range pass.Rounds {
		share := func(c int) string { return Share(h.Rules, pass.Rounds, i, c) }
		v.Charts = append(v.Charts, roundChart(h.Contest, pass.Rounds[i], order, scale, share))
	}
	if len(pass.Rounds) > 1 {
		v.Flow = flowChart(h.Contest, pass, order)
	}
	return v
}

func names(cs []int, name func(int) string) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = name(c)
	}
	return out
}

func joinParts(parts []string) string {
	if len(parts) == 2 {
		return parts[0] + "; " + parts[1]
	}
	return parts[0]
}

func contains(list []int, c int) bool {
	for _, x := range list {
		if x == c {
			return true
		}
	}
	return false
}

// signed writes a change of votes with its sign.
func signed(d tally.Decimal) string {
	if d.Sign() > 0 {
		return "+" + Votes(d)
	}
	return "−" + Votes(d.Neg())
}
