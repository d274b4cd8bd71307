package cvr

import (
	"errors"
	"io"
	"os"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"votedesk/tally"
)

// parallelBytes is the size of a CSV's rows (generic or VoteDesk) from
// which they are read by a goroutine per core (a variable so tests can read
// small files both ways).
var parallelBytes int64 = 4 << 20

// progressEvery is how often a parallel read reports progress (a variable
// for tests).
var progressEvery = 50 * time.Millisecond

// stretches is how many goroutines read a big file: one per core, at most
// eight (a variable for tests, like parallelBytes).
var stretches = func() int { return min(runtime.GOMAXPROCS(0), 8) }

// errQuoted stops a stretch that met a quote (see csvScanner.plainOnly).
var errQuoted = errors.New("a quoted field")

// rowReader adds the ballot of the scanner's current row (not a blank one)
// to a stretch's job, its marks numbering candidates as the stretch does
// (stretch.use, stretch.note), or says why it cannot.
type rowReader func(s *stretch, sc *csvScanner) error

// readParallel reads the rows of a big CSV from offset start on with a
// goroutine per core, each its own stretch of the file, and adds their
// ballots to j in file order, as the sequential read would. Each stretch
// numbers the candidates it meets itself; once all are read, the names are
// resolved in the order the sequential read would meet them (by the row
// where each is first met, then by its place in the row), and the marks
// renumbered. It returns false, having added nothing, when the file is
// small, the read has per-record callbacks (Options.Check,
// Options.Record, which are not goroutine-safe), or a stretch meets
// anything the sequential read must handle in order and name exactly: any
// error, a quote (a quoted field may hold a line break, so a stretch's
// edge could fall inside a record), a name the contest resolves to the
// skipped-rank label or an overvote (other than the labels themselves, which
// a row reader reads as such), or two names (or columns) standing for one
// candidate (the sequential read merges their marks at a rank). The caller
// then reads on from start, one row after another. names are the
// candidates the stretches start with (a generic CSV's columns; nil for
// VoteDesk's, whose cells name them).
func (j *job) readParallel(f *os.File, start int64, names []string, row rowReader) bool {
	n := stretches()
	size := j.total - start
	if n < 2 || size < parallelBytes || j.opts.Check != nil || j.opts.Record != nil {
		return false
	}
	parts := make([]*stretch, n)
	var read atomic.Int64
	var failed atomic.Bool // set by the first stretch to fail, so the others stop
	var wg sync.WaitGroup
	for p := range parts {
		s := &stretch{
			job:  &job{ctx: j.ctx, src: j.src, file: j.file, opts: Options{MaxRankings: j.opts.MaxRankings, MaxBallots: j.opts.MaxBallots}, out: sink{maxRank: j.opts.MaxRankings}},
			from: start + size*int64(p)/int64(n),
			to:   start + size*int64(p+1)/int64(n),
			head: p == 0,
			last: p == n-1,
		}
		// The first stretch makes room for the whole file, so the others'
		// ballots are appended to it without copying it again, and the
		// others for their own stretch (see read).
		s.job.total = s.to - s.from
		if s.head {
			s.job.total = size
		}
		s.start(names)
		parts[p] = s
		wg.Go(func() {
			if s.ok = s.read(f, row, &read, &failed); !s.ok {
				failed.Store(true)
			}
		})
	}
	j.waitReporting(&wg, start, &read)
	for _, s := range parts {
		if !s.ok {
			return false
		}
	}
	cands, ok := j.resolveNames(parts)
	if !ok {
		return false
	}
	var st Stats
	for _, s := range parts {
		st.Records += s.job.stats.Records
		st.Ballots += s.job.stats.Ballots
		st.Undervotes += s.job.stats.Undervotes
	}
	if st.Ballots > j.maxBallots() {
		return false
	}
	for p, s := range parts {
		marks := s.job.out.set.Marks
		for i := range marks {
			if c := marks[i].Candidate; c != tally.Overvote {
				marks[i].Candidate = cands[p][c]
			}
		}
	}
	out := &parts[0].job.out
	for _, s := range parts[1:] {
		if !out.appendSink(&s.job.out) {
			return false
		}
		s.job.out = sink{} // for the collector, as soon as it is copied
	}
	j.out, j.stats, j.done = *out, st, j.total
	return true
}

// waitReporting waits for the stretches, reporting progress meanwhile from
// this goroutine, as the read's Progress callback expects.
func (j *job) waitReporting(wg *sync.WaitGroup, start int64, read *atomic.Int64) {
	if j.opts.Progress == nil {
		wg.Wait()
		return
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	tick := time.NewTicker(progressEvery)
	defer tick.Stop()
	for {
		select {
		case <-tick.C:
			// Stretches read a little past their ends, so the sum can
			// pass the file's size.
			j.done = min(start+read.Load(), j.total)
			j.report(false)
		case <-done:
			return
		}
	}
}

// resolveNames resolves the names the stretches met in the order the
// sequential read would (by the row where each is first met, then by its
// place in the row) and returns, for each stretch, the candidate of each
// of its numbers; or false when the sequential read must take over.
func (j *job) resolveNames(parts []*stretch) ([][]uint16, bool) {
	type firstUse struct{ ballot, pos, part, k int }
	var order []firstUse
	base := 0
	for p, s := range parts {
		for k, u := range s.first {
			if u.ballot >= 0 {
				order = append(order, firstUse{base + u.ballot, u.pos, p, k})
			}
		}
		base += s.job.out.set.Len()
	}
	slices.SortFunc(order, func(a, b firstUse) int {
		if a.ballot != b.ballot {
			return a.ballot - b.ballot
		}
		return a.pos - b.pos
	})
	cands := make([][]uint16, len(parts))
	taken := make([]map[uint16]bool, len(parts))
	for p, s := range parts {
		cands[p], taken[p] = make([]uint16, len(s.names)), map[uint16]bool{}
	}
	resolved := make(map[string]uint16, len(order))
	for _, u := range order {
		name := parts[u.part].names[u.k]
		c, ok := resolved[name]
		if !ok {
			r, err := j.resolve([]byte(name))
			if err != nil || r.skip || r.cand == tally.Overvote {
				return nil, false
			}
			c, resolved[name] = r.cand, r.cand
		}
		if taken[u.part][c] {
			return nil, false
		}
		taken[u.part][c] = true
		cands[u.part][u.k] = c
	}
	return cands, true
}

// stretch is one goroutine's part of a parallel read: the rows that start
// at an offset in [from, to) (and, for the last, every row after).
type stretch struct {
	job      *job
	from, to int64
	head     bool // the first stretch, which starts where the rows do
	last     bool
	// names are the candidates the stretch numbers its marks by; first[k]
	// is where names[k] was first met: the ballot (counted in this
	// stretch, -1 for not yet) and its place in that ballot's row.
	names []string
	index map[string]uint16
	first []use
	marks []tally.Mark // the row being read
	ok    bool
}

// use is where a stretch first met a candidate.
type use struct{ ballot, pos int }

// start gives the stretch its first names, not yet met.
func (s *stretch) start(names []string) {
	s.names, s.index = slices.Clone(names), map[string]uint16{}
	s.first = make([]use, len(names))
	for k := range s.first {
		s.first[k].ballot = -1
	}
}

// use notes that the row being read meets the stretch's candidate k, at
// place pos in the row.
func (s *stretch) use(k uint16, pos int) {
	if s.first[k].ballot < 0 {
		s.first[k] = use{s.job.out.set.Len(), pos}
	}
}

// note returns the stretch's number for a name the row being read names at
// place pos, numbering it if it is new; false when the stretch has met more
// names than a contest may have candidates.
func (s *stretch) note(name []byte, pos int) (uint16, bool) {
	if k, ok := s.index[string(name)]; ok {
		return k, true
	}
	if len(s.names) >= tally.MaxCandidates {
		return 0, false
	}
	k := uint16(len(s.names))
	s.names = append(s.names, string(name))
	s.index[string(name)] = k
	s.first = append(s.first, use{s.job.out.set.Len(), pos})
	return k, true
}

// read reads the stretch's rows, adding to read the bytes it reads, until
// it is done, fails, or another stretch has failed.
func (s *stretch) read(f *os.File, row rowReader, read *atomic.Int64, failed *atomic.Bool) bool {
	at := s.from
	if !s.head {
		at = s.from - 1 // so that a row starting right at from is this stretch's
	}
	sc := newCSVScanner(&stretchReader{r: io.NewSectionReader(f, at, 1<<62), read: read, j: s.job})
	sc.plainOnly, sc.lines.short = true, true
	sc.lines.line = 1 // no byte order mark to strip: this is not the file's first line
	if at != s.from {
		if _, err := sc.lines.next(); err != nil {
			return errors.Is(err, io.EOF)
		}
	}
	reserved := false
	for s.last || at+sc.lines.used < s.to {
		if failed.Load() {
			return false
		}
		if !sc.scan() {
			return sc.err == nil
		}
		if sc.blank() {
			continue
		}
		if row(s, sc) != nil {
			return false
		}
		// The first stretch makes room early, as the sequential read does;
		// the others once an eighth of their stretch is read, so that a
		// stretch failing at its start (a quote) stops the others before
		// they hold room for ballots never read.
		if !reserved && (s.head && s.job.stats.Records == 1024 || !s.head && sc.lines.used >= (s.to-s.from)/8) {
			s.job.reserveRest(sc.lines.used)
			reserved = true
		}
	}
	return true
}

// stretchReader reads a stretch of the file, adding what it reads to a
// total shared by the stretches and stopping once the read is cancelled.
type stretchReader struct {
	r    io.Reader
	read *atomic.Int64
	j    *job
}

func (r *stretchReader) Read(p []byte) (int, error) {
	if err := r.j.ctx.Err(); err != nil {
		return 0, err
	}
	n, err := r.r.Read(p)
	r.read.Add(int64(n))
	return n, err
}
