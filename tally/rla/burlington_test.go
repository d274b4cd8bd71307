package rla_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"votedesk/app/apptest"
	"votedesk/tally"
	"votedesk/tally/cvr"
	"votedesk/tally/raire"
	"votedesk/tally/rla"
)

// burlington is the 2009 Burlington mayoral election (8,980 ballots), read
// once: each ballot's candidates in rank order, skipped ranks passed over,
// cut at an overvote (as tally/raire's tests read it), with RAIRE's
// assertions for its winner, Bob Kiss. It is nil, and the test skipped,
// when the shared test data is absent.
var burlington = sync.OnceValues(func() (*contest, error) {
	path := filepath.Join(apptest.SharedTestdata(), "real", "burlington_2009_mayor", "2009-Burlington-Mayor.blt")
	if _, err := os.Stat(path); err != nil {
		return nil, err
	}
	f, err := cvr.ReadFile(context.Background(), cvr.Source{Provider: cvr.FormatBLT, FilePath: path}, cvr.Options{})
	if err != nil {
		return nil, err
	}
	c := &contest{}
	for i := range f.Ballots.Len() {
		marks, count := f.Ballots.Ballot(i)
		var prefs []int
		for j, m := range marks {
			if m.Candidate == tally.Overvote || j+1 < len(marks) && marks[j+1].Rank == m.Rank || j > 0 && marks[j-1].Rank == m.Rank {
				break
			}
			if !slices.Contains(prefs, int(m.Candidate)) {
				prefs = append(prefs, int(m.Candidate))
			}
		}
		for range count {
			c.cvr = append(c.cvr, prefs)
		}
	}
	c.paper = c.cvr
	sol, err := raire.Assertions(raire.Contest{Candidates: f.Candidates, NumCandidates: len(f.Candidates), Votes: c.votes(),
		Audit: raire.Audit{Type: raire.OneOnMargin, TotalAuditableBallots: uint64(len(c.cvr))}}, raire.Options{})
	if err != nil {
		return nil, err
	}
	for _, a := range sol.Assertions {
		c.assertions = append(c.assertions, a.Assertion)
	}
	c.manifest, err = rla.NewManifest([]rla.Batch{{Name: "All", Ballots: len(c.cvr)}})
	return c, err
})

// loadBurlington returns the Burlington contest or skips the test.
func loadBurlington(t testing.TB) *contest {
	t.Helper()
	c, err := burlington()
	if err != nil {
		t.Skipf("Burlington 2009 absent: %v", err)
	}
	return c
}

// TestBurlington2009 audits Burlington 2009 at risk limit 0.05: it logs
// the first round of a comparison and of a polling audit, and checks that
// a comparison audit of that many ballots whose paper matches its records
// confirms Bob Kiss's win.
func TestBurlington2009(t *testing.T) {
	c := loadBurlington(t)
	au := c.audit(t, rla.Comparison, 0.05)
	n := au.InitialSampleSize(rla.Expect{})
	polling := c.audit(t, rla.Polling, 0.05).InitialSampleSize(rla.Expect{})
	st := au.Measure(c.observe(rla.Sample("12345678901234567890", c.manifest, n)))
	smallest := 1.0
	for _, a := range st.Assertions {
		smallest = min(smallest, a.Margin)
	}
	t.Logf("Burlington 2009 mayor, %d ballots, %d assertions, smallest diluted margin %.4f: comparison initial sample %d, polling %d; "+
		"after %d clean draws the risk is %.4f", len(c.cvr), len(c.assertions), smallest, n, polling, n, st.Risk)
	if !st.Confirmed {
		t.Errorf("%d clean draws: risk %v, not confirmed", n, st.Risk)
	}
	if n < 1 || polling < n || polling > len(c.cvr) {
		t.Errorf("initial samples: comparison %d, polling %d", n, polling)
	}
}

// BenchmarkMeasureBurlington2009 measures a comparison audit of Burlington
// 2009 after 10,000 draws (with replacement, so some ballots twice).
func BenchmarkMeasureBurlington2009(b *testing.B) {
	c := loadBurlington(b)
	au := c.audit(b, rla.Comparison, 0.05)
	obs := c.observe(rla.Sample("12345678901234567890", c.manifest, 10_000))
	var st rla.Status
	for b.Loop() {
		st = au.Measure(obs)
	}
	b.ReportMetric(st.Risk, "risk")
	b.ReportMetric(float64(len(st.Assertions)), "assertions")
}
