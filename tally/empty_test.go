package tally

import (
	"errors"
	"strings"
	"testing"
)

// TestNoBallotsElectsNobody: a contest with no ballots is not decided by a
// tie-break among candidates with no votes, under any method.
func TestNoBallotsElectsNobody(t *testing.T) {
	c := Contest{Name: "Z", Candidates: []Candidate{{Name: "A"}, {Name: "B"}, {Name: "C"}}}
	for _, m := range Methods {
		for _, b := range []*BallotSet{nil, {}} {
			res, err := Tabulate(c, b, m, DefaultRules())
			if !errors.Is(err, ErrNoBallots) {
				t.Errorf("%s of no ballots: %+v, %v; want ErrNoBallots", m, res.Winners, err)
			}
		}
	}
}

// TestDegenerateContests: a count where no ballot gives a candidate a vote,
// every candidate is excluded, or fewer candidates stand than seats gets a
// plain answer naming why, never a winner drawn by lot.
func TestDegenerateContests(t *testing.T) {
	abc := Contest{Name: "Z", Candidates: []Candidate{{Name: "A"}, {Name: "B"}, {Name: "C", Excluded: true}}}
	set := func(ballots ...[]Mark) *BallotSet {
		b := &BallotSet{}
		for _, m := range ballots {
			if err := b.Add("", 1, m); err != nil {
				t.Fatal(err)
			}
		}
		return b
	}
	blank := set(nil, []Mark{{Rank: 1, Candidate: Overvote}}, []Mark{{Rank: 1, Candidate: 2}})
	for _, m := range Methods {
		r := DefaultRules()
		if m == STV {
			r.WinnerElectionMode, r.NumberOfWinners = MultiWinnerAllowMultipleWinnersPerRound, 2
		}
		if res, err := Tabulate(abc, blank, m, r); !errors.Is(err, ErrNoVotes) {
			t.Errorf("%s of blank, overvoted and excluded-only ballots: winners %v, %v; want ErrNoVotes", m, res.Winners, err)
		}
	}
	// Every ballot overvoted at its first rank, under a rule that exhausts
	// it there: no vote in round 1.
	over := set([]Mark{{Rank: 1, Candidate: 0}, {Rank: 1, Candidate: 1}}, []Mark{{Rank: 1, Candidate: 1}, {Rank: 1, Candidate: 0}})
	r := DefaultRules()
	r.OvervoteRule = ExhaustImmediately
	if res, err := Tabulate(abc, over, IRV, r); !errors.Is(err, ErrNoVotes) {
		t.Errorf("IRV of overvoted ballots that exhaust: winners %v, %v; want ErrNoVotes", res.Winners, err)
	}
	// A ballot with a vote is counted as usual.
	if res, err := Tabulate(abc, set([]Mark{{Rank: 1, Candidate: 1}}), IRV, DefaultRules()); err != nil || len(res.Winners) != 1 || res.Winners[0] != 1 {
		t.Errorf("IRV of one vote for B: %v, %v", res.Winners, err)
	}
	allOut := Contest{Name: "Z", Candidates: []Candidate{{Name: "A", Excluded: true}, {Name: "B", Excluded: true}}}
	if _, err := Tabulate(allOut, set([]Mark{{Rank: 1, Candidate: 0}}), IRV, DefaultRules()); err == nil || !strings.Contains(err.Error(), "every declared candidate is excluded") {
		t.Errorf("all candidates excluded: %v", err)
	}
	seats := DefaultRules()
	seats.WinnerElectionMode = MultiWinnerAllowMultipleWinnersPerRound
	seats.NumberOfWinners = 3
	if res, err := Tabulate(abc, set([]Mark{{Rank: 1, Candidate: 0}}, []Mark{{Rank: 1, Candidate: 1}}), STV, seats); err == nil || !strings.Contains(err.Error(), "seats") {
		t.Errorf("3 seats, 2 candidates standing: winners %v, %v; want an error about the seats", res.Winners, err)
	}
}
