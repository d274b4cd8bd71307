package raire

import (
	"math/bits"
	"time"
)

// budget counts the steps of one stage against the work and time limits.
type budget struct {
	used, limit int
	deadline    time.Time // zero: none
	start       time.Time
}

// newBudget starts a stage that must end by the deadline (zero: none).
func newBudget(limit int, deadline time.Time) *budget {
	return &budget{limit: limit, start: time.Now(), deadline: deadline}
}

// step counts one step and reports whether the limits allow it.
func (b *budget) step() bool {
	b.used++
	if b.used > b.limit {
		return false
	}
	return b.deadline.IsZero() || b.used%256 != 0 || time.Now().Before(b.deadline)
}

// spent reports the stage's work and time.
func (b *budget) spent() Work {
	return Work{Work: b.used, Seconds: time.Since(b.start).Seconds()}
}

// winners returns the set of candidates who win the IRV count of b under
// some way of breaking elimination ties: each round every ballot counts for
// its first continuing candidate and a candidate with the fewest votes is
// eliminated. It fails with TimeoutCheckingWinner when the budget runs out.
func winners(b *ballots, work *budget) (set, error) {
	memo := map[set]set{}
	var from func(s set) (set, error)
	from = func(s set) (set, error) {
		if bits.OnesCount64(s) == 1 {
			return s, nil
		}
		if w, ok := memo[s]; ok {
			return w, nil
		}
		if !work.step() {
			return 0, &Error{Kind: TimeoutCheckingWinner}
		}
		t := b.tallies(s)
		least := ^uint64(0)
		for c := range b.n {
			if s&(1<<c) != 0 {
				least = min(least, t[c])
			}
		}
		var w set
		for c := range b.n {
			if s&(1<<c) != 0 && t[c] == least {
				got, err := from(s &^ (1 << c))
				if err != nil {
					return 0, err
				}
				w |= got
			}
		}
		memo[s] = w
		return w, nil
	}
	return from(1<<b.n - 1)
}
