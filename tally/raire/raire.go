package raire

import (
	"math/bits"
	"slices"
	"time"
)

// Solution is a set of assertions that together rule out every
// elimination order in which someone other than Winner wins.
type Solution struct {
	Assertions []Scored
	// Difficulty is the hardest assertion's difficulty: the least any set
	// of NEB and NEN assertions can achieve for this contest.
	Difficulty float64
	// Margin is the smallest assertion margin, in ballots.
	Margin        uint64
	Winner        int
	NumCandidates int
	// WarningTrimTimedOut is set when trimming ran out of work: the
	// assertions are sufficient but some may be redundant.
	WarningTrimTimedOut bool
	// The work and time of each stage.
	TimeToDetermineWinners Work
	TimeToFindAssertions   Work
	TimeToTrimAssertions   Work
}

// Work is the steps and seconds a stage took.
type Work struct {
	Work    int
	Seconds float64
}

// Assertions finds RAIRE assertions for the contest: it counts the
// election (with every way of breaking ties), checks the stated winner,
// searches for the assertion set whose hardest assertion is easiest, and
// trims it with c.Trim. Failures are an *Error (or a *FieldError for bad
// input, wrapping an *Error when RAIRE has a name for it).
func Assertions(c Contest, opt Options) (*Solution, error) {
	if err := c.validate(); err != nil {
		return nil, err
	}
	limit := opt.MaxWork
	if limit <= 0 {
		limit = DefaultMaxWork
	}
	var deadline time.Time
	if c.TimeLimit > 0 {
		deadline = time.Now().Add(c.TimeLimit)
	}
	b := newBallots(c.NumCandidates, c.Votes)
	sol := &Solution{NumCandidates: c.NumCandidates}

	work := newBudget(limit, deadline)
	won, err := winners(b, work)
	sol.TimeToDetermineWinners = work.spent()
	if err != nil {
		return nil, err
	}
	if bits.OnesCount64(won) > 1 {
		return nil, &Error{Kind: TiedWinners, Candidates: members(won), Names: c.Candidates}
	}
	sol.Winner = bits.TrailingZeros64(won)
	if c.Winner != nil && *c.Winner != sol.Winner {
		return nil, &Error{Kind: WrongWinner, Candidates: []int{sol.Winner}, Names: c.Candidates}
	}

	work = newBudget(limit, deadline)
	picks, err := search(b, c.Audit, sol.Winner, work)
	sol.TimeToFindAssertions = work.spent()
	if err != nil {
		if e, ok := err.(*Error); ok {
			e.Names = c.Candidates
		}
		return nil, err
	}

	work = newBudget(limit, deadline)
	picks, done := trim(c.NumCandidates, sol.Winner, picks, c.Trim, work)
	sol.TimeToTrimAssertions = work.spent()
	sol.WarningTrimTimedOut = !done

	for i := range picks {
		s := picks[i].scored()
		sol.Assertions = append(sol.Assertions, s)
		sol.Difficulty = max(sol.Difficulty, s.Difficulty)
		if i == 0 || s.Margin < sol.Margin {
			sol.Margin = s.Margin
		}
	}
	slices.SortFunc(sol.Assertions, func(a, b Scored) int { return compareAssertions(a.Assertion, b.Assertion) })
	return sol, nil
}
