package rla_test

import (
	"math"
	"testing"

	"votedesk/tally/raire"
	"votedesk/tally/rla"
)

// twoWay is a contest of two candidates, 0 with a votes and 1 with b,
// among n ballots (the rest blank); its one assertion has diluted margin
// (a-b)/n.
func twoWay(t testing.TB, a, b, n int) *contest {
	return newContest(t, 2, 0, raire.Vote{N: uint64(a), Prefs: []int{0}}, raire.Vote{N: uint64(b), Prefs: []int{1}},
		raire.Vote{N: uint64(n - a - b)})
}

// cleanObservations is n observations whose paper matches a record for
// candidate 0.
func cleanObservations(n int) []rla.Observation {
	obs := make([]rla.Observation, n)
	for i := range obs {
		obs[i] = rla.Observation{CVR: []int{0}, Paper: []int{0}}
	}
	return obs
}

// TestComparisonInitialSampleSize: for a diluted margin of 0.05 at risk
// limit 0.05 the estimate lies between the least any test with these
// bounds can need, ⌈ln(1/α) / ln(2/(2 - v))⌉ = 119 draws, and Arlo's
// estimate, 136 (Kaplan-Markov with γ = 1.03905, planning a one-vote over-
// and understatement); the Kaplan-Markov figure with no discrepancies,
// 2γ ln(1/α)/v = 124.5 (RAIRE's MACRO difficulty), is within 2%. A sample
// of that many clean ballots confirms the outcome; one fewer than the
// no-discrepancy minimum does not.
func TestComparisonInitialSampleSize(t *testing.T) {
	c := twoWay(t, 10500, 9500, 20000)
	au := c.audit(t, rla.Comparison, 0.05)
	n := au.InitialSampleSize(rla.Expect{})
	const v, alpha = 0.05, 0.05
	least := int(math.Ceil(math.Log(1/alpha) / math.Log(2/(2-v))))
	km := raire.Audit{Type: raire.MACRO, TotalAuditableBallots: 20000, Confidence: alpha, ErrorInflationFactor: 1.03905}.Difficulty(10500, 9500)
	t.Logf("diluted margin %v, risk limit %v: %d draws (least %d, Kaplan-Markov %.1f, Arlo 136)", v, alpha, n, least, km)
	if n < least || n > 136 || math.Abs(float64(n)-km) > 0.02*km {
		t.Errorf("%d draws: want between %d and 136, within 2%% of %.1f", n, least, km)
	}
	if st := au.Measure(cleanObservations(n)); !st.Confirmed || st.Risk > alpha || st.NextRound != 0 || st.FullHandCount {
		t.Errorf("%d clean ballots: %+v, want confirmed", n, st)
	}
	if st := au.Measure(cleanObservations(least - 1)); st.Confirmed || st.NextRound < 1 {
		t.Errorf("%d clean ballots: %+v, want not confirmed and a next round", least-1, st)
	}
}

// TestInitialSampleSizeGrows: smaller margins and more expected
// discrepancies need more draws; a margin the expected discrepancies
// would overturn needs a full hand count.
func TestInitialSampleSizeGrows(t *testing.T) {
	prev := 0
	for _, lead := range []int{4000, 2000, 1000, 400, 200} {
		c := twoWay(t, 10000+lead/2, 10000-lead/2, 20000)
		n := c.audit(t, rla.Comparison, 0.05).InitialSampleSize(rla.Expect{})
		if n <= prev {
			t.Errorf("margin %v: %d draws, not more than the wider margin's %d", float64(lead)/20000, n, prev)
		}
		prev = n
	}
	au := twoWay(t, 10500, 9500, 20000).audit(t, rla.Comparison, 0.05)
	prev = 0
	for _, o1 := range []float64{0.0001, 0.001, 0.005, 0.01} {
		n := au.InitialSampleSize(rla.Expect{O1: o1})
		if n <= prev {
			t.Errorf("one-vote overstatement rate %v: %d draws, not more than %d", o1, n, prev)
		}
		prev = n
	}
	if n := au.InitialSampleSize(rla.Expect{O2: 0.03}); n != 20000 {
		t.Errorf("two-vote overstatements at 3%% against a 5%% margin: %d draws, want the whole manifest", n)
	}
	if n := au.InitialSampleSize(rla.Expect{O1: math.NaN(), U1: -1, O2: math.Inf(1)}); n != 20000 {
		t.Errorf("rates NaN, -1, +Inf: %d draws, want the whole manifest", n)
	}
}

// TestPollingInitialSampleSize: for two candidates with no other ballots
// the estimate is within 3% of BRAVO's expected sample size when the
// reported shares are right (RAIRE's BRAVO difficulty), which adds Wald's
// allowance for overshooting the threshold, ln(2s)/2, to the ln(1/α) the
// estimate uses.
func TestPollingInitialSampleSize(t *testing.T) {
	for _, tt := range []struct {
		name string
		a, b int
	}{{"Margin10", 5500, 4500}, {"Margin5", 5250, 4750}, {"Margin20", 6000, 4000}} {
		t.Run(tt.name, func(t *testing.T) {
			n := twoWay(t, tt.a, tt.b, 10000).audit(t, rla.Polling, 0.05).InitialSampleSize(rla.Expect{})
			bravo := raire.Audit{Type: raire.BRAVO, TotalAuditableBallots: 10000, Confidence: 0.05}.Difficulty(uint64(tt.a), uint64(tt.b))
			t.Logf("%d and %d of 10,000: %d draws, BRAVO %.1f", tt.a, tt.b, n, bravo)
			if math.Abs(float64(n)-bravo) > 0.03*bravo {
				t.Errorf("%d draws, want within 3%% of BRAVO's %.1f", n, bravo)
			}
		})
	}
}

// TestDiscrepanciesMoveTheRisk: against the same clean sample, a two-vote
// overstatement raises the risk more than a one-vote one, an
// understatement lowers it, and each is counted.
func TestDiscrepanciesMoveTheRisk(t *testing.T) {
	au := twoWay(t, 10500, 9500, 20000).audit(t, rla.Comparison, 0.05)
	with := func(o rla.Observation) rla.Status {
		obs := cleanObservations(100)
		obs[40] = o
		return au.Measure(obs)
	}
	clean := au.Measure(cleanObservations(100))
	o1 := with(rla.Observation{CVR: []int{0}, Paper: nil})
	o2 := with(rla.Observation{CVR: []int{0}, Paper: []int{1}})
	u1 := with(rla.Observation{CVR: nil, Paper: []int{0}})
	u2 := with(rla.Observation{CVR: []int{1}, Paper: []int{0}})
	t.Logf("risk after 100 draws: clean %.4f, one-vote over %.4f, two-vote over %.4f, one-vote under %.4f, two-vote under %.4f",
		clean.Risk, o1.Risk, o2.Risk, u1.Risk, u2.Risk)
	if !(o2.Risk > o1.Risk && o1.Risk > clean.Risk && u1.Risk < clean.Risk && u2.Risk < u1.Risk) {
		t.Error("the risks are not ordered two-vote over > one-vote over > clean > one-vote under > two-vote under")
	}
	if a := o2.Assertions[0]; a.O2 != 1 || a.O1+a.U1+a.U2 != 0 {
		t.Errorf("two-vote overstatement counted as %+v", a)
	}
	if a := u1.Assertions[0]; a.U1 != 1 || a.O1+a.O2+a.U2 != 0 {
		t.Errorf("one-vote understatement counted as %+v", a)
	}
	if o2.NextRound <= clean.NextRound {
		t.Errorf("next round %d after a two-vote overstatement, not more than %d with none", o2.NextRound, clean.NextRound)
	}
}

// TestWorstCases: a phantom and a ballot not found count against every
// assertion; in a polling audit a phantom's paper, when read, counts.
func TestWorstCases(t *testing.T) {
	au := twoWay(t, 10500, 9500, 20000).audit(t, rla.Comparison, 0.05)
	tests := []struct {
		name     string
		kind     rla.Kind
		o        rla.Observation
		o1, o2   int
		against  int
		neither  int
		forCount int
	}{
		{"PhantomIsOneVoteOver", rla.Comparison, rla.Observation{Phantom: true, Paper: []int{0}}, 1, 0, 0, 0, 0},
		{"NotFoundIsTwoVoteOver", rla.Comparison, rla.Observation{CVR: []int{0}, Paper: []int{0}, NotFound: true}, 0, 1, 0, 0, 0},
		{"NotFoundBlankRecordIsOneVoteOver", rla.Comparison, rla.Observation{NotFound: true}, 1, 0, 0, 0, 0},
		{"PollingNotFoundIsAgainst", rla.Polling, rla.Observation{Paper: []int{0}, NotFound: true}, 0, 0, 1, 0, 0},
		{"PollingPhantomPaperCounts", rla.Polling, rla.Observation{Phantom: true, Paper: []int{0}}, 0, 0, 0, 0, 1},
		{"PollingBlankIsNeither", rla.Polling, rla.Observation{CVR: []int{1}}, 0, 0, 0, 1, 0},
	}
	polling := twoWay(t, 10500, 9500, 20000).audit(t, rla.Polling, 0.05)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := au
			if tt.kind == rla.Polling {
				a = polling
			}
			s := a.Measure([]rla.Observation{tt.o}).Assertions[0]
			if s.O1 != tt.o1 || s.O2 != tt.o2 || s.Against != tt.against || s.Neither != tt.neither || s.For != tt.forCount {
				t.Errorf("counted as %+v", s)
			}
		})
	}
}

// TestMeasureNothing: before any draw every risk is 1 and the next round
// is the initial sample size.
func TestMeasureNothing(t *testing.T) {
	au := twoWay(t, 10500, 9500, 20000).audit(t, rla.Comparison, 0.05)
	st := au.Measure(nil)
	if st.Risk != 1 || st.Confirmed || st.FullHandCount || st.NextRound != au.InitialSampleSize(rla.Expect{}) ||
		len(st.Assertions) != 1 || st.Assertions[0].Margin != 0.05 {
		t.Errorf("status %+v, want risk 1 and the initial sample size next", st)
	}
}

// TestFullHandCount: a sample that nearly covers the manifest without
// confirming escalates.
func TestFullHandCount(t *testing.T) {
	c := twoWay(t, 105, 95, 200)
	au := c.audit(t, rla.Comparison, 0.05)
	st := au.Measure(overstated(150, 10, 10))
	if st.Confirmed || !st.FullHandCount || st.NextRound != 0 || st.Continue != 0 {
		t.Errorf("status %+v, want a full hand count, and no round instead: half the sample again passes the manifest's 200", st)
	}
}

// overstated is n observations of a two-way contest that match their
// records but k, every step-th from the first, which are two-vote
// overstatements (the record says the winner, the paper the loser).
func overstated(n, k, step int) []rla.Observation {
	obs := cleanObservations(n)
	for i := range k {
		obs[i*step] = rla.Observation{CVR: []int{0}, Paper: []int{1}}
	}
	return obs
}

// TestContinueInsteadOfHandCount: discrepancies early in a large manifest
// escalate the audit by projection, and a round of half the sample again
// is offered instead; measuring on after that round with clean paper
// confirms (the first errors were a misreading, say).
func TestContinueInsteadOfHandCount(t *testing.T) {
	c := twoWay(t, 5200, 4800, 10000)
	au := c.audit(t, rla.Comparison, 0.05)
	obs := overstated(60, 6, 1)
	st := au.Measure(obs)
	if st.Confirmed || !st.FullHandCount || st.NextRound != 0 || st.Continue != 30 {
		t.Fatalf("status %+v; want escalated, with a round of 30 offered instead", st)
	}
	for len(obs) < 9000 && !st.Confirmed {
		obs = append(obs, cleanObservations(max(st.NextRound, st.Continue))...)
		st = au.Measure(obs)
	}
	if !st.Confirmed {
		t.Errorf("clean paper after the escalation never confirms: %+v", st)
	}
}

// TestLargeManifestEstimates: for 100 million ballots and a lead of 2,000
// (diluted margin 0.00002) a comparison that expects no discrepancies
// needs about 2 ln(1/α)/v draws, past the projection's draw-by-draw
// stretch; one that expects SHANGRLA's planning rates, which would
// overturn so small a margin, and a polling audit need the whole manifest.
// All are estimated quickly.
func TestLargeManifestEstimates(t *testing.T) {
	votes := []raire.Vote{{N: 40_001_000, Prefs: []int{0}}, {N: 39_999_000, Prefs: []int{1}}}
	as := []raire.Assertion{{Type: raire.NEB, Winner: 0, Loser: 1}}
	comparison, err := rla.NewAudit(rla.Comparison, 0.05, as, votes, rla.MaxBallots)
	if err != nil {
		t.Fatal(err)
	}
	const v = 2000.0 / rla.MaxBallots
	n, want := comparison.InitialSampleSize(rla.Expect{O1: 1e-12}), 2*math.Log(20)/v
	t.Logf("margin %v of %d ballots: %d draws (2 ln(1/α)/v = %.0f)", v, rla.MaxBallots, n, want)
	if n < int(want) || float64(n) > 1.5*want {
		t.Errorf("%d draws, want between %.0f and half as much again", n, want)
	}
	if n := comparison.InitialSampleSize(rla.Expect{}); n != rla.MaxBallots {
		t.Errorf("planning rates: %d draws, want the whole manifest", n)
	}
	polling, err := rla.NewAudit(rla.Polling, 0.05, as, votes, rla.MaxBallots)
	if err != nil {
		t.Fatal(err)
	}
	if n := polling.InitialSampleSize(rla.Expect{}); n != rla.MaxBallots {
		t.Errorf("polling: %d draws, want the whole manifest", n)
	}
}
