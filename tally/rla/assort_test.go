package rla_test

import (
	"math/rand/v2"
	"testing"

	"votedesk/tally/raire"
	"votedesk/tally/rla"
)

// TestAssort checks the assorters of NEB and NEN assertions on ballots
// of each kind.
func TestAssort(t *testing.T) {
	neb := raire.Assertion{Type: raire.NEB, Winner: 0, Loser: 1}
	nen := raire.Assertion{Type: raire.NEN, Winner: 0, Loser: 1, Continuing: []int{0, 1, 3}}
	tests := []struct {
		name  string
		a     raire.Assertion
		prefs []int
		want  float64
	}{
		{"NEBWinnerFirst", neb, []int{0, 1}, 1},
		{"NEBWinnerFirstAlone", neb, []int{0}, 1},
		{"NEBLoserAboveWinner", neb, []int{2, 1, 0}, 0},
		{"NEBLoserWithoutWinner", neb, []int{2, 1}, 0},
		{"NEBWinnerAboveLoserNotFirst", neb, []int{2, 0, 1}, 0.5},
		{"NEBNeither", neb, []int{2, 3}, 0.5},
		{"NEBBlank", neb, nil, 0.5},
		{"NENWinnerFirstContinuing", nen, []int{2, 0, 1}, 1},
		{"NENLoserFirstContinuing", nen, []int{2, 1, 0}, 0},
		{"NENOtherContinuing", nen, []int{3, 0}, 0.5},
		{"NENExhausted", nen, []int{2}, 0.5},
		{"NENBlank", nen, nil, 0.5},
		{"UnknownTypeNeutral", raire.Assertion{Type: "XYZ", Winner: 0, Loser: 1}, []int{0}, 0.5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := rla.Assort(tt.a, tt.prefs); got != tt.want {
				t.Errorf("Assort(%v, %v) = %v, want %v", tt.a, tt.prefs, got, tt.want)
			}
		})
	}
}

// TestAssortMeanIsMargin: over random ballots, the assorter's mean is 1/2
// plus half the assertion's margin (raire's tallies) per ballot, so it
// exceeds 1/2 exactly when the assertion holds.
func TestAssortMeanIsMargin(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for range 200 {
		n := 2 + r.IntN(5)
		votes := randomVotes(r, n, 1+r.IntN(40))
		w, l := r.IntN(n), r.IntN(n-1)
		if l >= w {
			l++
		}
		as := []raire.Assertion{{Type: raire.NEB, Winner: w, Loser: l}}
		cont := []int{}
		for c := range n {
			if c == w || c == l || r.IntN(2) == 0 {
				cont = append(cont, c)
			}
		}
		as = append(as, raire.Assertion{Type: raire.NEN, Winner: w, Loser: l, Continuing: cont})
		for _, a := range as {
			sum, total := 0.0, 0.0
			for _, v := range votes {
				sum += float64(v.N) * rla.Assort(a, v.Prefs)
				total += float64(v.N)
			}
			if want := 0.5 + float64(a.MarginOn(votes))/(2*total); !near(sum/total, want) {
				t.Fatalf("%v: mean %v, want %v (votes %v)", a, sum/total, want, votes)
			}
		}
	}
}

// randomVotes returns up to k random ballots over n candidates, each a
// random ranking of some of them, counted N times.
func randomVotes(r *rand.Rand, n, k int) []raire.Vote {
	var votes []raire.Vote
	for range k {
		prefs := r.Perm(n)[:r.IntN(n+1)]
		votes = append(votes, raire.Vote{N: uint64(1 + r.IntN(5)), Prefs: prefs})
	}
	return votes
}

// near reports whether two numbers agree to within rounding.
func near(a, b float64) bool {
	d := a - b
	return d < 1e-9 && d > -1e-9
}
