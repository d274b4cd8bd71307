package tally_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"votedesk/tally"
	"votedesk/tally/cvr"

	"votedesk/app/apptest"
)

// sharedFile returns a path under the shared test data.
func sharedFile(t *testing.T, rel string) string {
	t.Helper()
	p := filepath.Join(apptest.SharedTestdata(), rel)
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("shared test data: %v", err)
	}
	return p
}

// TestBurlington2009 reproduces the official round-by-round count of the
// 2009 Burlington mayoral election from its BLT file: a ballot with
// several continuing candidates at one rank exhausts, skipped ranks are
// passed over, and hopeless candidates are eliminated together. Every
// tally and exhausted count matches; the threshold does not need to, since
// RCTab takes it from the active ballots (8,976 in round 1: 4,489) where
// the official count took it from all valid ballots (8,980: 4,491).
func TestBurlington2009(t *testing.T) {
	f, err := cvr.ReadFile(context.Background(), cvr.Source{Provider: cvr.FormatBLT,
		FilePath: sharedFile(t, "real/burlington_2009_mayor/2009-Burlington-Mayor.blt")}, cvr.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c := tally.Contest{Name: f.Title}
	for _, n := range f.Candidates {
		c.Candidates = append(c.Candidates, tally.Candidate{Name: n})
	}
	r := tally.DefaultRules()
	r.OvervoteRule = tally.ExhaustIfMultipleContinuing
	r.MaxSkippedRanksAllowed = tally.Unlimited
	r.BatchElimination = true
	res, err := tally.Tabulate(c, &f.Ballots, tally.IRV, r)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		tally     map[string]int64
		exhausted int64
	}{
		{map[string]int64{"Kurt Wright": 2951, "Bob Kiss": 2585, "Andy Montroll": 2063, "Dan Smith": 1306, "Write-in": 36, "James Simpson": 35}, 4},
		{map[string]int64{"Kurt Wright": 3294, "Bob Kiss": 2981, "Andy Montroll": 2554}, 151},
		{map[string]int64{"Bob Kiss": 4313, "Kurt Wright": 4061}, 606},
	}
	rounds := res.Passes[0].Rounds
	if len(rounds) != len(want) {
		t.Fatalf("%d rounds, want %d", len(rounds), len(want))
	}
	for i, w := range want {
		got := map[string]int64{}
		for _, v := range rounds[i].Tally {
			got[c.Candidates[v.Candidate].Name] = mustInt(t, v.Votes)
		}
		for name, n := range w.tally {
			if got[name] != n {
				t.Errorf("round %d: %s has %d, official %d", i+1, name, got[name], n)
			}
		}
		in := rounds[i].Inactive
		if ex := mustInt(t, in.Total().Sub(in.NoRankings)); ex != w.exhausted {
			t.Errorf("round %d: %d exhausted, official %d", i+1, ex, w.exhausted)
		}
		if blank := mustInt(t, in.NoRankings); blank != 4 {
			t.Errorf("round %d: %d blank ballots, want the 4 invalid ones", i+1, blank)
		}
	}
	if th := mustInt(t, rounds[0].Threshold); th != 4489 {
		t.Errorf("round 1 threshold %d, want 4,489", th)
	}
	if len(rounds[0].Eliminated) != 3 {
		t.Errorf("round 1 eliminated %d candidates, official 3 (Smith, Write-in, Simpson)", len(rounds[0].Eliminated))
	}
	if len(res.Winners) != 1 || c.Candidates[res.Winners[0]].Name != "Bob Kiss" {
		t.Errorf("winners %v, official Bob Kiss", res.Winners)
	}
}

func mustInt(t *testing.T, d tally.Decimal) int64 {
	t.Helper()
	r := d.Rat()
	if !r.IsInt() {
		t.Fatalf("%s is not whole", d)
	}
	return r.Num().Int64()
}
