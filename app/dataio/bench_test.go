package dataio_test

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
	"time"

	"votedesk/app/dataio"
	"votedesk/tally"
	"votedesk/tally/cvr"
)

// benchCandidates are the ten candidates of the benchmark elections.
var benchCandidates = []string{"Ada Lovelace", "Alan Turing", "Grace Hopper", "Edsger Dijkstra", "Barbara Liskov",
	"Donald Knuth", "Frances Allen", "John Backus", "Margaret Hamilton", "Ken Thompson"}

// benchBallots makes n ballots ranking 1 to 10 of the candidates at random,
// with ids.
func benchBallots(n int) *tally.BallotSet {
	rng := rand.New(rand.NewPCG(7, 11))
	set := &tally.BallotSet{}
	var marks []tally.Mark
	for i := range n {
		perm := rng.Perm(len(benchCandidates))[:1+rng.IntN(len(benchCandidates))]
		marks = marks[:0]
		for r, c := range perm {
			marks = append(marks, tally.Mark{Rank: uint16(r + 1), Candidate: uint16(c)})
		}
		set.Add("cvr-"+strconv.Itoa(i), 1, marks)
	}
	return set
}

// writeBenchVoteDesk writes n ballots as a VoteDesk CSV.
func writeBenchVoteDesk(b testing.TB, n int) string {
	path := filepath.Join(b.TempDir(), "ballots.csv")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	if err := cvr.WriteVoteDesk(f, benchCandidates, benchBallots(n)); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	return path
}

// writeBenchGenericCSV writes n ballots as an RCTab generic CSV: an id
// column, then a column per candidate holding the rank given.
func writeBenchGenericCSV(b testing.TB, n int) string {
	path := filepath.Join(b.TempDir(), "ballots_generic.csv")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriter(f)
	w.WriteString("BallotID")
	for _, c := range benchCandidates {
		w.WriteString("," + c)
	}
	w.WriteString("\n")
	set := benchBallots(n)
	row := make([]int, len(benchCandidates))
	for i := range set.Len() {
		marks, _ := set.Ballot(i)
		clear(row)
		for _, m := range marks {
			row[m.Candidate] = int(m.Rank)
		}
		w.WriteString(set.ID(i))
		for _, r := range row {
			w.WriteByte(',')
			if r > 0 {
				w.WriteString(strconv.Itoa(r))
			}
		}
		w.WriteByte('\n')
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	return path
}

// BenchmarkImportCVR1M measures `import cvr` end to end: reading 1,000,000
// ballots from a file, matching and checking them, and recording them in a
// real bbolt file, all or nothing. The target is under 10 s. cpu-s/op is
// the CPU time an import takes, which a busy machine does not inflate as it
// does the wall-clock time.
func BenchmarkImportCVR1M(b *testing.B) {
	const n = 1_000_000
	for _, format := range []struct {
		name  string
		write func(testing.TB, int) string
	}{{"votedesk", writeBenchVoteDesk}, {"genericCsv", writeBenchGenericCSV}} {
		b.Run(format.name, func(b *testing.B) {
			path := format.write(b, n)
			var cpu time.Duration
			for i := 0; b.Loop(); i++ {
				b.StopTimer()
				e := newEnv(b)
				name := fmt.Sprintf("Bulk %d", i)
				e.election(name, false, benchCandidates...)
				runtime.GC()
				b.StartTimer()
				t0 := cpuTime()
				im, err := dataio.ImportCVRs(e.ctx, e.svc, clerk, name, []cvr.Source{{FilePath: path}}, dataio.CVROptions{})
				cpu += cpuTime() - t0
				if err != nil {
					b.Fatal(err)
				}
				if im.Ballots != n {
					b.Fatalf("imported %d ballots", im.Ballots)
				}
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "ballots/s")
			b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/op")
		})
	}
}
