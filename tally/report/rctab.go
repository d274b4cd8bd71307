package report

import (
	"sort"

	"votedesk/tally"
)

// Header is the descriptive part of an RCTab report.
type Header struct {
	// GeneratedBy names the program, e.g. "VoteDesk 1.0" (RCTab writes
	// "RCTab 2.0.0").
	GeneratedBy  string
	Contest      string
	Jurisdiction string
	Office       string
	Date         string
	// Status, when set, says how final the results are (a stored
	// election's standing); RCTab's own reports have no such field, so it
	// is written only when set.
	Status string
}

// RCTab is one pass of a ranked-choice count, ready to be written in
// RCTab's report formats.
type RCTab struct {
	Header  Header
	Contest tally.Contest
	// Rules are the rules the pass was counted with (a multiPassIrv pass
	// counts one winner).
	Rules tally.Rules
	Pass  tally.Pass
	// Slice, when set, reports one group of ballots (RCTab's tabulate by
	// precinct or batch): its rounds replace the pass's rounds.
	Slice *Slice
}

// Slice is one precinct's or batch's view of the count.
type Slice struct {
	Kind   string // "Precinct" or "Batch"
	ID     string
	Rounds []tally.Round
}

// rounds returns the rounds to report.
func (r RCTab) rounds() []tally.Round {
	if r.Slice != nil {
		return r.Slice.Rounds
	}
	return r.Pass.Rounds
}

// name returns candidate c's name.
func (r RCTab) name(c int) string { return r.Contest.Candidates[c].Name }

// numCandidates is RCTab's getNumCandidates: every candidate, the
// undeclared write-in entry included, less those left out of this pass.
func (r RCTab) numCandidates() int { return len(r.Contest.Candidates) - len(r.Pass.Excluded) }

// decisions lists, round by round, the candidates picked by pick (elected
// or eliminated), sorted by name as RCTab prints them.
func (r RCTab) decisions(pick func(tally.Round) []int) [][]int {
	out := make([][]int, len(r.Pass.Rounds))
	for i, rd := range r.Pass.Rounds {
		out[i] = append([]int(nil), pick(rd)...)
		sort.SliceStable(out[i], func(a, b int) bool { return tally.JavaLess(r.name(out[i][a]), r.name(out[i][b])) })
	}
	return out
}

func elected(rd tally.Round) []int    { return rd.Elected }
func eliminated(rd tally.Round) []int { return rd.Eliminated }

// winners lists the winners in RCTab's order: by round, then as decisions.
func (r RCTab) winners() []string {
	var out []string
	for _, cs := range r.decisions(elected) {
		for _, c := range cs {
			out = append(out, r.name(c))
		}
	}
	return out
}

// candidateOrder is the row order of RCTab's CSV: the round-1 candidates by
// round-1 tally, highest first, undeclared write-ins last, ties in the
// iteration order of RCTab's tally HashMap.
func (r RCTab) candidateOrder() []int {
	first := r.Pass.Rounds[0]
	// RCTab's candidate name set is a HashSet filled in config order; the
	// round tally is a HashMap filled by iterating that set.
	all := r.Contest.Names()
	setOrder := tally.JavaHashOrder(all, tally.JavaGrownCapacity(len(all)))
	var keys []string
	var cands []int
	for _, c := range setOrder {
		if _, in := first.VotesOf(c); in {
			keys = append(keys, all[c])
			cands = append(cands, c)
		}
	}
	var order []int
	for _, j := range tally.JavaHashOrder(keys, tally.JavaGrownCapacity(len(keys))) {
		order = append(order, cands[j])
	}
	uwi := func(c int) bool { return r.Contest.Candidates[c].UndeclaredWriteIn }
	sort.SliceStable(order, func(i, j int) bool {
		a, b := order[i], order[j]
		if uwi(a) || uwi(b) {
			return !uwi(a) && uwi(b)
		}
		return votesOf(first, a).Cmp(votesOf(first, b)) > 0
	})
	return order
}

// totalBallots is round 1's active plus inactive ballots.
// votesOf is c's votes in the round, zero when c is not in it.
func votesOf(rd tally.Round, c int) tally.Decimal {
	v, _ := rd.VotesOf(c)
	return v
}

func (r RCTab) totalBallots() tally.Decimal {
	rd := r.rounds()[0]
	t := rd.Inactive.Total()
	for _, v := range rd.Tally {
		t = t.Add(v.Votes)
	}
	return t
}

// usesSurpluses mirrors the engine: multi-seat counts other than bottoms-up.
func (r RCTab) usesSurpluses() bool {
	m := r.Rules.WinnerElectionMode
	return r.Rules.NumberOfWinners > 1 && m != tally.BottomsUp && m != tally.BottomsUpUsingPercentageThreshold
}

// tieBroken reports whether candidate c was decided by a tie-break in round i.
func tieBroken(rd tally.Round, c int) bool {
	for _, x := range rd.TieBroken {
		if x == c {
			return true
		}
	}
	return false
}
