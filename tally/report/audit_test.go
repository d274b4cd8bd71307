package report

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"votedesk/tally"
)

// bigSTV counts n random ballots over six candidates for three seats with
// fractional transfers; every third ballot has an id and every fifth a count
// of 2, so each kind of audit line turns up.
func bigSTV(t *testing.T, n int) (tally.Contest, *tally.BallotSet, tally.Result) {
	t.Helper()
	c := tally.Contest{Name: "Council"}
	for _, name := range []string{"Ada", "Ben", "Cal", "Dee", "Eve", "Fay"} {
		c.Candidates = append(c.Candidates, tally.Candidate{Name: name})
	}
	rng := rand.New(rand.NewPCG(16, 11))
	b := &tally.BallotSet{}
	for i := range n {
		var marks []tally.Mark
		for r, cand := range rng.Perm(len(c.Candidates))[:rng.IntN(len(c.Candidates)+1)] {
			marks = append(marks, tally.Mark{Rank: uint16(r + 1), Candidate: uint16(cand)})
		}
		id := ""
		if i%3 == 0 {
			id = fmt.Sprintf("B-%06d", i)
		}
		count := uint32(1)
		if i%5 == 0 {
			count = 2
		}
		if err := b.Add(id, count, marks); err != nil {
			t.Fatal(err)
		}
	}
	r := tally.DefaultRules()
	r.WinnerElectionMode = tally.MultiWinnerAllowMultipleWinnersPerRound
	r.NumberOfWinners = 3
	res, err := tally.Tabulate(c, b, tally.STV, r, tally.WithAudit())
	if err != nil {
		t.Fatal(err)
	}
	return c, b, res
}

// auditWith writes the audit log with GOMAXPROCS set to procs.
func auditWith(t *testing.T, procs int, c tally.Contest, b *tally.BallotSet, res tally.Result) []byte {
	t.Helper()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
	var buf bytes.Buffer
	if err := WriteAudit(&buf, c, b, res); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestAuditChunksInOrder checks that a round formatted in chunks by several
// goroutines comes out exactly as formatted by one, line for line.
func TestAuditChunksInOrder(t *testing.T) {
	c, b, res := bigSTV(t, 5*auditChunk+123)
	one := auditWith(t, 1, c, b, res)
	for _, procs := range []int{2, 3, 8} {
		got := auditWith(t, procs, c, b, res)
		if !bytes.Equal(got, one) {
			g, w := strings.Split(string(got), "\n"), strings.Split(string(one), "\n")
			for i := range min(len(g), len(w)) {
				if g[i] != w[i] {
					t.Fatalf("GOMAXPROCS %d: line %d is %q, want %q", procs, i+1, g[i], w[i])
				}
			}
			t.Fatalf("GOMAXPROCS %d: %d lines, want %d", procs, len(g), len(w))
		}
	}
	lines := strings.Count(string(one), "\n")
	entries := 0
	for _, p := range res.Passes {
		entries += len(p.Audit)
	}
	if lines != entries {
		t.Fatalf("%d lines for %d audit entries", lines, entries)
	}
	for _, want := range []string{"[CVR] B-000003 [counted for]", "[CVR] record 2 [", "[transferred to]", "[value] 0.", "[count] 2", "[became inactive] No Rankings"} {
		if !bytes.Contains(one, []byte(want)) {
			t.Errorf("the audit log has no line with %q", want)
		}
	}
}

// failAfter accepts n bytes and then fails every write.
type failAfter struct{ n int }

var errDiskFull = errors.New("disk full")

func (f *failAfter) Write(p []byte) (int, error) {
	if len(p) > f.n {
		k := f.n
		f.n = 0
		return k, errDiskFull
	}
	f.n -= len(p)
	return len(p), nil
}

// TestAuditWriteFails checks that a write failing partway through a big
// round is returned, with no formatting goroutine left waiting.
func TestAuditWriteFails(t *testing.T) {
	c, b, res := bigSTV(t, 5*auditChunk)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	before := runtime.NumGoroutine()
	for _, after := range []int{0, 100_000, 1_000_000} {
		err := WriteAudit(&failAfter{n: after}, c, b, res)
		if !errors.Is(err, errDiskFull) {
			t.Fatalf("failing after %d bytes: got %v, want %v", after, err, errDiskFull)
		}
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Fatalf("%d goroutines after the failed writes, %d before", n, before)
	}
}
