package tally

import (
	"errors"
	"runtime"
	"sort"
	"sync"
)

// candidate states during a ranked-choice count.
const (
	continuing uint8 = iota
	eliminated
	elected
	excluded
)

// counter runs one pass of a ranked-choice count with RCTab's rules.
type counter struct {
	contest Contest
	rules   Rules
	ballots *BallotSet
	opts    options
	pass    int
	decimal int32 // decimalPlacesForVoteArithmetic

	state     []uint8
	cont      []bool // continuing, as RCTab's isCandidateContinuing
	elimRound []int
	winRound  []int
	winners   []int
	numElim   int
	uwi       int // the undeclared write-in candidate, or -1

	// per ballot record
	cur []cursor // where each ballot stands (see cursor)
	// compiles is whether ballots are read once into cursors: the rules
	// decide every rank group without looking at who continues.
	compiles bool
	val      []Decimal // value of each ballot when surpluses move; nil means 1
	warmed   uint32    // what cut's reads ahead summed (see warmValues)
	// buckets[c] lists the ballots counting for candidate c.
	buckets []bucket
	// released are the candidates whose ballots move in the current round.
	released []int

	main   *ledger
	groups []groupLedgers

	rounds []Round
	ties   *tieBreaker
	breaks []TieBreak
	audit  []AuditEntry
	// auditValues are the audit entries' values other than 1.
	auditValues []Decimal
	// auditOrder and auditBuf are sortAudit's scratch space, kept between
	// rounds.
	auditOrder []int32
	auditBuf   []AuditEntry
}

// groupLedgers are the ledgers of one grouping (precincts, batches).
type groupLedgers struct {
	grouping Grouping
	ledgers  []*ledger
	rounds   [][]Round
}

// countPass runs one pass. excludedAlso lists candidates to leave out on top
// of those the contest excludes (earlier multi-pass winners).
func countPass(c Contest, b *BallotSet, r Rules, o options, pass int, excludedAlso []int) (Pass, []TieBreak, error) {
	k := &counter{contest: c, rules: r, ballots: b, opts: o, pass: pass, decimal: int32(r.DecimalPlacesForVoteArithmetic), uwi: -1}
	n := len(c.Candidates)
	k.state = make([]uint8, n)
	k.cont = make([]bool, n)
	k.elimRound = make([]int, n)
	k.winRound = make([]int, n)
	for i, cand := range c.Candidates {
		if cand.Excluded || oneOf(i, excludedAlso) {
			k.state[i] = excluded
		}
		if cand.UndeclaredWriteIn {
			k.uwi = i
		}
	}
	k.refreshContinuing()
	k.main = newLedger(n)
	for _, g := range o.groupings {
		gl := groupLedgers{grouping: g, ledgers: make([]*ledger, len(g.Names)), rounds: make([][]Round, len(g.Names))}
		for i := range gl.ledgers {
			gl.ledgers[i] = newLedger(n)
		}
		k.groups = append(k.groups, gl)
	}
	if err := k.setUpTies(); err != nil {
		return Pass{}, nil, err
	}
	if err := k.run(); err != nil {
		return Pass{}, nil, err
	}
	p := Pass{Winners: k.winners, Rounds: k.rounds, Audit: k.audit, AuditValues: k.auditValues}
	for i, st := range k.state {
		if st == excluded {
			p.Excluded = append(p.Excluded, i)
		}
	}
	for _, g := range k.groups {
		for i, name := range g.grouping.Names {
			p.Groups = append(p.Groups, GroupRounds{Grouping: g.grouping.Name, Group: name, Rounds: g.rounds[i]})
		}
	}
	return p, k.breaks, nil
}

// setUpTies prepares the tie-breaker: the random generator and the
// permutation, as RCTab does at the start of each tabulation.
func (k *counter) setUpTies() error {
	t := &tieBreaker{names: k.contest.Names(), mode: k.rules.TiebreakMode, decider: k.opts.decider, pass: k.pass}
	for i, cand := range k.contest.Candidates {
		if !cand.UndeclaredWriteIn {
			t.permutation = append(t.permutation, i)
		}
	}
	if k.rules.NeedsRandomSeed() {
		rnd := NewJavaRandom(k.rules.RandomSeed)
		if k.rules.TiebreakMode == GeneratePermutation {
			sort.SliceStable(t.permutation, func(i, j int) bool { return JavaLess(t.names[t.permutation[i]], t.names[t.permutation[j]]) })
			p := t.permutation
			rnd.Shuffle(len(p), func(i, j int) { p[i], p[j] = p[j], p[i] })
		} else {
			t.random = rnd
		}
	}
	k.ties = t
	return nil
}

// refreshContinuing recomputes which candidates are continuing: neither out
// nor elected, except that winners stay in when counting continues until
// two candidates remain.
func (k *counter) refreshContinuing() {
	for i, st := range k.state {
		k.cont[i] = st == continuing || (st == elected && k.rules.ContinueUntilTwoCandidatesRemain)
	}
}

// run is RCTab's tabulate loop: count a round, then elect or eliminate,
// until the rules say stop.
func (k *counter) run() error {
	round := 0
	for k.keepGoing(round) {
		round++
		if err := k.countRound(round, k.released); err != nil {
			return err
		}
		rd := &k.rounds[len(k.rounds)-1]
		k.setThreshold(rd)
		groups := k.sortedTally(rd)
		winners, err := k.identifyWinners(rd, groups)
		if err != nil {
			return err
		}
		switch {
		case len(winners) > 0:
			k.elect(rd, winners)
		case k.needsElimination():
			losers, err := k.chooseLosers(rd, groups)
			if err != nil {
				return err
			}
			for _, c := range losers {
				k.state[c] = eliminated
				k.elimRound[c] = round
				k.numElim++
			}
			rd.Eliminated = losers
		}
		if k.rules.NumberOfWinners > 1 {
			k.updateWinnerTallies(round)
		}
		k.finishRound(rd)
		k.refreshContinuing()
		k.released = nil
		for c, st := range k.state {
			if !k.cont[c] && st != excluded && k.buckets[c].size() > 0 {
				k.released = append(k.released, c)
			}
		}
	}
	return nil
}

// keepGoing is RCTab's shouldContinueTabulating, asked after round rounds.
func (k *counter) keepGoing(round int) bool {
	r := k.rules
	wins := len(k.winners)
	switch {
	case r.StopTabulationEarlyAfterRound > 0 && round >= r.StopTabulationEarlyAfterRound:
		return false
	case wins == k.contest.DeclaredCount() && r.NumberOfWinners > k.countedNow():
		return false
	case r.ContinueUntilTwoCandidatesRemain:
		return k.numElim+wins+1 < k.countedNow() || (round > 0 && k.eliminatedIn(round))
	case r.WinnerElectionMode == BottomsUpUsingPercentageThreshold:
		return wins == 0
	}
	return wins < r.NumberOfWinners || (r.usesSurpluses() && round > 0 && k.electedIn(round))
}

// countedNow is getNumCandidates for this pass: candidates not excluded.
func (k *counter) countedNow() int {
	n := 0
	for _, st := range k.state {
		if st != excluded {
			n++
		}
	}
	return n
}

func (k *counter) eliminatedIn(round int) bool {
	for c, st := range k.state {
		if st == eliminated && k.elimRound[c] == round {
			return true
		}
	}
	return false
}

func (k *counter) electedIn(round int) bool {
	for _, w := range k.winners {
		if k.winRound[w] == round {
			return true
		}
	}
	return false
}

// needsElimination reports whether a round without winners eliminates.
func (k *counter) needsElimination() bool {
	r := k.rules
	return len(k.winners) < r.NumberOfWinners ||
		(r.ContinueUntilTwoCandidatesRemain && k.numElim < k.countedNow()-2) ||
		r.WinnerElectionMode == BottomsUpUsingPercentageThreshold
}

// elect records this round's winners and, when surpluses move, lowers the
// value of each of their ballots to the surplus fraction.
func (k *counter) elect(rd *Round, winners []int) {
	for _, w := range winners {
		k.state[w] = elected
		k.winRound[w] = rd.Number
		k.winners = append(k.winners, w)
	}
	rd.Elected = winners
	if !k.rules.usesSurpluses() {
		return
	}
	if k.val == nil {
		k.val = make([]Decimal, k.ballots.Len())
		for i := range k.val {
			k.val[i] = DecimalInt(1)
		}
	}
	for _, w := range winners {
		votes := tallyOf(*rd, w)
		extra := votes.Sub(rd.Threshold)
		fraction := Decimal{}
		if extra.Sign() > 0 {
			fraction = extra.Div(votes, k.decimal, RoundDown)
		}
		segs := k.buckets[w]
		total := 0
		for _, seg := range segs {
			total += len(seg)
		}
		if total < parallelFrom || len(k.groups) > 0 || runtime.GOMAXPROCS(0) < 2 {
			kept, warmed := k.cut(w, segs, fraction)
			k.main.locked[w].merge(kept)
			k.warmed += warmed
			continue
		}
		// A big surplus on both cores: each half of the ballots is cut
		// and summed apart, and the exact sums added.
		var kept [2]acc
		var warmed [2]uint32
		var wg sync.WaitGroup
		for p := range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				kept[p], warmed[p] = k.cut(w, splitSegs(segs, total, p, 2), fraction)
			}()
		}
		wg.Wait()
		for p := range 2 {
			k.main.locked[w].merge(kept[p])
			k.warmed += warmed[p]
		}
	}
}

// cut cuts the value of each ballot in segs, winner w's, to the surplus
// fraction, and returns the sum of what the ballots leave with w (their
// groups' ledgers get theirs at once) and what its reads ahead summed.
func (k *counter) cut(w int, segs [][]int32, fraction Decimal) (kept acc, warmed uint32) {
	for _, seg := range segs {
		for i, b := range seg {
			if i%warmBlock == 0 {
				warmed += k.warmValues(seg[i:min(i+warmBlock, len(seg))])
			}
			v := k.val[b]
			moving := v.Mul(fraction).SetScale(k.decimal, RoundDown)
			keep := v.Sub(moving).MulInt(int64(k.count(int(b))))
			kept.addDecimal(keep)
			for gi := range k.groups {
				k.groupLedger(gi, int(b)).locked[w].addDecimal(keep)
			}
			k.val[b] = moving
		}
	}
	return kept, warmed
}

// splitSegs returns part p of parts of segs (total ballots in all), cut by
// ballot count.
func splitSegs(segs [][]int32, total, p, parts int) [][]int32 {
	from, to := total*p/parts, total*(p+1)/parts
	var out [][]int32
	at := 0
	for _, seg := range segs {
		lo, hi := max(from-at, 0), min(to-at, len(seg))
		if lo < hi {
			out = append(out, seg[lo:hi])
		}
		at += len(seg)
	}
	return out
}

// count returns the multiplicity of ballot record b.
func (k *counter) count(b int) uint32 {
	if k.ballots.Counts == nil {
		return 1
	}
	return k.ballots.Counts[b]
}

func (k *counter) groupLedger(gi, b int) *ledger {
	g := k.groups[gi]
	return g.ledgers[g.grouping.Of[b]]
}

// errAbort wraps the conditions under which RCTab abandons a tabulation.
var errAbort = errors.New("tabulation cannot proceed")

func abortf(format string, a ...any) error {
	return errorf("%w: "+format, append([]any{errAbort}, a...)...)
}
