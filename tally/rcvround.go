package tally

import (
	"cmp"
	"slices"
	"sort"
)

// updateWinnerTallies is RCTab's updateWinnerTallies for multi-seat counts:
// past winners join the round's tally. A winner of the previous round gets
// the value it kept from its ballots; any excess over the threshold (lost
// to rounding) becomes residual surplus and the winner is set to exactly
// the threshold. Earlier winners carry their tally forward.
func (k *counter) updateWinnerTallies(round int) {
	rd := &k.rounds[len(k.rounds)-1]
	residual := Decimal{}
	if len(k.rounds) > 1 {
		residual = k.rounds[len(k.rounds)-2].ResidualSurplus
	}
	for _, w := range k.winners {
		switch k.winRound[w] {
		case round:
			continue
		case round - 1:
			v := k.main.locked[w].value()
			if excess := v.Sub(rd.Threshold); excess.Sign() > 0 {
				residual = residual.Add(excess)
				v = rd.Threshold
				k.main.moves[k.releasedIndex(w)][ResidualSurplus+2].addDecimal(excess)
			}
			k.main.kept[w] = v
			for _, g := range k.groups {
				for _, l := range g.ledgers {
					l.kept[w] = l.locked[w].value()
				}
			}
		}
		rd.Tally = append(rd.Tally, Votes{Candidate: w, Votes: k.main.kept[w]})
	}
	sort.Slice(rd.Tally, func(i, j int) bool { return rd.Tally[i].Candidate < rd.Tally[j].Candidate })
	rd.ResidualSurplus = residual
}

// releasedIndex finds w's row among this round's transfer rows.
func (k *counter) releasedIndex(w int) int {
	for i, src := range k.released {
		if src == w {
			return i
		}
	}
	return -1
}

// finishRound completes the round record: inactive totals, residual
// surplus, active total, group views, and the transfers of the previous
// round's decisions, which this round counted.
func (k *counter) finishRound(rd *Round) {
	if k.rules.NumberOfWinners <= 1 && len(k.rounds) > 1 {
		rd.ResidualSurplus = k.rounds[len(k.rounds)-2].ResidualSurplus
	}
	rd.Inactive = k.main.inactiveTotals()
	rd.Active = activeTotal(rd.Tally, rd.Inactive)
	if len(k.rounds) > 1 {
		k.rounds[len(k.rounds)-2].Transfers = k.main.transfers(k.released)
	}
	for gi := range k.groups {
		g := &k.groups[gi]
		for i, l := range g.ledgers {
			gr := Round{Number: rd.Number, Threshold: rd.Threshold, Elected: rd.Elected, Eliminated: rd.Eliminated, TieBroken: rd.TieBroken}
			for _, v := range rd.Tally {
				votes := l.tally[v.Candidate].value()
				if k.state[v.Candidate] == elected && k.winRound[v.Candidate] < rd.Number && !k.cont[v.Candidate] {
					votes = l.kept[v.Candidate]
				}
				gr.Tally = append(gr.Tally, Votes{Candidate: v.Candidate, Votes: votes})
			}
			gr.Inactive = l.inactiveTotals()
			gr.Active = activeTotal(gr.Tally, gr.Inactive)
			if n := len(g.rounds[i]); n > 0 {
				g.rounds[i][n-1].Transfers = l.transfers(k.released)
			}
			g.rounds[i] = append(g.rounds[i], gr)
		}
	}
}

// activeTotal is RCTab's "Active Ballots": every candidate's tally plus the
// final-round surplus, which is still a winner's vote.
func activeTotal(tally []Votes, in Inactive) Decimal {
	t := in.FinalRoundSurplus
	for _, v := range tally {
		t = t.Add(v.Votes)
	}
	return t
}

// sortAudit orders one round's audit entries by ballot record. A ballot
// record appears at most once per round, so when a round moves many ballots
// the entries are placed by record number in linear time, in place (scratch,
// grown as needed and all -1 between calls, is returned for the next round);
// few entries are simply sorted.
func sortAudit(es []AuditEntry, scratch []int32) []int32 {
	hi := int32(0)
	for _, e := range es {
		hi = max(hi, e.Ballot)
	}
	if len(es) < 1024 || len(es) < int(hi)/16 {
		slices.SortFunc(es, func(a, b AuditEntry) int { return cmp.Compare(a.Ballot, b.Ballot) })
		return scratch
	}
	if int(hi) >= len(scratch) {
		scratch = make([]int32, hi+1)
		for i := range scratch {
			scratch[i] = -1
		}
	}
	// rank[i] is where entry i belongs: the number of entries with a
	// smaller ballot record. scratch marks which records are present.
	for _, e := range es {
		scratch[e.Ballot] = 0
	}
	next := int32(0)
	for b := int32(0); b <= hi; b++ {
		if scratch[b] == 0 {
			scratch[b] = next
			next++
		}
	}
	// Move each entry to its place, following cycles of the permutation.
	for i := range es {
		for {
			to := scratch[es[i].Ballot]
			if int(to) == i {
				break
			}
			es[i], es[to] = es[to], es[i]
		}
	}
	for _, e := range es {
		scratch[e.Ballot] = -1
	}
	return scratch
}
