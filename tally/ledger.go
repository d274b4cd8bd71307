package tally

// acc sums ballot values the way RCTab's BigDecimal sums do: whole-vote
// ballots (value 1, scale 0) add to an int64, fractional ones (scale D) to a
// Decimal, and the sum has scale D as soon as one fractional value — even a
// zero one — has been added.
type acc struct {
	ones    int64
	frac    Decimal
	hasFrac bool
}

// add adds count copies of v; a nil v means the whole vote 1.
func (a *acc) add(v *Decimal, count int64) {
	if v == nil || (v.scale == 0 && v.b == nil && v.u == 1) {
		a.ones += count
		return
	}
	a.frac = a.frac.Add(v.MulInt(count))
	a.hasFrac = true
}

// merge adds another sum.
func (a *acc) merge(b acc) {
	a.ones += b.ones
	if b.hasFrac {
		a.addDecimal(b.frac)
	}
}

// addDecimal adds an already weighted amount.
func (a *acc) addDecimal(d Decimal) {
	a.frac = a.frac.Add(d)
	a.hasFrac = true
}

// value returns the sum as RCTab would hold it.
func (a acc) value() Decimal {
	if !a.hasFrac {
		return DecimalInt(a.ones)
	}
	return a.frac.Add(DecimalInt(a.ones))
}

// ledger holds the running totals of one scope of a count: the whole
// contest, or one group of ballots (a precinct or batch).
type ledger struct {
	tally    []acc // per candidate, ballots currently counting for them
	inactive [FinalRoundSurplus + 1]acc
	// locked is the value a winner keeps from each of its ballots once its
	// surplus has moved on (multi-seat counts).
	locked []acc
	// kept is a past winner's reported tally, carried from round to round.
	kept []Decimal
	// moves holds this round's transfers: one row per released candidate,
	// indexed by destination + 2 (so Exhausted and ResidualSurplus fit).
	moves [][]acc
}

func newLedger(n int) *ledger {
	return &ledger{tally: make([]acc, n), locked: make([]acc, n), kept: make([]Decimal, n)}
}

// newDeltaLedger returns an empty ledger for one round's changes, with
// transfer rows for the released candidates.
func newDeltaLedger(n, released int) *ledger {
	l := &ledger{tally: make([]acc, n)}
	l.startMoves(released, n)
	return l
}

// merge adds a round's changes into the ledger.
func (l *ledger) merge(d *ledger) {
	for c := range d.tally {
		l.tally[c].merge(d.tally[c])
	}
	for s := range d.inactive {
		l.inactive[s].merge(d.inactive[s])
	}
	for i, row := range d.moves {
		for j := range row {
			l.moves[i][j].merge(row[j])
		}
	}
}

// startMoves prepares one transfer row per released candidate.
func (l *ledger) startMoves(released, n int) {
	l.moves = l.moves[:0]
	for range released {
		l.moves = append(l.moves, make([]acc, n+2))
	}
}

// inactiveTotals snapshots the inactive categories.
func (l *ledger) inactiveTotals() Inactive {
	return Inactive{
		NoRankings:        l.inactive[NoRankings].value(),
		Overvotes:         l.inactive[Overvoted].value(),
		SkippedRankings:   l.inactive[SkippedRankings].value(),
		ExhaustedChoices:  l.inactive[ExhaustedChoices].value(),
		RepeatedRankings:  l.inactive[RepeatedRanking].value(),
		FinalRoundSurplus: l.inactive[FinalRoundSurplus].value(),
	}
}

// transfers lists the non-empty moves from the released candidates.
func (l *ledger) transfers(released []int) []Transfer {
	var out []Transfer
	for i, src := range released {
		row := l.moves[i]
		for to := -2; to < len(row)-2; to++ {
			a := row[to+2]
			if a.ones != 0 || a.hasFrac {
				out = append(out, Transfer{From: src, To: to, Votes: a.value()})
			}
		}
	}
	return out
}
