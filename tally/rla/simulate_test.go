package rla_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"votedesk/tally/raire"
	"votedesk/tally/rla"
)

// irv3 is a three-candidate IRV contest of 2,000 ballots that candidate 0
// wins: first preferences 900, 700 and 400; candidate 2's ballots then
// split 250 to 0 and 150 to 1, for 1,150 to 850.
func irv3(t testing.TB) *contest {
	return newContest(t, 3, 0,
		raire.Vote{N: 900, Prefs: []int{0, 1}}, raire.Vote{N: 700, Prefs: []int{1, 0}},
		raire.Vote{N: 250, Prefs: []int{2, 0}}, raire.Vote{N: 150, Prefs: []int{2, 1}})
}

// TestRiskLimit audits a contest whose paper ballots make another
// candidate the winner (151 ballots for 0 then 1 are really for 1 then
// 0: 0 has 999 and 1 has 1,001 in the last round) with 1,000 seeds for each
// kind of audit. A risk-limiting audit confirms the wrong outcome at most
// α of the time (allowing three standard errors over 1,000 trials) and
// otherwise escalates to a full hand count.
func TestRiskLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("2,000 audits")
	}
	c := irv3(t)
	for i, flipped := 0, 0; flipped < 151; i++ {
		if c.paper[i][0] == 0 {
			c.paper[i], flipped = []int{1, 0}, flipped+1
		}
	}
	const trials, alpha = 1000, 0.05
	allowed := int(trials*alpha + 3*math.Sqrt(trials*alpha*(1-alpha)))
	for _, kind := range []rla.Kind{rla.Comparison, rla.Polling} {
		t.Run(string(kind)+"ConfirmsAtMostAlpha", func(t *testing.T) {
			au := c.audit(t, kind, alpha)
			confirmed, draws := 0, 0
			for i := range trials {
				st := c.run(au, seedFor(i))
				switch {
				case st.Confirmed:
					confirmed++
				case !st.FullHandCount:
					t.Fatalf("trial %d ended neither confirmed nor escalated: %+v", i, st)
				}
				draws += st.Sampled
			}
			t.Logf("%s: wrong outcome confirmed in %d of %d audits (at most %d allowed), %.0f draws on average",
				kind, confirmed, trials, allowed, float64(draws)/trials)
			if confirmed > allowed {
				t.Errorf("confirmed %d of %d wrong outcomes: more than the risk limit allows", confirmed, trials)
			}
		})
	}
}

// TestRightOutcomeConfirms: when the paper matches the records, every
// comparison audit confirms, and nearly every polling audit (all but 5%,
// whose sample may by chance look close) before a full hand count; when a
// few paper ballots differ from their records in both directions (20 of
// 2,000), comparison audits still nearly all confirm.
func TestRightOutcomeConfirms(t *testing.T) {
	noisy := irv3(t)
	r := rand.New(rand.NewPCG(3, 4))
	for range 20 {
		i := r.IntN(len(noisy.paper))
		noisy.paper[i] = noisy.paper[r.IntN(len(noisy.paper))]
	}
	tests := []struct {
		name    string
		c       *contest
		kind    rla.Kind
		atLeast float64
	}{
		{"ComparisonPaperMatches", irv3(t), rla.Comparison, 1},
		{"PollingPaperMatches", irv3(t), rla.Polling, 0.95},
		{"ComparisonFewDiscrepancies", noisy, rla.Comparison, 0.95},
	}
	const trials = 100
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			au := tt.c.audit(t, tt.kind, 0.05)
			confirmed, draws := 0, 0
			for i := range trials {
				st := tt.c.run(au, seedFor(i))
				if st.Confirmed {
					confirmed++
					draws += st.Sampled
				}
			}
			t.Logf("confirmed %d of %d, first round %d, %.1f draws on average when confirmed", confirmed, trials,
				au.InitialSampleSize(rla.Expect{}), float64(draws)/float64(max(confirmed, 1)))
			if float64(confirmed) < tt.atLeast*trials {
				t.Errorf("confirmed %d of %d, want at least %.0f%%", confirmed, trials, 100*tt.atLeast)
			}
		})
	}
}
