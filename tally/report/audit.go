package report

import (
	"bufio"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"

	"votedesk/tally"
)

// statusText names why a ballot became inactive in the audit log.
var statusText = map[tally.Status]string{
	tally.NoRankings:        "No Rankings",
	tally.Overvoted:         "Overvote",
	tally.SkippedRankings:   "Skipped Ranking",
	tally.RepeatedRanking:   "Repeated Ranking",
	tally.ExhaustedChoices:  "Exhausted Choice",
	tally.FinalRoundSurplus: "Final Round Surplus",
}

// WriteAudit writes the count's audit trail one line per ballot record and
// round in which its count changed, in the shape of RCTab's audit log:
//
//	[Round] 1 [CVR] 0007 [counted for] Alice
//	[Round] 2 [CVR] 0007 [transferred to] Bob [value] 0.2499
//	[Round] 3 [CVR] 0007 [became inactive] Exhausted Choice
//
// A value other than exactly 1 and a count other than 1 are appended.
// Ballots without an id are named by their record number. Passes of a
// multi-pass count are introduced by a "[Pass] n" line.
func WriteAudit(w io.Writer, c tally.Contest, b *tally.BallotSet, res tally.Result) error {
	aw := NewAuditWriter(w, c, b, len(res.Passes) > 1)
	for pi, p := range res.Passes {
		if err := aw.Round(pi+1, p.Audit, p.AuditValues); err != nil {
			return err
		}
	}
	return aw.Flush()
}

// AuditWriter writes an audit trail as it is counted (tally.WithAuditSink):
// its Round method is an AuditSink.
type AuditWriter struct {
	w         *bufio.Writer
	contest   tally.Contest
	ballots   *tally.BallotSet
	multiPass bool
	pass      int
	line      []byte
	bufs      [][]byte // Round's chunk buffers, kept between rounds
	one       tally.Decimal
}

// NewAuditWriter writes to w the audit trail of counting ballots for
// contest; multiPass introduces each pass with a "[Pass] n" line.
func NewAuditWriter(w io.Writer, contest tally.Contest, ballots *tally.BallotSet, multiPass bool) *AuditWriter {
	return &AuditWriter{w: bufio.NewWriterSize(w, 1<<16), contest: contest, ballots: ballots, multiPass: multiPass, one: tally.DecimalInt(1)}
}

// Round writes one round's entries (of pass, counting from 1). A big round
// is formatted in chunks by a goroutine per core while this one writes the
// formatted chunks, in order, to the underlying writer.
func (a *AuditWriter) Round(pass int, entries []tally.AuditEntry, values []tally.Decimal) error {
	if a.multiPass && pass != a.pass {
		fmt.Fprintf(a.w, "[Pass] %d\n", pass)
	}
	a.pass = pass
	p := tally.Pass{AuditValues: values}
	n := (len(entries) + auditChunk - 1) / auditChunk
	workers := min(runtime.GOMAXPROCS(0), n)
	if workers < 2 {
		for lo := 0; lo < len(entries); lo += auditChunk {
			a.line = a.format(a.line[:0], p, entries[lo:min(lo+auditChunk, len(entries))])
			if _, err := a.w.Write(a.line); err != nil {
				return err
			}
		}
		return nil
	}
	// A worker takes a buffer from free before it takes the next chunk, so
	// the lowest chunk not yet written always has a buffer and the writer
	// below never waits for a chunk nobody can format.
	done := make([]chan []byte, n)
	for i := range done {
		done[i] = make(chan []byte, 1)
	}
	free := make(chan []byte, 2*workers)
	for range cap(free) {
		var buf []byte
		if len(a.bufs) > 0 {
			buf, a.bufs = a.bufs[len(a.bufs)-1], a.bufs[:len(a.bufs)-1]
		}
		free <- buf
	}
	var next atomic.Int64
	var failed atomic.Bool
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				buf := <-free
				i := int(next.Add(1)) - 1
				if i >= n {
					free <- buf
					return
				}
				if !failed.Load() {
					buf = a.format(buf[:0], p, entries[i*auditChunk:min((i+1)*auditChunk, len(entries))])
				}
				done[i] <- buf
			}
		}()
	}
	var err error
	for i := range n {
		buf := <-done[i]
		if err == nil {
			if _, err = a.w.Write(buf); err != nil {
				failed.Store(true)
			}
		}
		free <- buf
	}
	wg.Wait()
	for range cap(free) {
		a.bufs = append(a.bufs, <-free) // kept for the next round
	}
	return err
}

// auditChunk is how many entries Round formats at a time.
const auditChunk = 1 << 14

// format appends the audit lines of entries to line.
func (a *AuditWriter) format(line []byte, p tally.Pass, entries []tally.AuditEntry) []byte {
	for _, e := range entries {
		line = append(line, "[Round] "...)
		line = strconv.AppendInt(line, int64(e.Round), 10)
		line = append(line, " [CVR] "...)
		if id := a.ballots.ID(int(e.Ballot)); id != "" {
			line = append(line, id...)
		} else {
			line = append(line, "record "...)
			line = strconv.AppendInt(line, int64(e.Ballot)+1, 10)
		}
		switch {
		case e.Status != tally.Active:
			line = append(append(line, " [became inactive] "...), statusText[e.Status]...)
		case e.Round == 1:
			line = append(append(line, " [counted for] "...), a.contest.Candidates[e.Candidate].Name...)
		default:
			line = append(append(line, " [transferred to] "...), a.contest.Candidates[e.Candidate].Name...)
		}
		if v := p.AuditValue(e); v.Scale() != 0 || v.Cmp(a.one) != 0 {
			line = append(append(line, " [value] "...), v.String()...)
		}
		if n := count(a.ballots, int(e.Ballot)); n != 1 {
			line = append(line, " [count] "...)
			line = strconv.AppendUint(line, uint64(n), 10)
		}
		line = append(line, '\n')
	}
	return line
}

// Flush writes out what is buffered.
func (a *AuditWriter) Flush() error { return a.w.Flush() }

func count(b *tally.BallotSet, i int) uint32 {
	if b.Counts == nil {
		return 1
	}
	return b.Counts[i]
}
