package raire_test

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"votedesk/tally/raire"
)

// randomContest makes a contest of 3 to 6 candidates with up to 12
// distinct rankings, each cast by 1 to 60 voters, and a random audit type
// and trimming algorithm.
func randomContest(r *rand.Rand) raire.Contest {
	n := 3 + r.IntN(4)
	c := raire.Contest{NumCandidates: n}
	var total uint64
	for range 1 + r.IntN(12) {
		prefs := r.Perm(n)[:r.IntN(n+1)]
		v := raire.Vote{N: 1 + uint64(r.IntN(60)), Prefs: prefs}
		total += v.N
		c.Votes = append(c.Votes, v)
	}
	c.Audit = []raire.Audit{
		{Type: raire.OneOnMargin, TotalAuditableBallots: total},
		{Type: raire.OneOnMarginSq, TotalAuditableBallots: total + 10},
		{Type: raire.BRAVO, TotalAuditableBallots: total, Confidence: 0.05},
		{Type: raire.MACRO, TotalAuditableBallots: total, Confidence: 0.1, ErrorInflationFactor: 1.1},
	}[r.IntN(4)]
	c.Trim = []raire.TrimAlgorithm{raire.TrimNone, raire.MinimizeTree, raire.MinimizeAssertions}[r.IntN(3)]
	return c
}

// TestRandomContests checks Assertions on random contests against brute
// force: the winner (or the tie) is the one found by counting with every
// tie-break; every assertion's margin, counted directly, is positive and
// as reported; Check and an enumeration of every elimination order accept
// the set; the difficulty is the least possible; and the trimmed sets are
// no bigger than the untrimmed.
func TestRandomContests(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	solved, tied := 0, 0
	for i := range 400 {
		c := randomContest(r)
		sol, err := raire.Assertions(c, raire.Options{})
		possible := bruteWinners(c.NumCandidates, c.Votes)
		if len(possible) > 1 {
			var e *raire.Error
			if !errors.As(err, &e) || e.Kind != raire.TiedWinners || !slices.Equal(e.Candidates, possible) || sol != nil {
				t.Fatalf("contest %d: %+v: got %v, %v; want TiedWinners %v", i, c, sol, err, possible)
			}
			tied++
			continue
		}
		if err != nil {
			t.Fatalf("contest %d: %+v: %v", i, c, err)
		}
		solved++
		if sol.Winner != possible[0] {
			t.Fatalf("contest %d: winner %d, brute force %d", i, sol.Winner, possible[0])
		}
		for _, a := range sol.Assertions {
			if m := a.MarginOn(c.Votes); m <= 0 || uint64(m) != a.Margin {
				t.Fatalf("contest %d: %v reports margin %d, counted %d", i, a.Assertion, a.Margin, m)
			}
		}
		if err := raire.Check(c, sol); err != nil {
			t.Fatalf("contest %d: %+v: %v", i, c, err)
		}
		if !bruteCovered(c.NumCandidates, sol.Winner, sol.Assertions) {
			t.Fatalf("contest %d: enumeration finds an order nothing rules out", i)
		}
		if best := bruteDifficulty(c, sol.Winner); !near(sol.Difficulty, best) {
			t.Fatalf("contest %d: difficulty %v, the best possible is %v", i, sol.Difficulty, best)
		}
		sizes := map[raire.TrimAlgorithm]int{}
		for _, trim := range []raire.TrimAlgorithm{raire.TrimNone, raire.MinimizeTree, raire.MinimizeAssertions} {
			c.Trim = trim
			s, err := raire.Assertions(c, raire.Options{})
			if err != nil || !near(s.Difficulty, sol.Difficulty) || raire.Check(c, s) != nil {
				t.Fatalf("contest %d with %s: %v (difficulty %v, want %v)", i, trim, err, s.Difficulty, sol.Difficulty)
			}
			sizes[trim] = len(s.Assertions)
		}
		if sizes[raire.MinimizeAssertions] > sizes[raire.MinimizeTree] || sizes[raire.MinimizeTree] > sizes[raire.TrimNone] {
			t.Fatalf("contest %d: trimmed sizes %v", i, sizes)
		}
	}
	t.Logf("%d contests solved, %d tied", solved, tied)
	if solved < 150 || tied < 5 {
		t.Errorf("%d solved and %d tied: the generator no longer covers both", solved, tied)
	}
}

// TestAssertionsCatchAnotherWinner changes the ballots so another
// candidate wins (every ballot ranks that candidate first, the rest kept in
// order): at least one of the original assertions must then fail.
func TestAssertionsCatchAnotherWinner(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	checked := 0
	for i := range 300 {
		c := randomContest(r)
		sol, err := raire.Assertions(c, raire.Options{})
		if err != nil {
			continue
		}
		for other := range c.NumCandidates {
			if other == sol.Winner {
				continue
			}
			votes := make([]raire.Vote, len(c.Votes))
			for j, v := range c.Votes {
				rest := slices.DeleteFunc(slices.Clone(v.Prefs), func(p int) bool { return p == other })
				votes[j] = raire.Vote{N: v.N, Prefs: append([]int{other}, rest...)}
			}
			if !slices.ContainsFunc(sol.Assertions, func(a raire.Scored) bool { return a.MarginOn(votes) <= 0 }) {
				t.Fatalf("contest %d: with %d first on every ballot, all assertions still hold: %v", i, other, sol.Assertions)
			}
			checked++
		}
	}
	if checked < 300 {
		t.Errorf("only %d changed contests checked", checked)
	}
}

// TestTiedContests: contests symmetric between candidates 0 and 1, who
// lead everyone else, are tied between them and give no solution.
func TestTiedContests(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	swap := func(p int) int {
		switch p {
		case 0:
			return 1
		case 1:
			return 0
		}
		return p
	}
	for i := range 100 {
		c := randomContest(r)
		var total uint64
		for _, v := range slices.Clone(c.Votes) {
			mirror := raire.Vote{N: v.N}
			for _, p := range v.Prefs {
				mirror.Prefs = append(mirror.Prefs, swap(p))
			}
			c.Votes = append(c.Votes, mirror)
			total += 2 * v.N
		}
		c.Votes = append(c.Votes, raire.Vote{N: 2 * total, Prefs: []int{0}}, raire.Vote{N: 2 * total, Prefs: []int{1}})
		c.Audit = raire.Audit{Type: raire.OneOnMargin, TotalAuditableBallots: 5 * total}
		sol, err := raire.Assertions(c, raire.Options{})
		var e *raire.Error
		if !errors.As(err, &e) || e.Kind != raire.TiedWinners || sol != nil || !slices.Equal(e.Candidates, []int{0, 1}) {
			t.Fatalf("contest %d: got %v, %v; want TiedWinners [0 1]", i, sol, err)
		}
	}
}

// TestWrongWinner: a stated winner the ballots do not elect is reported
// with the real one.
func TestWrongWinner(t *testing.T) {
	c, want := readExample(t, "a_guide_to_RAIRE_eg_guide")
	wrong := (want.Winner + 1) % c.NumCandidates
	c.Winner = &wrong
	_, err := raire.Assertions(c, raire.Options{})
	var e *raire.Error
	if !errors.As(err, &e) || e.Kind != raire.WrongWinner || !slices.Equal(e.Candidates, []int{want.Winner}) {
		t.Fatalf("got %v, want WrongWinner [%d]", err, want.Winner)
	}
	t.Log(err)
}

// TestWorkLimit: a tiny work limit stops the winner check, a slightly
// larger one the search, each with its RAIRE error.
func TestWorkLimit(t *testing.T) {
	c, _ := readExample(t, "a_guide_to_RAIRE_eg_guide")
	for _, tc := range []struct {
		work int
		kind raire.ErrorKind
	}{{1, raire.TimeoutCheckingWinner}, {3, raire.TimeoutFindingAssertions}} {
		sol, err := raire.Assertions(c, raire.Options{MaxWork: tc.work})
		var e *raire.Error
		if !errors.As(err, &e) || e.Kind != tc.kind || sol != nil {
			t.Errorf("MaxWork %d: got %v, %v; want %s", tc.work, sol, err, tc.kind)
		}
		t.Log(err)
	}
}

// TestSingleCandidate: one candidate wins with nothing to assert.
func TestSingleCandidate(t *testing.T) {
	c := raire.Contest{NumCandidates: 1, Votes: []raire.Vote{{N: 3, Prefs: []int{0}}},
		Audit: raire.Audit{Type: raire.OneOnMargin, TotalAuditableBallots: 3}}
	sol, err := raire.Assertions(c, raire.Options{})
	if err != nil || sol.Winner != 0 || len(sol.Assertions) != 0 || raire.Check(c, sol) != nil {
		t.Fatalf("got %+v, %v", sol, err)
	}
}
