package rla_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"votedesk/tally/raire"
	"votedesk/tally/rla"
)

// TestNewAuditErrors checks each refusal's message; none panics.
func TestNewAuditErrors(t *testing.T) {
	neb := raire.Assertion{Type: raire.NEB, Winner: 0, Loser: 1}
	votes := []raire.Vote{{N: 60, Prefs: []int{0}}, {N: 40, Prefs: []int{1}}}
	ok := []raire.Assertion{neb}
	tests := []struct {
		name       string
		kind       rla.Kind
		alpha      float64
		assertions []raire.Assertion
		votes      []raire.Vote
		ballots    int
		want       string
	}{
		{"ErrKind", "batch", 0.05, ok, votes, 100, `rla: "batch" is not an audit kind (comparison or polling)`},
		{"ErrKindEmpty", "", 0.05, ok, votes, 100, `rla: "" is not an audit kind (comparison or polling)`},
		{"ErrRiskZero", rla.Comparison, 0, ok, votes, 100, "rla: the risk limit 0 is not strictly between 0 and 1 (0.05 for 5%)"},
		{"ErrRiskOne", rla.Comparison, 1, ok, votes, 100, "rla: the risk limit 1 is not strictly between 0 and 1 (0.05 for 5%)"},
		{"ErrRiskNaN", rla.Polling, math.NaN(), ok, votes, 100, "rla: the risk limit NaN is not strictly between 0 and 1 (0.05 for 5%)"},
		{"ErrRiskPercent", rla.Polling, 5, ok, votes, 100, "rla: the risk limit 5 is not strictly between 0 and 1 (0.05 for 5%)"},
		{"ErrNoAssertions", rla.Comparison, 0.05, nil, votes, 100, "rla: there are no assertions to audit"},
		{"ErrNoBallots", rla.Comparison, 0.05, ok, votes, 0, "rla: the manifest's 0 ballots are not between 1 and 100000000"},
		{"ErrTooManyBallots", rla.Comparison, 0.05, ok, votes, rla.MaxBallots + 1, "rla: the manifest's 100000001 ballots are not between 1 and 100000000"},
		{"ErrMoreRecordsThanBallots", rla.Comparison, 0.05, ok, votes, 99, "rla: there are more cast vote records than the manifest's 99 ballots"},
		{"ErrRecordsOverflow", rla.Comparison, 0.05, ok, []raire.Vote{{N: math.MaxUint64}, {N: 2}}, 100,
			"rla: there are more cast vote records than the manifest's 100 ballots"},
		{"ErrAssertionType", rla.Comparison, 0.05, []raire.Assertion{neb, {Type: "NEX", Winner: 0, Loser: 1}}, votes, 100,
			`rla: assertion 2 (type "NEX", winner 0, loser 1): its type is not NEB or NEN`},
		{"ErrNegativeCandidate", rla.Comparison, 0.05, []raire.Assertion{{Type: raire.NEB, Winner: -1, Loser: 1}}, votes, 100,
			"rla: assertion 1 (NEB(-1,1)): a candidate number is negative"},
		{"ErrWinnerIsLoser", rla.Comparison, 0.05, []raire.Assertion{{Type: raire.NEB, Winner: 1, Loser: 1}}, votes, 100,
			"rla: assertion 1 (NEB(1,1)): its winner is its loser"},
		{"ErrNotContinuing", rla.Polling, 0.05, []raire.Assertion{{Type: raire.NEN, Winner: 0, Loser: 1, Continuing: []int{0, 2}}}, votes, 100,
			"rla: assertion 1 (NEN(0,1|{0,2})): its winner and loser are not both continuing"},
		{"ErrFalseAssertion", rla.Comparison, 0.05, []raire.Assertion{{Type: raire.NEB, Winner: 1, Loser: 0}}, votes, 100,
			"rla: assertion 1 (NEB(1,0)) is not supported by the reported ballots: the winner has 40 and the loser 60"},
		{"ErrTiedAssertion", rla.Comparison, 0.05, ok, []raire.Vote{{N: 5, Prefs: []int{0}}, {N: 5, Prefs: []int{1, 0}}}, 100,
			"rla: assertion 1 (NEB(0,1)) is not supported by the reported ballots: the winner has 5 and the loser 5"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			au, err := rla.NewAudit(tt.kind, tt.alpha, tt.assertions, tt.votes, tt.ballots)
			if err == nil || err.Error() != tt.want || au != nil {
				t.Errorf("error %v\nwant  %s", err, tt.want)
			}
		})
	}
}

// TestNewAuditOddInputs: odd but valid inputs give a working audit.
func TestNewAuditOddInputs(t *testing.T) {
	neb := raire.Assertion{Type: raire.NEB, Winner: 0, Loser: 1}
	tests := []struct {
		name    string
		votes   []raire.Vote
		ballots int
	}{
		{"OkOneBallot", []raire.Vote{{N: 1, Prefs: []int{0}}}, 1},
		{"OkMostlyPhantoms", []raire.Vote{{N: 1, Prefs: []int{0}}}, 1000},
		{"OkRepeatedCandidate", []raire.Vote{{N: 3, Prefs: []int{0, 0, 1}}, {N: 1, Prefs: []int{1, 1}}}, 4},
		{"OkUnknownCandidates", []raire.Vote{{N: 3, Prefs: []int{0, 99, -4}}, {N: 0, Prefs: []int{1}}}, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, kind := range []rla.Kind{rla.Comparison, rla.Polling} {
				au, err := rla.NewAudit(kind, 0.05, []raire.Assertion{neb}, tt.votes, tt.ballots)
				if err != nil {
					t.Fatal(err)
				}
				n := au.InitialSampleSize(rla.Expect{})
				if n < 1 || n > tt.ballots {
					t.Errorf("%s: initial sample size %d of %d ballots", kind, n, tt.ballots)
				}
				st := au.Measure([]rla.Observation{{CVR: []int{0}, Paper: []int{0}}, {Phantom: true}, {NotFound: true}, {}})
				if len(st.Assertions) != 1 || st.Risk < 0 || st.Risk > 1 || math.IsNaN(st.Risk) {
					t.Errorf("%s: status %+v", kind, st)
				}
			}
		})
	}
}

// TestAuditNeverPanics sets up audits of random contests and measures
// random observations, garbage preferences among them: the risks stay in
// [0, 1], confirmed assertions are those at the risk limit, and the
// suggested rounds stay within the manifest.
func TestAuditNeverPanics(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	garbage := func() []int {
		p := make([]int, r.IntN(6))
		for i := range p {
			p[i] = r.IntN(8) - 2
		}
		return p
	}
	for range 300 {
		n := 2 + r.IntN(4)
		votes := randomVotes(r, n, 1+r.IntN(30))
		total := 0
		for _, v := range votes {
			total += int(v.N)
		}
		sol, err := raire.Assertions(raire.Contest{NumCandidates: n, Votes: votes,
			Audit: raire.Audit{Type: raire.OneOnMargin, TotalAuditableBallots: uint64(total)}}, raire.Options{})
		if err != nil {
			continue // a tie
		}
		var as []raire.Assertion
		for _, a := range sol.Assertions {
			as = append(as, a.Assertion)
		}
		ballots := total + r.IntN(5)
		alpha := []float64{0.001, 0.05, 0.5, 0.999}[r.IntN(4)]
		for _, kind := range []rla.Kind{rla.Comparison, rla.Polling} {
			au, err := rla.NewAudit(kind, alpha, as, votes, ballots)
			if err != nil {
				t.Fatalf("%s of %v: %v", kind, votes, err)
			}
			if n := au.InitialSampleSize(rla.Expect{O1: r.Float64() / 10, U2: r.Float64() / 10}); n < 1 || n > ballots {
				t.Fatalf("initial sample %d of %d ballots", n, ballots)
			}
			obs := make([]rla.Observation, r.IntN(3*ballots))
			for i := range obs {
				obs[i] = rla.Observation{CVR: garbage(), Paper: garbage(), Phantom: r.IntN(10) == 0, NotFound: r.IntN(10) == 0}
			}
			st := au.Measure(obs)
			for _, s := range st.Assertions {
				if !(s.Risk >= 0 && s.Risk <= 1) || s.Confirmed != (s.Risk <= alpha) {
					t.Fatalf("assertion status %+v at risk limit %v", s, alpha)
				}
			}
			if st.Sampled != len(obs) || st.NextRound < 0 || st.Sampled+st.NextRound > max(ballots, st.Sampled) && !st.FullHandCount ||
				(st.Confirmed || st.FullHandCount) && st.NextRound != 0 ||
				st.Continue != 0 && (!st.FullHandCount || st.Sampled+st.Continue >= ballots) {
				t.Fatalf("status %+v after %d observations of %d ballots", st, len(obs), ballots)
			}
		}
	}
}
