package raire

import (
	"fmt"
	"slices"
)

// Check verifies a solution against the contest on its own terms, without
// the search's data structures: every assertion holds on the ballots
// (its margin, counted directly, is positive), and every elimination order
// whose last candidate is not sol.Winner is contradicted by at least one
// assertion. It walks the tails of elimination orders, which covers every
// order: a tail that an assertion contradicts rules out all orders ending
// in it. An error names the false assertion or an order nothing rules out,
// with the contest's candidate names.
func Check(c Contest, sol *Solution) error {
	if err := c.validate(); err != nil {
		return err
	}
	n := c.NumCandidates
	names := c.Candidates
	if sol == nil || sol.Winner < 0 || sol.Winner >= n {
		return checkErrorf("no solution, or its winner is not one of the %d candidates", n)
	}
	for _, a := range sol.Assertions {
		if a.Winner < 0 || a.Winner >= n || a.Loser < 0 || a.Loser >= n || a.Winner == a.Loser {
			return checkErrorf("%v: its winner and loser must be two of candidates 0..%d", a.Named(names), n-1)
		}
		switch a.Type {
		case NEB:
		case NEN:
			if !increasing(a.Continuing, n) || !slices.Contains(a.Continuing, a.Winner) || !slices.Contains(a.Continuing, a.Loser) {
				return checkErrorf("%v: continuing must be distinct candidates in increasing order, "+
					"the winner and loser among them", a.Named(names))
			}
		default:
			return checkErrorf("assertion type %q is not NEB or NEN", a.Type)
		}
		if m := a.MarginOn(c.Votes); m <= 0 {
			return checkErrorf("%v does not hold: margin %d", a.Named(names), m)
		}
	}
	// An assertion that rules out a tail but not the tail without its first
	// candidate x must be NEB(w, x) or NEN(x, l, tail), so each tail of the
	// walk (which stops at the first tail ruled out) needs only the
	// assertions about x: NEB by loser, NEN by winner.
	about := make([][]Assertion, n)
	for _, a := range sol.Assertions {
		x := a.Loser
		if a.Type == NEN {
			x = a.Winner
		}
		about[x] = append(about[x], a.Assertion)
	}
	tail := make([]int, 0, n)
	var walk func() error
	walk = func() error {
		for _, a := range about[tail[0]] {
			if a.contradicts(tail) {
				return nil
			}
		}
		if len(tail) == n {
			return &Error{Kind: CouldNotRuleOut, Candidates: slices.Clone(tail), Names: names}
		}
		for x := range n {
			if !slices.Contains(tail, x) {
				tail = slices.Insert(tail, 0, x)
				err := walk()
				tail = slices.Delete(tail, 0, 1)
				if err != nil {
					return err
				}
			}
		}
		return nil
	}
	for x := range n {
		if x != sol.Winner {
			tail = append(tail[:0], x)
			if err := walk(); err != nil {
				return err
			}
		}
	}
	return nil
}

// increasing reports whether cs are candidates of 0..n-1 in strictly
// increasing order.
func increasing(cs []int, n int) bool {
	for i, c := range cs {
		if c < 0 || c >= n || i > 0 && c <= cs[i-1] {
			return false
		}
	}
	return true
}

// checkErrorf is a *CheckError formatted as fmt.Sprintf formats.
func checkErrorf(format string, a ...any) error {
	return &CheckError{Msg: fmt.Sprintf(format, a...)}
}
