package tally

// countRound is RCTab's computeTalliesForRound. RCTab looks at every ballot
// every round; a ballot whose candidate is still continuing simply counts
// again, so this count only touches the ballots of candidates released at
// the end of the previous round (all ballots in round 1) and carries every
// other total forward.
func (k *counter) countRound(round int, released []int) error {
	n := len(k.contest.Candidates)
	k.main.startMoves(len(released), n)
	for _, g := range k.groups {
		for _, l := range g.ledgers {
			l.startMoves(len(released), n)
		}
	}
	auditFrom := len(k.audit)
	if round == 1 {
		k.firstRound()
	} else {
		frs := k.rules.usesSurpluses() && len(k.winners) == k.rules.NumberOfWinners
		for ri, s := range released {
			for _, b := range k.buckets[s] {
				k.reassign(round, int(b), ri, frs)
			}
			k.buckets[s] = nil
			k.main.tally[s] = acc{}
			for _, g := range k.groups {
				for _, l := range g.ledgers {
					l.tally[s] = acc{}
				}
			}
		}
	}
	if k.opts.audit {
		sortAudit(k.audit[auditFrom:])
	}
	rd := Round{Number: round}
	for c := range k.cont {
		if k.cont[c] {
			rd.Tally = append(rd.Tally, Votes{Candidate: c, Votes: k.main.tally[c].value()})
		}
	}
	k.rounds = append(k.rounds, rd)
	return nil
}

// firstRound places every ballot and builds the per-candidate buckets with
// a counting sort, so each bucket is one slice of a shared array.
func (k *counter) firstRound() {
	bs := k.ballots
	nb := bs.Len()
	k.rec = make([]int32, nb)
	k.grp = make([]uint16, nb)
	k.bstat = make([]Status, nb)
	sizes := make([]int, len(k.contest.Candidates)+1)
	start := uint32(0)
	for b := 0; b < nb; b++ {
		end := bs.Ends[b]
		marks := bs.Marks[start:end]
		start = end
		c, st, at := -1, NoRankings, 0
		if len(marks) > 0 {
			c, st, at = k.place(marks, 0)
		}
		k.settle(1, b, -1, c, st, at)
		if st == Active {
			sizes[c+1]++
		}
	}
	for c := 1; c < len(sizes); c++ {
		sizes[c] += sizes[c-1]
	}
	all := make([]int32, sizes[len(sizes)-1])
	fill := append([]int(nil), sizes...)
	for b, c := range k.rec {
		if c >= 0 {
			all[fill[c]] = int32(b)
			fill[c]++
		}
	}
	k.buckets = make([][]int32, len(k.contest.Candidates))
	for c := range k.buckets {
		k.buckets[c] = all[sizes[c]:sizes[c+1]:sizes[c+1]]
	}
}

// reassign moves ballot b away from its released candidate (the ri-th
// released this round). Once every seat is filled, a winner's ballots carry
// only its final-round surplus.
func (k *counter) reassign(round, b, ri int, frs bool) {
	c, st, at := -1, FinalRoundSurplus, 0
	if !frs {
		start := uint32(0)
		if b > 0 {
			start = k.ballots.Ends[b-1]
		}
		c, st, at = k.place(k.ballots.Marks[start:k.ballots.Ends[b]], int(k.grp[b]))
	}
	k.settle(round, b, ri, c, st, at)
	if st == Active {
		k.buckets[c] = append(k.buckets[c], int32(b))
	}
}

// settle records where ballot b now counts: for candidate c (status Active,
// rank group at offset at) or inactive with status st. ri is the index of
// the released candidate it came from, or -1 in round 1.
func (k *counter) settle(round, b, ri, c int, st Status, at int) {
	cnt := int64(k.count(b))
	var v *Decimal
	if k.val != nil {
		v = &k.val[b]
	}
	k.apply(k.main, v, cnt, ri, c, st)
	for gi := range k.groups {
		k.apply(k.groupLedger(gi, b), v, cnt, ri, c, st)
	}
	k.bstat[b] = st
	k.rec[b] = int32(c)
	k.grp[b] = uint16(at)
	if k.opts.audit {
		e := AuditEntry{Round: round, Ballot: b, Status: st, Candidate: c, Value: DecimalInt(1)}
		if v != nil {
			e.Value = *v
		}
		k.audit = append(k.audit, e)
	}
}

// apply adds one ballot's move to a ledger.
func (k *counter) apply(l *ledger, v *Decimal, cnt int64, ri, c int, st Status) {
	if ri >= 0 && (v == nil || v.Sign() > 0) {
		to := Exhausted
		if st == Active {
			to = c
		}
		l.moves[ri][to+2].add(v, cnt)
	}
	if st == Active {
		l.tally[c].add(v, cnt)
	} else {
		l.inactive[st].add(v, cnt)
	}
}

// place scans a ballot's marks from the rank group at offset start, as
// RCTab scans rankings from the top: resuming at the group of the previous
// candidate gives the same answer because candidates never come back. It
// returns the candidate the ballot now counts for and the offset of its
// rank group, or the reason the ballot becomes inactive.
func (k *counter) place(marks []Mark, start int) (int, Status, int) {
	r := &k.rules
	lastRank := 0
	if start > 0 {
		lastRank = int(marks[start-1].Rank)
	}
	maxRank := int(marks[len(marks)-1].Rank)
	for i := start; i < len(marks); {
		rank := int(marks[i].Rank)
		j := i + 1
		for j < len(marks) && int(marks[j].Rank) == rank {
			j++
		}
		if r.MaxSkippedRanksAllowed != Unlimited && rank-lastRank > r.MaxSkippedRanksAllowed+1 {
			return -1, SkippedRankings, i
		}
		lastRank = rank
		if r.ExhaustOnDuplicateCandidate && repeats(marks, i, j) {
			return -1, RepeatedRanking, i
		}
		switch k.overvote(marks[i:j]) {
		case overvoteExhaust:
			return -1, Overvoted, i
		case overvoteSkip:
			if rank == maxRank {
				return -1, ExhaustedChoices, i
			}
			i = j
			continue
		}
		for _, m := range marks[i:j] {
			if m.Candidate != Overvote && k.cont[m.Candidate] {
				return int(m.Candidate), Active, i
			}
		}
		if rank == maxRank {
			return -1, ExhaustedChoices, i
		}
		i = j
	}
	return -1, ExhaustedChoices, len(marks)
}

// repeats reports whether a mark of the group marks[i:j] repeats a candidate
// marked earlier on the ballot (or earlier in the same group).
func repeats(marks []Mark, i, j int) bool {
	for g := i; g < j; g++ {
		for _, m := range marks[:g] {
			if m.Candidate == marks[g].Candidate {
				return true
			}
		}
	}
	return false
}

type overvoteDecision uint8

const (
	overvoteNone overvoteDecision = iota
	overvoteExhaust
	overvoteSkip
)

// overvote is RCTab's getOvervoteDecision for one rank group. An explicit
// overvote label always stands alone (checked before counting).
func (k *counter) overvote(group []Mark) overvoteDecision {
	rule := k.rules.OvervoteRule
	if group[0].Candidate == Overvote || len(group) > 1 {
		switch {
		case rule == ExhaustImmediately:
			return overvoteExhaust
		case rule == AlwaysSkipToNextRank:
			return overvoteSkip
		case len(group) == 1:
			return overvoteNone
		}
		live := 0
		for _, m := range group {
			if m.Candidate != Overvote && k.cont[m.Candidate] {
				live++
			}
		}
		if live >= 2 {
			return overvoteExhaust
		}
	}
	return overvoteNone
}
