package tally

import (
	"fmt"
	"strings"
	"sync"
)

// Method names a counting method.
type Method string

// The counting methods. IRV and STV are RCTab's ranked-choice count; the
// rest are rank-order and pairwise methods that ignore the round rules.
const (
	IRV               Method = "irv"
	STV               Method = "stv"
	Schulze           Method = "schulze"
	RankedPairs       Method = "rankedpairs"
	RankedPairsMargin Method = "rankedpairs-margin"
	Copeland          Method = "copeland"
	Minimax           Method = "minimax"
	MinimaxMargin     Method = "minimax-margin"
	MinimaxOpposition Method = "minimax-opposition"
	Kemeny            Method = "kemeny"
	Borda             Method = "borda"
	Dowdall           Method = "dowdall"
	Plurality         Method = "plurality"
)

// Methods lists every method Tabulate accepts.
var Methods = []Method{IRV, STV, Schulze, RankedPairs, RankedPairsMargin, Copeland, Minimax,
	MinimaxMargin, MinimaxOpposition, Kemeny, Borda, Dowdall, Plurality}

// ParseMethod returns the method with the given name.
func ParseMethod(name string) (Method, error) {
	m := Method(strings.ToLower(strings.TrimSpace(name)))
	if !oneOf(m, Methods) {
		return "", errorf("unknown method %q; valid methods are %v", name, Methods)
	}
	return m, nil
}

// Grouping splits the ballots into groups (precincts, batches) so a
// ranked-choice count can also be reported group by group.
type Grouping struct {
	// Name is what the groups are, e.g. "Precinct".
	Name string
	// Names are the group names; Of[i] is the index in Names of ballot record i.
	Names []string
	Of    []uint32
}

// Option changes how Tabulate counts.
type Option func(*options)

type options struct {
	check     *ballotCheck // run on each ballot in round 1 of a ranked-choice count
	explicit  bool
	audit     bool
	auditSink AuditSink
	decider   Decider
	groupings []Grouping
	// noCursors places every ballot from its marks in every round (tests
	// compare the two ways; see cursor).
	noCursors bool
}

// WithAudit records, for every round, what happened to each ballot record
// whose count changed (RCTab's audit log). It costs memory on big counts.
func WithAudit() Option { return func(o *options) { o.audit = true } }

// AuditSink receives the audit trail of a ranked-choice count round by
// round, as it is counted: the round's entries in ballot-record order, and
// the values their value indexes refer to. A round may come in several
// calls, each in order and after the one before. Both slices are reused
// after the call returns.
type AuditSink func(pass int, entries []AuditEntry, values []Decimal) error

// WithAuditSink hands the audit trail to sink round by round instead of
// keeping it in the Result, so a count of millions of ballots can write its
// audit log without holding it in memory.
func WithAuditSink(sink AuditSink) Option {
	return func(o *options) { o.audit, o.auditSink = true, sink }
}

// WithExplicitRanking makes the pairwise methods count a pair only on
// ballots that rank both candidates. By default (implicit ranking) a
// candidate left off a ballot ranks below every candidate on it.
func WithExplicitRanking() Option { return func(o *options) { o.explicit = true } }

// WithDecider sets who decides ties that the rules leave to a person.
func WithDecider(d Decider) Option { return func(o *options) { o.decider = d } }

// WithGroups also counts the rounds of a ranked-choice count per group.
func WithGroups(g ...Grouping) Option {
	return func(o *options) { o.groupings = append(o.groupings, g...) }
}

// ErrNoBallots is the answer to a count of no ballots: nobody is elected.
var ErrNoBallots = errorf("there are no ballots to count, so nobody is elected")

// ErrNoVotes is the answer to a count whose ballots give no candidate a
// vote (each is blank, overvoted, or marks only excluded candidates):
// nobody is elected, rather than a tie-break among candidates with none.
var ErrNoVotes = errorf("no ballot gives a vote to a candidate in the count (every ballot is blank, overvoted or marks only excluded candidates), so nobody is elected")

// Tabulate counts ballots for a contest with a method. For IRV and STV the
// rules are RCTab's; the other methods use only the ballots' rank order.
// Same inputs always give the same Result.
func Tabulate(c Contest, b *BallotSet, m Method, r Rules, opts ...Option) (Result, error) {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	if err := c.Validate(); err != nil {
		return Result{}, err
	}
	if b == nil || b.Len() == 0 {
		// Not a coin flip among candidates with no votes.
		return Result{}, ErrNoBallots
	}
	// Ranked-choice and pairwise counts check each ballot as they first
	// read it (in the same pass, while it is in the cache); the others
	// check them all first.
	chk, err := checkBallots(c, b, r, m == IRV || m == STV, m != Plurality && m != Borda && m != Dowdall)
	if err != nil {
		return Result{}, err
	}
	o.check = &chk
	for _, g := range o.groupings {
		if len(g.Of) != b.Len() {
			return Result{}, errorf("grouping %q has %d entries for %d ballots", g.Name, len(g.Of), b.Len())
		}
		for i, gi := range g.Of {
			if int(gi) >= len(g.Names) {
				return Result{}, errorf("grouping %q: ballot %d is in group %d of %d", g.Name, i+1, gi, len(g.Names))
			}
		}
	}
	if m != IRV && m != STV && !marksCandidate(c, b) {
		return Result{}, ErrNoVotes
	}
	switch m {
	case IRV, STV:
		res, err := rankedChoice(c, b, m, r, o)
		if err == nil && len(res.Passes) > 0 && len(res.Passes[0].Rounds) > 0 && res.Passes[0].Rounds[0].Active.IsZero() {
			// No ballot is active in round 1: each is blank, marks only
			// excluded candidates, or the rules exhaust it there.
			return Result{}, ErrNoVotes
		}
		return res, err
	case Plurality:
		return plurality(c, b), nil
	case Borda, Dowdall:
		return borda(c, b, m), nil
	}
	if !oneOf(m, Methods) {
		return Result{}, errorf("unknown method %q; valid methods are %v", m, Methods)
	}
	return pairwiseMethod(c, b, m, o)
}

// rankedChoice runs RCTab's count: one pass, or one pass per seat for
// multiPassIrv with each pass's winner left out of the next.
func rankedChoice(c Contest, b *BallotSet, m Method, r Rules, o options) (Result, error) {
	if m == STV && r.WinnerElectionMode == SingleWinnerMajority {
		r.WinnerElectionMode = MultiWinnerAllowMultipleWinnersPerRound
	}
	if err := r.Validate(c.DeclaredCount()); err != nil {
		return Result{}, err
	}
	res := Result{Method: m}
	if r.WinnerElectionMode != MultiPassIRV {
		p, ties, err := countPass(c, b, r, o, 1, nil)
		if err != nil {
			return Result{}, err
		}
		res.Passes, res.Winners, res.TieBreaks = []Pass{p}, p.Winners, ties
		res.Places = rcvPlaces(c, res)
		return res, nil
	}
	seats := r.NumberOfWinners
	r.NumberOfWinners = 1
	for pass := 1; pass <= seats; pass++ {
		p, ties, err := countPass(c, b, r, o, pass, res.Winners)
		if err != nil {
			return Result{}, errorf("pass %d: %w", pass, err)
		}
		if len(p.Winners) != 1 {
			return Result{}, abortf("pass %d elected %d candidates instead of one", pass, len(p.Winners))
		}
		res.Passes = append(res.Passes, p)
		res.Winners = append(res.Winners, p.Winners[0])
		res.TieBreaks = append(res.TieBreaks, ties...)
	}
	res.Places = rcvPlaces(c, res)
	return res, nil
}

// checkBallots refuses ballot sets that would make the count meaningless:
// malformed columns, unknown candidates, unsorted ranks, and (for
// ranked-choice counts) explicit overvotes the rules cannot handle and
// rankings beyond maxRankingsAllowed. It checks the columns and returns the
// per-ballot check; ranked-choice counts run that check on each ballot as
// round 1 places it, the other methods all at once here (big sets in two
// halves at once, reporting the earliest ballot's error).
func checkBallots(c Contest, b *BallotSet, r Rules, rcv, deferred bool) (ballotCheck, error) {
	if b == nil {
		return ballotCheck{}, errorf("no ballot set")
	}
	n := b.Len()
	if b.Counts != nil && len(b.Counts) != n {
		return ballotCheck{}, errorf("ballot set has %d counts for %d ballots", len(b.Counts), n)
	}
	if b.IDs != nil && b.IDs.Len() != n {
		return ballotCheck{}, errorf("ballot set has %d ids for %d ballots", b.IDs.Len(), n)
	}
	maxRank := 0xFFFF
	if rcv {
		maxRank = r.MaxRankingsAllowed
		if maxRank == MaxRankingsAll {
			maxRank = c.DeclaredCount()
		}
	}
	chk := ballotCheck{c: c, b: b, r: r, rcv: rcv, maxRank: uint16(min(maxRank, 0xFFFF)), nc: uint16(len(c.Candidates))}
	if deferred {
		return chk, nil
	}
	if n < parallelFrom {
		return chk, chk.run(0, n)
	}
	errs := make([]error, 2)
	var wg sync.WaitGroup
	for p := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[p] = chk.run(n*p/2, n*(p+1)/2)
		}()
	}
	wg.Wait()
	if errs[0] != nil {
		return chk, errs[0]
	}
	return chk, errs[1]
}

type ballotCheck struct {
	c       Contest
	b       *BallotSet
	r       Rules
	rcv     bool
	maxRank uint16
	nc      uint16 // how many candidates the contest has
}

// run checks ballots lo..hi-1. The usual ballot passes one compound test
// per mark; only an odd ballot gets a closer look.
func (k *ballotCheck) run(lo, hi int) error {
	ends := k.b.Ends
	start := uint32(0)
	if lo > 0 {
		start = ends[lo-1]
	}
	for i := lo; i < hi; i++ {
		end := ends[i]
		if !k.plain(i, start, end) {
			if err := k.ballot(i); err != nil {
				return err
			}
		}
		start = end
	}
	return nil
}

// one checks ballot i as run does: a ranked-choice count checks each
// ballot of round 1 just before it places it.
func (k *ballotCheck) one(i int) error {
	start := uint32(0)
	if i > 0 {
		start = k.b.Ends[i-1]
	}
	if k.plain(i, start, k.b.Ends[i]) {
		return nil
	}
	return k.ballot(i)
}

// compilePlain is plain and compilePlain (cursor.go) in one reading of
// ballot i's marks, for round 1 of a count with cursors: ok when the
// ballot passes the check without a closer look and its first marks rank
// one candidate each at ranks 1, 2, 3..., none repeated (up to the sixth);
// w is then its compiled cursor. TestCheckedCompileAgrees holds it to the
// two.
func (k *ballotCheck) compilePlain(i int) (w cursor, ok bool) {
	b := k.b
	start, end := uint32(0), b.Ends[i]
	if i > 0 {
		start = b.Ends[i-1]
	}
	if end <= start || int(end) > len(b.Marks) || end-start > 0xFFFF || (b.Counts != nil && b.Counts[i] == 0) {
		return 0, false
	}
	marks := b.Marks[start:end]
	nc, maxRank := k.nc, k.maxRank
	n := min(len(marks), cursorChoices)
	if n > int(maxRank) || nc > 16 {
		return 0, false
	}
	// free holds the candidates not marked yet; a candidate of 32 or more
	// shifts its bit out, and so is refused with those of the contest's
	// past nc or already marked. The first n ranks are 1..n, so none is
	// past maxRank.
	free := uint32(1)<<nc - 1
	for i, m := range marks[:n] {
		bit := uint32(1) << m.Candidate
		if int(m.Rank) != i+1 || free&bit == 0 {
			return 0, false
		}
		free &^= bit
		w |= cursor(m.Candidate) << (4 * i)
	}
	then := ExhaustedChoices
	if len(marks) > n {
		if int(marks[n].Rank) == n {
			return 0, false // the last rank read is an overvote
		}
		prev := uint16(n)
		for _, m := range marks[n:] {
			if m.Rank < prev || m.Rank > maxRank || m.Candidate >= nc {
				return 0, false
			}
			prev = m.Rank
		}
		then = Active
	}
	return w | cursor(n)<<24 | cursor(then)<<27, true
}

// plain reports whether ballot i, whose marks are start..end, is the usual
// ballot: a nonzero count, and marks in rank order from 1, none past the
// last rank counted, each of a candidate of the contest.
func (k *ballotCheck) plain(i int, start, end uint32) bool {
	b := k.b
	if end < start || int(end) > len(b.Marks) || end-start > 0xFFFF || (b.Counts != nil && b.Counts[i] == 0) {
		return false
	}
	prev := uint16(1)
	for _, mk := range b.Marks[start:end] {
		if mk.Rank < prev || mk.Rank > k.maxRank || mk.Candidate >= k.nc {
			return false
		}
		prev = mk.Rank
	}
	return true
}

// ballot checks ballot i closely.
func (k *ballotCheck) ballot(i int) error {
	b := k.b
	start, end := uint32(0), b.Ends[i]
	if i > 0 {
		start = b.Ends[i-1]
	}
	if end < start || int(end) > len(b.Marks) {
		return errorf("ballot %s: marks end at %d, outside %d..%d", ballotName(b, i), end, start, len(b.Marks))
	}
	marks := b.Marks[start:end]
	if len(marks) > 0xFFFF {
		return errorf("ballot %s has %d marks", ballotName(b, i), len(marks))
	}
	if b.Counts != nil && b.Counts[i] == 0 {
		return errorf("ballot %s has count 0", ballotName(b, i))
	}
	for j := range marks {
		if err := k.mark(i, marks, j); err != nil {
			return err
		}
	}
	return nil
}

// mark looks closely at mark j of ballot i.
func (k *ballotCheck) mark(i int, marks []Mark, j int) error {
	b, r, mk := k.b, k.r, marks[j]
	switch {
	case mk.Rank == 0:
		return errorf("ballot %s: rank 0 (ranks count from 1)", ballotName(b, i))
	case j > 0 && mk.Rank < marks[j-1].Rank:
		return errorf("ballot %s: marks are not sorted by rank", ballotName(b, i))
	case mk.Candidate != Overvote && int(mk.Candidate) >= len(k.c.Candidates):
		return errorf("ballot %s: candidate %d does not exist (contest has %d)", ballotName(b, i), mk.Candidate, len(k.c.Candidates))
	case mk.Rank > k.maxRank:
		return errorf("ballot %s: ranking %d is beyond maxRankingsAllowed %d", ballotName(b, i), mk.Rank, k.maxRank)
	case !k.rcv:
		return nil
	case mk.Candidate == Overvote && r.OvervoteRule == ExhaustIfMultipleContinuing:
		return errorf("ballot %s: an explicit overvote label needs overvoteRule %s or %s, not %s",
			ballotName(b, i), ExhaustImmediately, AlwaysSkipToNextRank, r.OvervoteRule)
	case OvervoteBeside(marks, j):
		return errorf("ballot %s: rank %d has an explicit overvote label and candidates", ballotName(b, i), mk.Rank)
	}
	return nil
}

// OvervoteBeside reports whether mark j of a ballot's marks (in rank
// order) is an explicit overvote (Overvote) at a rank that holds other
// marks too, which no count can judge: the rules say what an overvote
// does, or what candidates marked together do, not both. The count
// refuses such a ballot, and the CVR readers refuse such a record.
func OvervoteBeside(marks []Mark, j int) bool {
	return marks[j].Candidate == Overvote &&
		((j > 0 && marks[j-1].Rank == marks[j].Rank) || (j+1 < len(marks) && marks[j+1].Rank == marks[j].Rank))
}

// ballotName names ballot record i for an error: its id, or its position.
func ballotName(b *BallotSet, i int) string {
	if id := b.ID(i); id != "" {
		return fmt.Sprintf("%q (record %d)", id, i+1)
	}
	return fmt.Sprintf("record %d", i+1)
}

// rcvPlaces ranks the candidates of a ranked-choice count: winners by order
// of election (those elected in the same round share a place), then the
// candidates still in the count at the end by their last tally, then the
// eliminated, the last eliminated first (eliminated together, together).
// Earlier passes' winners come first in multi-pass counts; candidates the
// contest excludes are not placed.
func rcvPlaces(c Contest, res Result) []Place {
	var groups [][]int
	placed := make([]bool, len(c.Candidates))
	add := func(g []int) {
		if len(g) > 0 {
			groups = append(groups, g)
			for _, x := range g {
				placed[x] = true
			}
		}
	}
	for _, p := range res.Passes[:len(res.Passes)-1] {
		add(p.Winners)
	}
	last := res.Passes[len(res.Passes)-1]
	for _, rd := range last.Rounds {
		add(rd.Elected)
	}
	final := last.Rounds[len(last.Rounds)-1]
	var rest []Votes
	for _, v := range final.Tally {
		if !placed[v.Candidate] && !oneOf(v.Candidate, final.Eliminated) {
			rest = append(rest, v)
		}
	}
	for _, g := range placesByRelation(len(rest), func(i, j int) bool { return rest[i].Votes.Cmp(rest[j].Votes) > 0 }) {
		var cands []int
		for _, i := range g {
			cands = append(cands, rest[i].Candidate)
		}
		add(cands)
	}
	for r := len(last.Rounds) - 1; r >= 0; r-- {
		add(last.Rounds[r].Eliminated)
	}
	return toPlaces(groups, identityList(len(c.Candidates)))
}

func identityList(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// marksCandidate reports whether some ballot marks a candidate that is not
// excluded.
func marksCandidate(c Contest, b *BallotSet) bool {
	for _, m := range b.Marks {
		if m.Candidate != Overvote && int(m.Candidate) < len(c.Candidates) && !c.Candidates[m.Candidate].Excluded {
			return true
		}
	}
	return false
}
