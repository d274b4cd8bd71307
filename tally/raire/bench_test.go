package raire_test

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"votedesk/app/apptest"
	"votedesk/tally"
	"votedesk/tally/cvr"
	"votedesk/tally/raire"
)

// aggregate merges identical rankings into one Vote with their count,
// sorted by ranking so the result does not depend on map order.
func aggregate(rankings func(yield func([]int) bool)) []raire.Vote {
	counts := map[string]*raire.Vote{}
	key := make([]byte, 0, 16)
	for prefs := range rankings {
		key = key[:0]
		for _, p := range prefs {
			key = append(key, byte(p))
		}
		v, ok := counts[string(key)]
		if !ok {
			v = &raire.Vote{Prefs: slices.Clone(prefs)}
			counts[string(key)] = v
		}
		v.N++
	}
	votes := make([]raire.Vote, 0, len(counts))
	for _, v := range counts {
		votes = append(votes, *v)
	}
	slices.SortFunc(votes, func(a, b raire.Vote) int { return slices.Compare(a.Prefs, b.Prefs) })
	return votes
}

// bench10 is the 10-candidate, 1,000,000-ballot contest, made once.
var bench10 = sync.OnceValue(func() raire.Contest {
	const ballots = 1_000_000
	weights := []float64{30, 27, 14, 9, 7, 5, 4, 2, 1.5, 0.5}
	r := rand.New(rand.NewPCG(10, 1_000_000))
	votes := aggregate(func(yield func([]int) bool) {
		prefs := make([]int, 0, len(weights))
		left := make([]float64, len(weights))
		for range ballots {
			// A Plackett-Luce ranking of 1 to 10 candidates: each next choice
			// drawn in proportion to the weights of those not yet ranked.
			copy(left, weights)
			prefs = prefs[:0]
			for range 1 + r.IntN(len(weights)) {
				sum := 0.0
				for _, w := range left {
					sum += w
				}
				x, c := r.Float64()*sum, 0
				for x >= left[c] || left[c] == 0 {
					x -= left[c]
					c++
				}
				prefs = append(prefs, c)
				left[c] = 0
			}
			if !yield(prefs) {
				return
			}
		}
	})
	return raire.Contest{NumCandidates: len(weights), Votes: votes,
		Audit: raire.Audit{Type: raire.OneOnMargin, TotalAuditableBallots: ballots}}
})

// BenchmarkAssertions10Candidates1M finds assertions for 10 candidates and
// 1,000,000 ballots (aggregated into distinct rankings beforehand).
func BenchmarkAssertions10Candidates1M(b *testing.B) {
	c := bench10()
	var sol *raire.Solution
	for b.Loop() {
		var err error
		if sol, err = raire.Assertions(c, raire.Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(sol.Difficulty, "difficulty")
	b.ReportMetric(float64(len(sol.Assertions)), "assertions")
	b.ReportMetric(float64(len(c.Votes)), "distinct-rankings")
}

// TestBench10 checks the benchmark contest's solution.
func TestBench10(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a million ballots")
	}
	c := bench10()
	sol, err := raire.Assertions(c, raire.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := raire.Check(c, sol); err != nil {
		t.Fatal(err)
	}
	t.Logf("10 candidates, 1,000,000 ballots (%d distinct): winner %d, margin %d, difficulty %.4f, %d assertions; work %d/%d/%d",
		len(c.Votes), sol.Winner, sol.Margin, sol.Difficulty, len(sol.Assertions),
		sol.TimeToDetermineWinners.Work, sol.TimeToFindAssertions.Work, sol.TimeToTrimAssertions.Work)
}

// burlington reads the 2009 Burlington mayoral election's BLT file as a
// RAIRE contest: each ballot's candidates in rank order, skipped ranks
// passed over, and the ballot cut at an overvote (a rank with several
// candidates), which a RAIRE ballot cannot hold; the total auditable
// ballots are all the file's ballots, blank ones included.
func burlington(t testing.TB) raire.Contest {
	t.Helper()
	path := filepath.Join(apptest.SharedTestdata(), "real", "burlington_2009_mayor", "2009-Burlington-Mayor.blt")
	if _, err := os.Stat(path); err != nil {
		t.Skipf("Burlington data absent: %v", err)
	}
	f, err := cvr.ReadFile(context.Background(), cvr.Source{Provider: cvr.FormatBLT, FilePath: path}, cvr.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c := raire.Contest{Candidates: f.Candidates, NumCandidates: len(f.Candidates),
		Audit: raire.Audit{Type: raire.OneOnMargin, TotalAuditableBallots: f.Ballots.Total()}}
	c.Votes = aggregate(func(yield func([]int) bool) {
		for i := range f.Ballots.Len() {
			marks, count := f.Ballots.Ballot(i)
			var prefs []int
			for j, m := range marks {
				overvote := m.Candidate == tally.Overvote || j+1 < len(marks) && marks[j+1].Rank == m.Rank ||
					j > 0 && marks[j-1].Rank == m.Rank
				if overvote {
					break
				}
				if !slices.Contains(prefs, int(m.Candidate)) {
					prefs = append(prefs, int(m.Candidate))
				}
			}
			for range count {
				if !yield(prefs) {
					return
				}
			}
		}
	})
	return c
}

// TestBurlington2009 audits the 2009 Burlington mayoral election: Bob Kiss
// wins, and the assertions pass Check.
func TestBurlington2009(t *testing.T) {
	c := burlington(t)
	sol, err := raire.Assertions(c, raire.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Candidates[sol.Winner]; got != "Bob Kiss" {
		t.Errorf("winner %s, want Bob Kiss", got)
	}
	if err := raire.Check(c, sol); err != nil {
		t.Fatal(err)
	}
	var text []string
	for _, a := range sol.Assertions {
		text = append(text, a.Explain(c.Candidates))
	}
	t.Logf("Burlington 2009 mayor (OneOnMargin, %d auditable ballots): margin %d, difficulty %.4f, %d assertions:\n%s",
		c.Audit.TotalAuditableBallots, sol.Margin, sol.Difficulty, len(sol.Assertions), strings.Join(text, "\n"))
}

// BenchmarkAssertionsBurlington2009 finds assertions for the 2009
// Burlington mayoral election (the BLT file read once).
func BenchmarkAssertionsBurlington2009(b *testing.B) {
	c := burlington(b)
	var sol *raire.Solution
	for b.Loop() {
		var err error
		if sol, err = raire.Assertions(c, raire.Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(sol.Margin), "margin")
	b.ReportMetric(sol.Difficulty, "difficulty")
}
