package cli_test

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// genericCSVContest writes an RCTab contest config and a genericCsv cast vote
// record file of n ballots over 10 candidates (random rankings of 1 to 10
// choices, fixed seed) into dir, and returns the config's path.
func genericCSVContest(tb testing.TB, dir string, n int) string {
	tb.Helper()
	cands := []string{"Ada", "Ben", "Cal", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon"}
	f, err := os.Create(filepath.Join(dir, "cvr.csv"))
	if err != nil {
		tb.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	fmt.Fprintf(w, "id,%s\n", strings.Join(cands, ","))
	rng := rand.New(rand.NewPCG(3, 5))
	ranks := make([]int, len(cands))
	for i := range n {
		for j := range ranks {
			ranks[j] = 0
		}
		// Skewed first choices make several rounds.
		perm := rng.Perm(len(cands))
		if rng.IntN(3) == 0 {
			perm[0], perm[1] = perm[1], perm[0]
		}
		for r, c := range perm[:1+rng.IntN(len(cands))] {
			ranks[c] = r + 1
		}
		fmt.Fprintf(w, "%d", i+1)
		for _, r := range ranks {
			if r == 0 {
				w.WriteString(",")
			} else {
				fmt.Fprintf(w, ",%d", r)
			}
		}
		w.WriteString("\n")
	}
	if err := w.Flush(); err != nil {
		tb.Fatal(err)
	}
	f.Close()
	var cj []string
	for _, c := range cands {
		cj = append(cj, fmt.Sprintf(`{"name":%q,"excluded":false,"aliases":[]}`, c))
	}
	cfg := fmt.Sprintf(`{"tabulatorVersion":"2.0.0",
 "outputSettings":{"contestName":"Benchmark %d","outputDirectory":"output","contestDate":"2026-11-03","contestJurisdiction":"Bench","contestOffice":"Mayor","tabulateByPrecinct":false,"generateCdfJson":false},
 "cvrFileSources":[{"filePath":"cvr.csv","provider":"genericCsv","firstVoteColumnIndex":"2","firstVoteRowIndex":"2","idColumnIndex":"1","precinctColumnIndex":"","overvoteDelimiter":"","overvoteLabel":"","skippedRankLabel":"","undeclaredWriteInLabel":"","treatBlankAsUndeclaredWriteIn":false}],
 "candidates":[%s],
 "rules":{"tiebreakMode":"useCandidateOrder","overvoteRule":"exhaustImmediately","winnerElectionMode":"singleWinnerMajority","randomSeed":"","numberOfWinners":"1","decimalPlacesForVoteArithmetic":"4","minimumVoteThreshold":"0","maxSkippedRanksAllowed":"unlimited","maxRankingsAllowed":"max","nonIntegerWinningThreshold":false,"doesFirstRoundDetermineThreshold":false,"hareQuota":false,"batchElimination":false,"continueUntilTwoCandidatesRemain":false,"stopTabulationEarlyAfterRound":"","exhaustOnDuplicateCandidate":false}}`,
		n, strings.Join(cj, ","))
	path := filepath.Join(dir, "config.json")
	if err := os.WriteFile(path, []byte(cfg), 0o600); err != nil {
		tb.Fatal(err)
	}
	return path
}

// benchTallyRCTab runs `votedesk tally --rctab` on n generated ballots,
// reporting the wall time per run and the process's peak resident memory.
// The disk is synced between runs, outside the timing.
func benchTallyRCTab(b *testing.B, n int) {
	dir := b.TempDir()
	cfg := genericCSVContest(b, dir, n)
	var peak int64
	for i := 0; b.Loop(); i++ {
		cmd := exec.Command(binary, "tally", "--rctab", cfg, "--output", filepath.Join(dir, fmt.Sprintf("out%d", i)))
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("tally: %v\n%s", err, out)
		}
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			peak = max(peak, ru.Maxrss)
		}
		b.StopTimer()
		os.RemoveAll(filepath.Join(dir, fmt.Sprintf("out%d", i)))
		// Each run starts with the disk caught up, as a count run once
		// does: otherwise the audit logs of the runs before (600 MB each
		// at 6,000,000 ballots) are still being written out and slow this
		// run's writes.
		syscall.Sync()
		b.StartTimer()
	}
	b.ReportMetric(float64(peak)/1024, "peak-RSS-MB")
}

func BenchmarkTallyRCTab1M(b *testing.B) { benchTallyRCTab(b, 1_000_000) }
func BenchmarkTallyRCTab6M(b *testing.B) { benchTallyRCTab(b, 6_000_000) }
