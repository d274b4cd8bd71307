package tally

import (
	"errors"
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
