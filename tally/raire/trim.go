package raire

import (
	"cmp"
	"errors"
	"slices"
)

// errTrimBudget stops a tree walk when the trimming budget runs out.
var errTrimBudget = errors.New("trimming budget exhausted")

// tree walks the tree of elimination-order tails that end with a candidate
// other than the winner: the roots are the lone alternative winners and a
// node's children put one more candidate in front. A walk stops at the
// first node an assertion rules out.
type tree struct {
	n, winner int
	picks     []pick
	byLoser   [][]int             // NEB assertions by loser
	byState   map[[2]uint64][]int // NEN assertions by continuing set and winner
	work      *budget
}

// newTree indexes the assertions for walking.
func newTree(n, winner int, picks []pick, work *budget) *tree {
	t := &tree{n: n, winner: winner, picks: picks, byLoser: make([][]int, n), byState: map[[2]uint64][]int{}, work: work}
	for i, p := range picks {
		if p.neb {
			t.byLoser[p.l] = append(t.byLoser[p.l], i)
		} else {
			k := [2]uint64{p.s, uint64(p.w)}
			t.byState[k] = append(t.byState[k], i)
		}
	}
	return t
}

// walk visits the tree using the assertions marked active, calling leaf
// at each node some of them rule out, with those assertions. It reports
// false if it reaches a complete order none rules out.
func (t *tree) walk(active []bool, leaf func(pruners []int)) (bool, error) {
	var pruners []int
	var visit func(first int, mask set) (bool, error)
	visit = func(first int, mask set) (bool, error) {
		if !t.work.step() {
			return false, errTrimBudget
		}
		pruners = pruners[:0]
		// The assertions that apply once first is eliminated with the rest of
		// the tail continuing: NEB(w, first) for w eliminated before it, and
		// NEN(first, l, mask).
		for _, i := range t.byLoser[first] {
			if active[i] && mask&(1<<t.picks[i].w) == 0 {
				pruners = append(pruners, i)
			}
		}
		for _, i := range t.byState[[2]uint64{mask, uint64(first)}] {
			if active[i] {
				pruners = append(pruners, i)
			}
		}
		if len(pruners) > 0 {
			if leaf != nil {
				leaf(pruners)
			}
			return true, nil
		}
		if mask == 1<<t.n-1 {
			return false, nil
		}
		for c := range t.n {
			if mask&(1<<c) == 0 {
				if ok, err := visit(c, mask|1<<c); !ok || err != nil {
					return ok, err
				}
			}
		}
		return true, nil
	}
	for c := range t.n {
		if c != t.winner {
			if ok, err := visit(c, 1<<c); !ok || err != nil {
				return ok, err
			}
		}
	}
	return true, nil
}

// trim removes redundant assertions (see TrimAlgorithm). It reports false
// when the budget ran out first; the assertions it returns then still rule
// out every alternative, but some may be redundant.
func trim(n, winner int, picks []pick, algo TrimAlgorithm, work *budget) ([]pick, bool) {
	if algo == TrimNone {
		return picks, true
	}
	t := newTree(n, winner, picks, work)
	all := make([]bool, len(picks))
	for i := range all {
		all[i] = true
	}
	var needs [][]int
	if _, err := t.walk(all, func(p []int) { needs = append(needs, slices.Clone(p)) }); err != nil {
		return picks, false
	}
	keep := cover(picks, needs)
	if algo == MinimizeAssertions {
		// Try dropping each kept assertion, hardest first, keeping the drop
		// when the others still rule out every alternative deeper down.
		order := make([]int, 0, len(picks))
		for i, k := range keep {
			if k {
				order = append(order, i)
			}
		}
		slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(picks[b].diff, picks[a].diff) })
		for _, i := range order {
			keep[i] = false
			ok, err := t.walk(keep, nil)
			if err != nil {
				keep[i] = true
				return kept(picks, keep), false
			}
			keep[i] = !ok
		}
	}
	return kept(picks, keep), true
}

// cover chooses few assertions such that every need (a node of the tree
// and the assertions that rule it out) has one: those that are some node's
// only choice, then greedily the one meeting most unmet needs (the easier
// on a tie), then dropping, hardest first, any whose needs all have
// another.
func cover(picks []pick, needs [][]int) []bool {
	keep := make([]bool, len(picks))
	needsOf := make([][]int, len(picks)) // the needs each assertion meets
	for j, need := range needs {
		for _, i := range need {
			needsOf[i] = append(needsOf[i], j)
		}
	}
	met := make([]int, len(needs))  // how many kept assertions meet each need
	gain := make([]int, len(picks)) // how many unmet needs each would meet
	for i := range picks {
		gain[i] = len(needsOf[i])
	}
	add := func(i int) {
		keep[i] = true
		for _, j := range needsOf[i] {
			if met[j] == 0 {
				for _, k := range needs[j] {
					gain[k]--
				}
			}
			met[j]++
		}
	}
	for _, need := range needs {
		if len(need) == 1 && !keep[need[0]] {
			add(need[0])
		}
	}
	for {
		best := -1
		for i, g := range gain {
			if !keep[i] && g > 0 && (best < 0 || g > gain[best] || g == gain[best] && picks[i].diff < picks[best].diff) {
				best = i
			}
		}
		if best < 0 {
			break
		}
		add(best)
	}
	order := make([]int, 0, len(picks))
	for i := range picks {
		if keep[i] {
			order = append(order, i)
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(picks[b].diff, picks[a].diff) })
	for _, i := range order {
		if !slices.ContainsFunc(needsOf[i], func(j int) bool { return met[j] < 2 }) {
			keep[i] = false
			for _, j := range needsOf[i] {
				met[j]--
			}
		}
	}
	return keep
}

// kept returns the picks that keep marks.
func kept(picks []pick, keep []bool) []pick {
	var out []pick
	for i, p := range picks {
		if keep[i] {
			out = append(out, p)
		}
	}
	return out
}
