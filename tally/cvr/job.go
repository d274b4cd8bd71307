package cvr

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"votedesk/tally"
)

// job is the state of one Read: the source, the contest's candidates, the
// ballots read so far and the counters for progress and stats.
type job struct {
	ctx   context.Context
	src   Source
	file  string
	cands Candidates
	opts  Options
	out   sink
	stats Stats

	meta     fileMeta              // what a self-describing file says besides its ballots
	names    map[string]resolution // names already resolved
	refused  map[string]error      // names that could not be, and why
	declared map[string]bool       // the file's own candidate list, when it has one and names are checked against it

	done, total, nextReport int64

	// extra is what the reader knows of the record it adds next beyond
	// its id and precinct (Dominion's tabulator, record and portion), for
	// Options.Record.
	extra RecordInfo
}

// fileMeta is what a BLT or PrefLib file says about its election besides
// the ballots.
type fileMeta struct {
	title     string
	seats     int
	withdrawn []string
}

// resolution is what a name in a file stands for: a candidate (or
// tally.Overvote), or a skipped rank.
type resolution struct {
	cand uint16
	skip bool
}

func newJob(ctx context.Context, src Source, cands Candidates, opts Options) *job {
	return &job{
		ctx:   ctx,
		src:   src,
		file:  baseName(src.FilePath),
		cands: cands,
		opts:  opts,
		out:   sink{maxRank: opts.MaxRankings},
		names: make(map[string]resolution),
	}
}

// resolve returns what a name in the file stands for: the source's skipped
// rank, overvote and undeclared write-in labels first, then the contest's
// candidates. It does not allocate for names it has seen before, and asks
// the contest about each name once, even one it does not know.
func (j *job) resolve(name []byte) (resolution, error) {
	if r, ok := j.names[string(name)]; ok {
		return r, nil
	}
	if err, ok := j.refused[string(name)]; ok {
		return resolution{}, err
	}
	r, err := j.lookUp(string(name))
	if err != nil {
		if j.refused == nil {
			j.refused = make(map[string]error)
		}
		j.refused[string(name)] = err
		return r, err
	}
	j.names[string(name)] = r
	return r, nil
}

// lookUp is resolve for a name not seen before.
func (j *job) lookUp(s string) (resolution, error) {
	var r resolution
	if s == "" {
		return r, errors.New("empty candidate name")
	}
	if r, ok := j.src.labels().read([]byte(s)); ok {
		return r, nil
	}
	if nm, ok := j.cands.(NoMarks); ok && nm.NoMark(s) {
		return resolution{skip: true}, nil
	}
	switch {
	case s == j.src.UndeclaredWriteInLabel:
		c, err := j.candidate(UndeclaredWriteIn)
		if err != nil {
			return r, fmt.Errorf("undeclared write-in %q: the contest has no %q candidate", s, UndeclaredWriteIn)
		}
		r.cand = c
	default:
		if j.declared != nil && !j.declared[s] {
			return r, fmt.Errorf("candidate %q is not in the file's candidate list", s)
		}
		c, err := j.candidate(s)
		if err != nil {
			return r, err
		}
		r.cand = c
	}
	return r, nil
}

// labels are a source's names for a mark that names no candidate.
type labels struct{ skip, over string }

func (s *Source) labels() labels { return labels{s.skippedRankLabel(), s.OvervoteLabel} }

// read reads a name (not empty) that is one of the labels: the
// skipped-rank label (no mark) or the overvote label (an overvote); ok is
// false for any other name.
func (l labels) read(name []byte) (r resolution, ok bool) {
	switch {
	case l.skip != "" && string(name) == l.skip:
		return resolution{skip: true}, true
	case l.over != "" && string(name) == l.over:
		return resolution{cand: tally.Overvote}, true
	}
	return r, false
}

// candidate asks the contest for a candidate's index and checks it.
func (j *job) candidate(name string) (uint16, error) {
	c, ok := j.cands.Candidate(name)
	if !ok {
		return 0, unknownCandidate(name)
	}
	if c >= tally.MaxCandidates && c != tally.Overvote {
		return 0, fmt.Errorf("candidate %q has index %d, beyond the %d a contest may have", name, c, tally.MaxCandidates)
	}
	return c, nil
}

// declare hands the file's own candidate list to a resolver that wants it
// (ReadFile's), so candidates without marks are kept in the file's order.
// Labels are not candidates: the undeclared write-in label stands for
// UndeclaredWriteIn, and the overvote and skipped-rank labels are dropped.
func (j *job) declare(names []string) {
	d, ok := j.cands.(interface{ declare([]string) })
	if !ok {
		return
	}
	var list []string
	for _, n := range names {
		switch n {
		case j.src.UndeclaredWriteInLabel:
			list = append(list, UndeclaredWriteIn)
		case j.src.OvervoteLabel, j.src.skippedRankLabel():
		default:
			list = append(list, n)
		}
	}
	d.declare(list)
}

// add appends one ballot and counts it. A candidate marked twice at one
// rank ("A|A") is one mark there, as RCTab keeps a set per rank.
func (j *job) add(marks []tally.Mark, id []byte, count uint32, precinct []byte) error {
	marks = oncePerRank(marks)
	for k := range marks {
		if tally.OvervoteBeside(marks, k) {
			return fmt.Errorf("rank %d has the overvote label beside candidates; an overvote is the label alone, or the candidates marked at that rank", marks[k].Rank)
		}
	}
	if j.opts.Check != nil {
		if err := j.opts.Check(id, marks, count); err != nil {
			return err
		}
	}
	if j.stats.Ballots+uint64(count) > j.maxBallots() {
		return fmt.Errorf("the file holds more than %d ballots (counting each record's weight), the most one read may hold", j.maxBallots())
	}
	if err := j.out.add(marks, id, count, precinct); err != nil {
		return err
	}
	if j.opts.Record != nil {
		info := j.extra
		info.ID, info.Precinct = string(id), string(precinct)
		j.opts.Record(info)
	}
	j.stats.Records++
	j.stats.Ballots += uint64(count)
	if len(marks) == 0 {
		j.stats.Undervotes++
	}
	if j.stats.Records&0xfff == 0 {
		return j.tick()
	}
	return nil
}

// oncePerRank drops, in place, a mark that repeats an earlier mark of the
// same candidate at the same rank. Marks come in rank order.
func oncePerRank(marks []tally.Mark) []tally.Mark {
	out := marks[:0]
	for i, m := range marks {
		dup := false
		for k := len(out) - 1; k >= 0 && out[k].Rank == m.Rank; k-- {
			dup = dup || out[k].Candidate == m.Candidate
		}
		if !dup {
			out = append(out, marks[i])
		}
	}
	return out
}

// maxBallots is the most ballots this read may add.
func (j *job) maxBallots() uint64 {
	if j.opts.MaxBallots > 0 {
		return j.opts.MaxBallots
	}
	return DefaultMaxBallots
}

// addSizes adds the sizes of the files of a folder source to the total
// progress is reported against.
func (j *job) addSizes(files []string) {
	for _, f := range files {
		if fi, err := os.Stat(f); err == nil {
			j.total += fi.Size()
		}
	}
}

// tick checks for cancellation and reports progress when enough has been read.
func (j *job) tick() error {
	if err := j.ctx.Err(); err != nil {
		return err
	}
	j.report(false)
	return nil
}

// report calls the progress callback each time another 1/128 of the file has
// been read (every MiB when the size is not known), and when final.
func (j *job) report(final bool) {
	if j.opts.Progress == nil || (!final && j.done < j.nextReport) {
		return
	}
	step := j.total / 128
	if j.total == 0 {
		step = 1 << 20
	}
	j.nextReport = j.done + max(step, 1)
	j.opts.Progress(Progress{Done: j.done, Total: j.total, Records: j.stats.Records})
}

// located turns an error into a *ParseError naming the file, unless it
// already is one or is a cancellation.
func (j *job) located(err error) error {
	var pe *ParseError
	if errors.As(err, &pe) {
		if pe.File == "" {
			pe.File = j.file // from a helper that knows the place but not the file
		}
		return err
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return errorf("read %s: %w", j.file, err)
	}
	return &ParseError{File: j.file, Err: err}
}

// at returns a *ParseError at a line and column (0 for none) of a text file.
func (j *job) at(line, col int, err error) error {
	var pe *ParseError
	if errors.As(err, &pe) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return j.located(err)
	}
	return &ParseError{File: j.file, Line: line, Column: col, Err: err}
}

// counting wraps the file so bytes read feed progress and cancellation.
func (j *job) counting(r io.Reader) io.Reader { return &countingReader{r: r, j: j} }

// countingReader counts the bytes read from a file and stops reading once the
// job's context is done.
type countingReader struct {
	r io.Reader
	j *job
}

// Read reads from the file, counting, unless the read was cancelled.
func (c *countingReader) Read(p []byte) (int, error) {
	if err := c.j.ctx.Err(); err != nil {
		return 0, err
	}
	n, err := c.r.Read(p)
	c.j.done += int64(n)
	c.j.report(false)
	return n, err
}
