package cvr

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"

	"votedesk/tally"
)

// benchCandidates are the ten candidates of the benchmark files.
var benchCandidates = []string{"Alice Archer", "Bob Baker", "Carol Cruz", "Dan Dale", "Eve Evans",
	"Frank Ford", "Gina Gray", "Hal Hope", "Ivy Irwin", "Jon Jones"}

// benchBallots makes the i-th benchmark ballot: 1 to 10 candidates ranked,
// one ballot in 50 with a tie.
func benchBallots(r *rand.Rand, order []int) ([]int, bool) {
	r.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	return order[:1+r.IntN(len(order))], r.IntN(50) == 0
}

// writeBenchFile writes n ballots in a format to a file in dir.
func writeBenchFile(b *testing.B, dir string, format Format, n int) string {
	b.Helper()
	path := filepath.Join(dir, string(format)+".csv")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	r := rand.New(rand.NewPCG(7, 7))
	order := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
	switch format {
	case FormatGenericCSV:
		w.WriteString("id")
		for _, c := range benchCandidates {
			w.WriteString("," + c)
		}
	case FormatVoteDesk:
		w.WriteString("ballot_id")
		for i := range benchCandidates {
			w.WriteString(",rank_" + strconv.Itoa(i+1))
		}
	}
	w.WriteByte('\n')
	rankOf := make([]int, len(benchCandidates))
	for i := range n {
		ranked, tie := benchBallots(r, order)
		fmt.Fprintf(w, "b%07d", i)
		switch format {
		case FormatGenericCSV:
			clear(rankOf)
			for k, c := range ranked {
				rankOf[c] = k + 1
			}
			if tie && len(ranked) > 1 {
				rankOf[ranked[1]] = 1
			}
			for _, rk := range rankOf {
				w.WriteByte(',')
				if rk > 0 {
					w.WriteString(strconv.Itoa(rk))
				}
			}
		case FormatVoteDesk:
			for k := range benchCandidates {
				w.WriteByte(',')
				if k < len(ranked) {
					w.WriteString(benchCandidates[ranked[k]])
					if tie && k == 0 && len(ranked) > 1 {
						w.WriteString("|" + benchCandidates[ranked[1]])
					}
				}
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

// benchRead reads a million-ballot file per iteration and reports the file
// size, the ballot set's size and the heap in use after the read.
func benchRead(b *testing.B, src Source) {
	cands := IndexCandidates(benchCandidates...)
	fi, err := os.Stat(src.FilePath)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(fi.Size())
	b.ReportAllocs()
	var set tally.BallotSet
	for b.Loop() {
		set = tally.BallotSet{}
		if _, err := Read(context.Background(), src, cands, &set, Options{}); err != nil {
			b.Fatal(err)
		}
	}
	if set.Len() != 1_000_000 {
		b.Fatalf("read %d ballots", set.Len())
	}
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(ms.HeapInuse)/(1<<20), "MiB-heap-after")
	b.ReportMetric(float64(cap(set.Marks)*4+cap(set.Ends)*4+idsSize(&set))/(1<<20), "MiB-set")
	runtime.KeepAlive(set)
}

func BenchmarkReadGenericCSV1M(b *testing.B) {
	path := writeBenchFile(b, b.TempDir(), FormatGenericCSV, 1_000_000)
	benchRead(b, Source{Provider: FormatGenericCSV, FilePath: path, FirstVoteColumnIndex: 2, FirstVoteRowIndex: 2, IDColumnIndex: 1})
}

func BenchmarkReadVoteDeskCSV1M(b *testing.B) {
	path := writeBenchFile(b, b.TempDir(), FormatVoteDesk, 1_000_000)
	benchRead(b, Source{Provider: FormatVoteDesk, FilePath: path})
}

// BenchmarkWriteVoteDeskCSV1M writes a million ballots.
func BenchmarkWriteVoteDeskCSV1M(b *testing.B) {
	path := writeBenchFile(b, b.TempDir(), FormatVoteDesk, 1_000_000)
	f, err := ReadFile(context.Background(), Source{Provider: FormatVoteDesk, FilePath: path}, Options{})
	if err != nil {
		b.Fatal(err)
	}
	out := filepath.Join(b.TempDir(), "out.csv")
	b.ReportAllocs()
	for b.Loop() {
		w, err := os.Create(out)
		if err != nil {
			b.Fatal(err)
		}
		if err := WriteVoteDesk(w, f.Candidates, &f.Ballots); err != nil {
			b.Fatal(err)
		}
		w.Close()
	}
}

// idsSize is the memory of a set's ids: their text and 4 bytes each.
func idsSize(s *tally.BallotSet) int {
	if s.IDs == nil {
		return 0
	}
	return s.IDs.Size() + 4*s.IDs.Len()
}
