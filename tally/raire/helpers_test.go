package raire_test

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"votedesk/app/apptest"
	"votedesk/tally/raire"
)

// exampleNames are the worked examples of "A Guide to RAIRE" in the shared
// test data.
var exampleNames = []string{
	"a_guide_to_RAIRE_eg_NEB_assertions",
	"a_guide_to_RAIRE_eg_guide",
	"a_guide_to_RAIRE_eg_one_candidate_dominates",
	"a_guide_to_RAIRE_eg_two_leading_candidates",
	"a_guide_to_RAIRE_eg_why_not_audit_every_step",
}

// exampleDir returns the directory of the RAIRE examples, skipping the test
// when the shared test data is absent.
func exampleDir(t testing.TB) string {
	t.Helper()
	dir := filepath.Join(apptest.SharedTestdata(), "raire")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("RAIRE examples absent: %v", err)
	}
	return dir
}

// readExample reads an example's input contest and RAIRE's expected
// solution.
func readExample(t testing.TB, name string) (raire.Contest, *raire.Solution) {
	t.Helper()
	dir := exampleDir(t)
	f, err := os.Open(filepath.Join(dir, "input", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c, err := raire.ReadContest(f)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	g, err := os.Open(filepath.Join(dir, "expected", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	_, want, err := raire.ReadSolution(g)
	if err != nil {
		t.Fatalf("%s expected: %v", name, err)
	}
	return c, want
}

// ruledOut reports whether an assertion rules out a complete elimination
// order (first eliminated first), straight from the definitions: NEB(w, l)
// when w goes before l; NEN(w, l, S) when the order reaches exactly S
// continuing and eliminates w there.
func ruledOut(a raire.Assertion, order []int) bool {
	if a.Type == raire.NEB {
		return slices.Index(order, a.Winner) < slices.Index(order, a.Loser)
	}
	rest := order[len(order)-len(a.Continuing):]
	return rest[0] == a.Winner && slices.Equal(slices.Sorted(slices.Values(rest)), a.Continuing)
}

// permutations calls f with every ordering of 0..n-1 (f must not keep it).
func permutations(n int, f func([]int)) {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	var gen func(k int)
	gen = func(k int) {
		if k == n {
			f(p)
			return
		}
		for i := k; i < n; i++ {
			p[k], p[i] = p[i], p[k]
			gen(k + 1)
			p[k], p[i] = p[i], p[k]
		}
	}
	gen(0)
}

// bruteCovered reports whether the assertions rule out every complete
// elimination order whose winner is not winner, enumerating them all.
func bruteCovered(n, winner int, as []raire.Scored) bool {
	ok := true
	permutations(n, func(order []int) {
		if !ok || order[n-1] == winner {
			return
		}
		ok = slices.ContainsFunc(as, func(a raire.Scored) bool { return ruledOut(a.Assertion, order) })
	})
	return ok
}

// bruteWinners counts the election with every way of breaking elimination
// ties and returns the possible winners, in increasing order.
func bruteWinners(n int, votes []raire.Vote) []int {
	won := map[int]bool{}
	var count func(continuing []int)
	count = func(continuing []int) {
		if len(continuing) == 1 {
			won[continuing[0]] = true
			return
		}
		tally := map[int]uint64{}
		for _, v := range votes {
			for _, p := range v.Prefs {
				if slices.Contains(continuing, p) {
					tally[p] += v.N
					break
				}
			}
		}
		least := uint64(math.MaxUint64)
		for _, c := range continuing {
			least = min(least, tally[c])
		}
		for i, c := range continuing {
			if tally[c] == least {
				count(slices.Delete(slices.Clone(continuing), i, i+1))
			}
		}
	}
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	count(all)
	var out []int
	for c := range n {
		if won[c] {
			out = append(out, c)
		}
	}
	return out
}

// bruteDifficulty is the least difficulty any set of NEB and NEN
// assertions can have for the contest: the maximum, over the orders with
// another winner, of the easiest assertion ruling the order out.
func bruteDifficulty(c raire.Contest, winner int) float64 {
	n := c.NumCandidates
	hardest := 0.0
	permutations(n, func(order []int) {
		if order[n-1] == winner {
			return
		}
		easiest := math.Inf(1)
		try := func(a raire.Assertion) {
			if ruledOut(a, order) {
				easiest = min(easiest, c.Audit.Difficulty(a.Tallies(c.Votes)))
			}
		}
		for w := range n {
			for l := range n {
				if w != l {
					try(raire.Assertion{Type: raire.NEB, Winner: w, Loser: l})
				}
			}
		}
		for k := 2; k <= n; k++ {
			s := slices.Sorted(slices.Values(order[n-k:]))
			for _, l := range s {
				if l != order[n-k] {
					try(raire.Assertion{Type: raire.NEN, Winner: order[n-k], Loser: l, Continuing: s})
				}
			}
		}
		hardest = max(hardest, easiest)
	})
	return hardest
}

// near reports whether two difficulties agree to within rounding.
func near(a, b float64) bool {
	return a == b || math.Abs(a-b) <= 1e-9*math.Max(math.Abs(a), math.Abs(b))
}
