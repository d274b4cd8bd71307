package tally

import (
	"runtime"
	"slices"
	"sync"
)

// bucket lists the ballot records counting for one candidate, as segments
// appended round by round (so moving ballots never copies a bucket).
type bucket [][]int32

// joined returns the bucket as one segment, its ballots in the same order.
func (b bucket) joined() bucket {
	if len(b) < 2 {
		return b
	}
	all := make([]int32, 0, b.size())
	for _, s := range b {
		all = append(all, s...)
	}
	return bucket{all}
}

func (b bucket) size() int {
	n := 0
	for _, s := range b {
		n += len(s)
	}
	return n
}

// worker places a share of a round's ballots. Its ledger holds only this
// round's changes, added to the count's ledger afterwards; integer and exact
// decimal sums do not depend on the order of addition, so splitting the
// work changes nothing in the result.
type worker struct {
	delta *ledger
	// err is the first bad ballot the worker met in round 1.
	err error
	// incoming[c] lists the worker's ballots that now count for c.
	incoming [][]int32
	audit    []AuditEntry
	values   []Decimal // the audit entries' values other than 1
	warmed   uint32    // see warm
}

// parallelFrom is the number of ballots from which a round is split
// between two goroutines.
const parallelFrom = 1 << 15

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
	var jobs []job
	total := 0
	if round == 1 {
		nb := k.ballots.Len()
		k.cur = make([]cursor, nb)
		k.compiles = len(k.contest.Candidates) <= 16 && k.rules.OvervoteRule != ExhaustIfMultipleContinuing
		k.buckets = make([]bucket, n)
		jobs = append(jobs, job{ri: -1, lo: 0, hi: nb})
		total = nb
	} else {
		for ri, s := range released {
			for _, seg := range k.buckets[s] {
				jobs = append(jobs, job{ri: ri, seg: seg, hi: len(seg)})
				total += len(seg)
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
	if round == 1 && k.opts.auditSink != nil && total > auditBlock {
		// Round 1 writes an audit entry for every ballot: streamed, it is
		// placed a block at a time, so its entries never all wait in memory.
		for lo := 0; lo < total; lo += auditBlock {
			block := []job{{ri: -1, lo: lo, hi: min(lo+auditBlock, total)}}
			if err := k.placeJobs(round, released, block, block[0].hi-lo); err != nil {
				return err
			}
		}
		for c, b := range k.buckets {
			k.buckets[c] = b.joined()
		}
	} else if err := k.placeJobs(round, released, jobs, total); err != nil {
		return err
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

// auditBlock is how many ballots a streamed round 1 places at a time.
const auditBlock = 1 << 18

// placeJobs places the ballots of jobs (total in all) with a goroutine per
// core when they are many, adds their moves to the count and their audit
// entries to the trail.
func (k *counter) placeJobs(round int, released []int, jobs []job, total int) error {
	n := len(k.contest.Candidates)
	parts := 1
	if total >= parallelFrom && len(k.groups) == 0 && runtime.GOMAXPROCS(0) > 1 {
		parts = 2
	}
	workers := make([]*worker, parts)
	var wg sync.WaitGroup
	for p := range parts {
		w := &worker{delta: newDeltaLedger(n, len(released))}
		workers[p] = w
		share := splitJobs(jobs, total, p, parts)
		wg.Add(1)
		go func() {
			defer wg.Done()
			k.runJobs(w, round, share)
		}()
	}
	wg.Wait()
	for _, w := range workers {
		if w.err != nil {
			return w.err
		}
	}
	for _, w := range workers {
		k.main.merge(w.delta)
		for c, in := range w.incoming {
			if len(in) > 0 {
				k.buckets[c] = append(k.buckets[c], in)
			}
		}
	}
	return k.auditRound(workers, total, round == 1)
}

// auditRound adds the workers' audit entries of a round to the trail, in
// ballot-record order, and hands them to the audit sink if there is one.
// In round 1 the workers take consecutive records, in order, so the sink
// gets each worker's entries as they are, without copying them together.
func (k *counter) auditRound(workers []*worker, total int, round1 bool) error {
	if !k.opts.audit {
		return nil
	}
	if k.opts.auditSink != nil && round1 {
		for _, w := range workers {
			if err := k.opts.auditSink(k.pass, w.audit, w.values); err != nil {
				return errorf("audit trail: %w", err)
			}
		}
		return nil
	}
	from := len(k.audit)
	k.audit = slices.Grow(k.audit, total)
	for _, w := range workers {
		base := int32(len(k.auditValues))
		for _, e := range w.audit {
			if e.value >= 0 {
				e.value += base
			}
			k.audit = append(k.audit, e)
		}
		k.auditValues = append(k.auditValues, w.values...)
	}
	k.auditOrder, k.auditBuf = sortAudit(k.audit[from:], k.auditOrder, k.auditBuf)
	if k.opts.auditSink != nil {
		if err := k.opts.auditSink(k.pass, k.audit, k.auditValues); err != nil {
			return errorf("audit trail: %w", err)
		}
		k.audit, k.auditValues = k.audit[:0], k.auditValues[:0]
	}
	return nil
}

// job is a run of ballots to place: records lo..hi in round 1, or
// seg[lo:hi] of the ri-th released candidate's bucket.
type job struct {
	ri     int
	seg    []int32
	lo, hi int
}

// splitJobs returns part p of parts of the jobs, cut by ballot count.
func splitJobs(jobs []job, total, p, parts int) []job {
	from, to := total*p/parts, total*(p+1)/parts
	var out []job
	at := 0
	for _, j := range jobs {
		size := j.hi - j.lo
		lo, hi := max(from-at, 0), min(to-at, size)
		if lo < hi {
			out = append(out, job{ri: j.ri, seg: j.seg, lo: j.lo + lo, hi: j.lo + hi})
		}
		at += size
	}
	return out
}

// runJobs places the ballots of a worker's jobs.
func (k *counter) runJobs(w *worker, round int, jobs []job) {
	frs := round > 1 && k.rules.usesSurpluses() && len(k.winners) == k.rules.NumberOfWinners
	plain := k.val == nil && len(k.groups) == 0 && !k.opts.audit
	check := round == 1 && k.pass == 1 && k.opts.check != nil
	size := 0
	for _, j := range jobs {
		size += j.hi - j.lo
	}
	if k.opts.audit {
		w.audit = make([]AuditEntry, 0, size)
	}
	dest := make([]uint16, 0, size) // each placed ballot's candidate, in job order (see gather)
	if check && plain && k.compiles && !k.opts.noCursors {
		if dest = k.firstRound(w, jobs, dest); w.err == nil {
			w.incoming = k.gather(jobs, dest)
		}
		return
	}
	for _, j := range jobs {
		for i := j.lo; i < j.hi; i++ {
			if j.seg != nil && (i-j.lo)%warmBlock == 0 {
				w.warmed += k.warm(j.seg[i:min(i+warmBlock, j.hi)])
			}
			b := i
			if j.seg != nil {
				b = int(j.seg[i])
			}
			c, st := -1, FinalRoundSurplus
			switch {
			case round == 1:
				if c, st, w.err = k.place1(b, check); w.err != nil {
					return
				}
			case !frs:
				c, st = k.next(b)
			}
			dest = append(dest, uint16(c)) // -1, for none, is noCandidate
			if plain {
				k.settleWhole(w.delta, b, j.ri, c, st)
			} else {
				k.settle(w, round, b, j.ri, c, st)
			}
		}
	}
	w.incoming = k.gather(jobs, dest)
}

// firstRound is round 1 of the usual count (checked, with cursors, whole
// votes, no groups or audit trail) with the usual ballot's way through
// it laid out in one loop: checked and compiled in one reading of its
// marks, it counts for its first choice unless that candidate is out
// (excluded). Other ballots take place1's way. It returns dest with the
// jobs' ballots' candidates added, as runJobs does.
func (k *counter) firstRound(w *worker, jobs []job, dest []uint16) []uint16 {
	chk, counts, tally, cont := k.opts.check, k.ballots.Counts, w.delta.tally, k.cont
	for _, j := range jobs {
		for b := j.lo; b < j.hi; b++ {
			if cw, ok := chk.compilePlain(b); ok && cont[cw&0xF] {
				k.cur[b] = cw
				c := int(cw & 0xF)
				cnt := int64(1)
				if counts != nil {
					cnt = int64(counts[b])
				}
				tally[c].ones += cnt
				dest = append(dest, uint16(c))
				continue
			}
			c, st, err := k.place1(b, true)
			if err != nil {
				w.err = err
				return dest
			}
			dest = append(dest, uint16(c))
			k.settleWhole(w.delta, b, -1, c, st)
		}
	}
	return dest
}

// noCandidate is a placed ballot's candidate when it counts for none
// (candidates are numbered below Overvote, as in a Mark).
const noCandidate = Overvote

// warmBlock is how many moving ballots warm reads ahead.
const warmBlock = 64

// warm reads where each ballot in seg stands, so that the memory it sits
// in is fetched for all of them at once: a released candidate's ballots
// are scattered over the set, and placing them one by one waits for each
// fetch in turn. The loads here do not depend on each other, so the
// processor overlaps them. Compiled ballots need only their cursor; others
// their marks too. It returns a sum only so the loads are not dropped.
func (k *counter) warm(seg []int32) uint32 {
	sum := k.warmValues(seg) // a surplus count's ballots carry their value too
	if k.compiles {
		for _, b := range seg {
			sum += uint32(k.cur[b])
		}
		return sum
	}
	bs := k.ballots
	for _, b := range seg {
		end := bs.Ends[b]
		sum += uint32(bs.Marks[end-1].Rank) + uint32(k.cur[b])
	}
	return sum
}

// warmValues is warm for the value of each ballot in seg, when surpluses
// move (nothing otherwise): what elect reads and writes.
func (k *counter) warmValues(seg []int32) uint32 {
	sum := uint32(0)
	if k.val != nil {
		for _, b := range seg {
			sum += uint32(k.val[b].u)
		}
	}
	return sum
}

// settleWhole is settle for the common count: whole votes, no groups, no
// audit trail.
func (k *counter) settleWhole(d *ledger, b, ri, c int, st Status) {
	cnt := int64(1)
	if k.ballots.Counts != nil {
		cnt = int64(k.ballots.Counts[b])
	}
	to := Exhausted
	if st == Active {
		to = c
		d.tally[c].ones += cnt
	} else {
		d.inactive[st].ones += cnt
	}
	if ri >= 0 {
		d.moves[ri][to+2].ones += cnt
	}
}

// gather lists the jobs' ballots that now count for a candidate, by
// candidate (dest holds each ballot's candidate in job order, noCandidate
// for none), with a counting sort into one array.
func (k *counter) gather(jobs []job, dest []uint16) [][]int32 {
	n := len(k.contest.Candidates)
	size := make([]int, n+1)
	for _, c := range dest {
		if c != noCandidate {
			size[c+1]++
		}
	}
	for c := 1; c <= n; c++ {
		size[c] += size[c-1]
	}
	all := make([]int32, size[n])
	fill := append([]int(nil), size[:n]...)
	x := 0
	for _, j := range jobs {
		for i := j.lo; i < j.hi; i++ {
			if c := dest[x]; c != noCandidate {
				b := int32(i)
				if j.seg != nil {
					b = j.seg[i]
				}
				all[fill[c]] = b
				fill[c]++
			}
			x++
		}
	}
	out := make([][]int32, n)
	for c := range out {
		out[c] = all[size[c]:size[c+1]:size[c+1]]
	}
	return out
}

// settle records where ballot b now counts: for candidate c (status
// Active) or inactive with status st. ri is the index of the released
// candidate it came from, or -1 in round 1.
func (k *counter) settle(w *worker, round, b, ri, c int, st Status) {
	cnt := int64(k.count(b))
	var v *Decimal
	if k.val != nil {
		v = &k.val[b]
	}
	k.apply(w.delta, v, cnt, ri, c, st)
	for gi := range k.groups {
		k.apply(k.groupLedger(gi, b), v, cnt, ri, c, st)
	}
	if k.opts.audit {
		e := AuditEntry{Round: int32(round), Ballot: int32(b), Status: st, Candidate: int32(c), value: -1}
		if v != nil && (v.Scale() != 0 || v.Cmp(DecimalInt(1)) != 0) {
			e.value = int32(len(w.values))
			w.values = append(w.values, *v)
		}
		w.audit = append(w.audit, e)
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
func (k *counter) place(marks []Mark, start int, cont []bool) (int, Status, int) {
	r := &k.rules
	maxSkip := r.MaxSkippedRanksAllowed
	lastRank := 0
	if start > 0 {
		lastRank = int(marks[start-1].Rank)
	}
	maxRank := int(marks[len(marks)-1].Rank)
	for i := start; i < len(marks); {
		m := marks[i]
		rank := int(m.Rank)
		if maxSkip != Unlimited && rank-lastRank > maxSkip+1 {
			return -1, SkippedRankings, i
		}
		lastRank = rank
		j := i + 1
		for j < len(marks) && int(marks[j].Rank) == rank {
			j++
		}
		if r.ExhaustOnDuplicateCandidate && repeats(marks, i, j) {
			return -1, RepeatedRanking, i
		}
		if j-i == 1 && m.Candidate != Overvote {
			if cont[m.Candidate] {
				return int(m.Candidate), Active, i
			}
		} else {
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
				if m.Candidate != Overvote && cont[m.Candidate] {
					return int(m.Candidate), Active, i
				}
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

// overvote is RCTab's getOvervoteDecision for a rank group holding an
// explicit overvote label (always alone; checked before counting) or
// several candidates.
func (k *counter) overvote(group []Mark) overvoteDecision {
	switch k.rules.OvervoteRule {
	case ExhaustImmediately:
		return overvoteExhaust
	case AlwaysSkipToNextRank:
		return overvoteSkip
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
	return overvoteNone
}
