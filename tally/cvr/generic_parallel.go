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

// parallelBytes is the size of a generic CSV's rows from which they are
// read by a goroutine per core (a variable so tests can read small files
// both ways).
var parallelBytes int64 = 4 << 20

// progressEvery is how often a parallel read reports progress (a variable
// for tests).
var progressEvery = 50 * time.Millisecond

// stretches is how many goroutines read a big file: one per core, at most
// eight (a variable for tests, like parallelBytes).
var stretches = func() int { return min(runtime.GOMAXPROCS(0), 8) }

// errQuoted stops a stretch that met a quote (see csvScanner.plainOnly).
var errQuoted = errors.New("a quoted field")

// readGenericParallel reads the rows of a big generic CSV from offset start
// on with a goroutine per core, each its own stretch of the file, and adds
// their ballots to j in file order, as the sequential read would. It
// returns false, having added nothing, when the file is small, the read has
// per-record callbacks (Options.Check, Options.Record, which are not
// goroutine-safe), or a stretch meets anything the sequential read must
// handle in order and name exactly: any error, a quote (a quoted field may
// hold a line break, so a stretch's edge could fall inside a record), a
// column that is the skipped-rank label, or two columns standing for one
// candidate (marks at one rank are merged in order). The caller then reads
// on from start, one row after another.
func (j *job) readGenericParallel(f *os.File, start int64, g *genericLayout) bool {
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
		parts[p] = s
		wg.Go(func() {
			if s.ok = s.read(f, g, &read, &failed); !s.ok {
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
	cand, ok := j.resolveColumns(parts, g)
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
	for _, s := range parts {
		marks := s.job.out.set.Marks
		for i := range marks {
			marks[i].Candidate = cand[marks[i].Candidate]
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

// resolveColumns resolves the candidate columns that hold a rank in the
// order the sequential read would (by the row where each first does, then
// by column) and returns each column's candidate, or false when the
// sequential read must take over.
func (j *job) resolveColumns(parts []*stretch, g *genericLayout) ([]uint16, bool) {
	type firstUse struct{ ballot, col int }
	var order []firstUse
	seen := make([]bool, len(g.cols))
	base := 0
	for _, s := range parts {
		for k, b := range s.firstUse {
			if b >= 0 && !seen[k] {
				seen[k] = true
				order = append(order, firstUse{base + b, k})
			}
		}
		base += s.job.out.set.Len()
	}
	slices.SortFunc(order, func(a, b firstUse) int {
		if a.ballot != b.ballot {
			return a.ballot - b.ballot
		}
		return a.col - b.col
	})
	cand := make([]uint16, len(g.cols))
	used := make(map[uint16]bool, len(order))
	for _, u := range order {
		r, err := j.resolve([]byte(g.cols[u.col].name))
		if err != nil || r.skip || used[r.cand] {
			return nil, false
		}
		used[r.cand] = true
		cand[u.col] = r.cand
	}
	return cand, true
}

// stretch is one goroutine's part of a parallel read: the rows that start
// at an offset in [from, to) (and, for the last, every row after).
type stretch struct {
	job      *job
	from, to int64
	head     bool // the first stretch, which starts where the rows do
	last     bool
	// firstUse[k] is the ballot (counted in this stretch) where column k
	// first holds a rank, or -1.
	firstUse []int
	ok       bool
}

// read reads the stretch's rows, adding to read the bytes it reads, until
// it is done, fails, or another stretch has failed.
func (s *stretch) read(f *os.File, g *genericLayout, read *atomic.Int64, failed *atomic.Bool) bool {
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
	s.firstUse = make([]int, len(g.cols))
	for k := range s.firstUse {
		s.firstUse[k] = -1
	}
	var marks []tally.Mark
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
		var err error
		if marks, err = s.job.genericRow(sc, g, marks[:0]); err != nil {
			return false
		}
		for _, m := range marks {
			if s.firstUse[m.Candidate] < 0 {
				s.firstUse[m.Candidate] = s.job.out.set.Len()
			}
		}
		if err := s.job.addRow(sc, g, marks); err != nil {
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
