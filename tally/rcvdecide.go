package tally

import "sort"

// setThreshold is RCTab's winning threshold. Multi-seat counts fix it in
// round 1; single-seat counts recompute it every round from the active
// ballots, unless the first round determines it, and freeze it once a
// winner is elected (counting on until two remain).
func (k *counter) setThreshold(rd *Round) {
	r := k.rules
	recompute := rd.Number == 1
	if r.NumberOfWinners <= 1 {
		recompute = recompute || (!r.DoesFirstRoundDetermineThreshold && len(k.winners) == 0)
	}
	if !recompute {
		rd.Threshold = k.rounds[len(k.rounds)-2].Threshold
		return
	}
	total := Decimal{}
	for _, v := range rd.Tally {
		total = total.Add(v.Votes)
	}
	var t Decimal
	if r.WinnerElectionMode == BottomsUpUsingPercentageThreshold {
		pct := NewDecimal(int64(r.MultiSeatBottomsUpPercentageThreshold), 2).StripZeros(0)
		t = total.Mul(pct)
	} else {
		divisor := int64(r.NumberOfWinners + 1)
		if r.HareQuota {
			divisor = int64(r.NumberOfWinners)
		}
		decimals := int32(0)
		if r.NonIntegerWinningThreshold {
			decimals = k.decimal
		}
		if r.HareQuota {
			t = total.Div(DecimalInt(divisor), decimals, RoundUp)
		} else {
			t = total.Div(DecimalInt(divisor), decimals, RoundDown).Add(NewDecimal(1, decimals))
		}
	}
	if min := DecimalInt(r.MinimumVoteThreshold); min.Sign() > 0 && min.Cmp(t) > 0 {
		t = min
	}
	rd.Threshold = t
}

// tallyGroup is the candidates sharing one tally, in candidate order.
type tallyGroup struct {
	votes Decimal
	cands []int
}

// sortedTally groups the round's candidates by tally, lowest first
// (RCTab's buildTallyToCandidates).
func (k *counter) sortedTally(rd *Round) []tallyGroup {
	vs := append([]Votes(nil), rd.Tally...)
	sort.SliceStable(vs, func(i, j int) bool { return vs[i].Votes.Cmp(vs[j].Votes) < 0 })
	var groups []tallyGroup
	for _, v := range vs {
		if n := len(groups); n > 0 && groups[n-1].votes.Cmp(v.Votes) == 0 {
			groups[n-1].cands = append(groups[n-1].cands, v.Candidate)
			continue
		}
		groups = append(groups, tallyGroup{votes: v.Votes, cands: []int{v.Candidate}})
	}
	return groups
}

// identifyWinners is RCTab's identifyWinners.
func (k *counter) identifyWinners(rd *Round, groups []tallyGroup) ([]int, error) {
	r := k.rules
	if k.uwi >= 0 && k.cont[k.uwi] && tallyOf(*rd, k.uwi).Sign() != 0 {
		return nil, nil // nobody wins while undeclared write-ins hold votes
	}
	active := len(rd.Tally)
	var sel []int
	if r.WinnerElectionMode == BottomsUpUsingPercentageThreshold {
		for _, v := range rd.Tally {
			if v.Votes.Cmp(rd.Threshold) <= 0 {
				return nil, nil
			}
			sel = append(sel, v.Candidate)
		}
		return sel, nil
	}
	unfilled := r.NumberOfWinners - len(k.winners)
	var top tallyGroup
	if len(groups) > 0 {
		top = groups[len(groups)-1]
	}
	if unfilled > 0 {
		switch {
		case active <= unfilled:
			for _, v := range rd.Tally {
				sel = append(sel, v.Candidate)
			}
		case r.DoesFirstRoundDetermineThreshold && active-1 == r.NumberOfWinners:
			sel = append(sel, top.cands...)
		case r.WinnerElectionMode != BottomsUp:
			for _, g := range groups {
				if g.votes.Cmp(rd.Threshold) >= 0 {
					for _, c := range g.cands {
						if c != k.uwi {
							sel = append(sel, c)
						}
					}
				}
			}
		}
	}
	manyWinners := len(sel) > 1 && (r.WinnerElectionMode == MultiWinnerAllowOnlyOneWinnerPerRound || r.DoesFirstRoundDetermineThreshold)
	noWinner := r.NumberOfWinners == 1 && len(sel) == 0 && active == 2 && unfilled == 1 &&
		len(groups) > 0 && groups[0].votes.Cmp(DecimalInt(r.MinimumVoteThreshold)) >= 0
	if manyWinners || noWinner {
		sel = append([]int(nil), top.cands...)
		if len(sel) > 1 {
			w, err := k.breakTie(rd, true, sel, top.votes)
			if err != nil {
				return nil, err
			}
			sel = []int{w}
		}
	}
	return sel, nil
}

// chooseLosers picks this round's eliminations, the first rule that applies
// winning: undeclared write-ins, the minimum vote threshold, batch
// elimination, then the single lowest candidate.
func (k *counter) chooseLosers(rd *Round, groups []tallyGroup) ([]int, error) {
	r := k.rules
	if len(groups) == 0 {
		return nil, abortf("round %d: no candidates are left to eliminate and %d seats are unfilled",
			rd.Number, r.NumberOfWinners-len(k.winners))
	}
	if k.uwi >= 0 && k.cont[k.uwi] && tallyOf(*rd, k.uwi).Sign() > 0 {
		return []int{k.uwi}, nil
	}
	if min := DecimalInt(r.MinimumVoteThreshold); min.Sign() > 0 && groups[0].votes.Cmp(min) < 0 {
		var out []int
		for _, g := range groups {
			if g.votes.Cmp(min) >= 0 {
				break
			}
			out = append(out, g.cands...)
		}
		if len(out) == k.contest.DeclaredCount() {
			return nil, abortf("round %d: every declared candidate is below the minimum vote threshold of %d", rd.Number, r.MinimumVoteThreshold)
		}
		return out, nil
	}
	if r.BatchElimination {
		if out := k.batch(groups); len(out) > 1 {
			return out, nil
		}
	}
	low := groups[0]
	if len(low.cands) == 1 {
		return []int{low.cands[0]}, nil
	}
	loser, err := k.breakTie(rd, false, low.cands, low.votes)
	if err != nil {
		return nil, err
	}
	return []int{loser}, nil
}

// batch is RCTab's runBatchElimination: eliminate together every candidate
// whose combined votes, added up from the bottom, cannot reach the next
// candidate up, keeping two candidates when continuing until two remain.
func (k *counter) batch(groups []tallyGroup) []int {
	running := Decimal{}
	var seen, out, prev []int
	for _, g := range groups {
		grown := out
		if running.Cmp(g.votes) < 0 && len(seen) > len(out) {
			grown = append(append([]int(nil), out...), seen[len(out):]...)
		}
		running = running.Add(g.votes.MulInt(int64(len(g.cands))).SetScale(k.decimal, RoundDown))
		seen = append(seen, g.cands...)
		if len(grown) > len(out) {
			prev, out = out, grown
		}
	}
	if k.rules.ContinueUntilTwoCandidatesRemain && len(out)+k.numElim == k.countedNow()-1 {
		out = prev
	}
	return out
}

// breakTie resolves a tie and records the decision.
func (k *counter) breakTie(rd *Round, winner bool, tied []int, votes Decimal) (int, error) {
	c, why, err := k.ties.breakTie(winner, tied, votes, rd.Number, k.rounds)
	if err != nil {
		return 0, err
	}
	sorted := append([]int(nil), tied...)
	sort.SliceStable(sorted, func(i, j int) bool { return JavaLess(k.ties.names[sorted[i]], k.ties.names[sorted[j]]) })
	k.breaks = append(k.breaks, TieBreak{Pass: k.pass, Round: rd.Number, SelectingWinner: winner, Tied: sorted, Votes: votes, Chosen: c, Explanation: why})
	rd.TieBroken = append(rd.TieBroken, c)
	return c, nil
}
