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
// record appears at most once per round, and the entries come as a few
// runs already in order (round 1 in record order; a later round a run per
// piece of a bucket its ballots moved from), so runs are merged, pairwise
// and in sequence, through buf (returned for the next round): memory is
// read and written in order, where placing each entry by its record jumps
// about. Entries in more runs than maxAuditRuns fall back to that placing,
// with scratch (grown as needed, all -1 between calls, returned for the
// next round), or to a plain sort when they are few.
func sortAudit(es []AuditEntry, scratch []int32, buf []AuditEntry) ([]int32, []AuditEntry) {
	var runs []int
	for i := 1; i < len(es) && len(runs) <= maxAuditRuns; i++ {
		if es[i].Ballot < es[i-1].Ballot {
			runs = append(runs, i)
		}
	}
	switch {
	case len(runs) == 0:
		return scratch, buf
	case len(runs) <= maxAuditRuns:
		return scratch, mergeRuns(es, append(append([]int{0}, runs...), len(es)), buf)
	}
	return placeAudit(es, scratch), buf
}

// maxAuditRuns is the most runs sortAudit merges.
const maxAuditRuns = 1 << 12

// mergeRuns sorts es, whose runs es[bounds[i]:bounds[i+1]] are each in
// ballot order, by merging neighbouring runs until one is left, through buf
// (grown as needed and returned).
func mergeRuns(es []AuditEntry, bounds []int, buf []AuditEntry) []AuditEntry {
	if cap(buf) < len(es) {
		buf = make([]AuditEntry, len(es))
	}
	src, dst := es, buf[:len(es)]
	for len(bounds) > 2 {
		next := bounds[:1]
		for i := 0; i+1 < len(bounds); i += 2 {
			lo, mid := bounds[i], bounds[i+1]
			hi := mid
			if i+2 < len(bounds) {
				hi = bounds[i+2]
			}
			a, b, out := lo, mid, lo
			for a < mid && b < hi {
				if src[b].Ballot < src[a].Ballot {
					dst[out] = src[b]
					b++
				} else {
					dst[out] = src[a]
					a++
				}
				out++
			}
			out += copy(dst[out:], src[a:mid])
			copy(dst[out:], src[b:hi])
			next = append(next, hi)
		}
		bounds = next
		src, dst = dst, src
	}
	if &src[0] != &es[0] {
		copy(es, src)
	}
	return buf
}

// placeAudit orders entries in many runs: when many records moved they
// are placed by record number in linear time, in place (scratch, grown as
// needed and all -1 between calls, is returned for the next round); few
// entries are simply sorted.
func placeAudit(es []AuditEntry, scratch []int32) []int32 {
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
