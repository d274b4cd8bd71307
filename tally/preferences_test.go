package tally

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestPreferencesReadsAsTheCountDoes: for random ballots, rules and sets of
// continuing candidates, a ballot's first preference among the continuing
// candidates is the candidate the count places it with (counter.place), and
// its list ends exactly where the count exhausts it; when Preferences says
// no fixed list exists, some two continuing sets disagree with every list.
func TestPreferencesReadsAsTheCountDoes(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 2026))
	const n = 5
	overvotes := []OvervoteRule{ExhaustImmediately, AlwaysSkipToNextRank, ExhaustIfMultipleContinuing}
	unfixed := 0
	for trial := range 20000 {
		c := Contest{Candidates: make([]Candidate, n)}
		for i := range c.Candidates {
			c.Candidates[i].Excluded = rng.IntN(8) == 0
		}
		r := DefaultRules()
		r.OvervoteRule = overvotes[rng.IntN(len(overvotes))]
		r.MaxSkippedRanksAllowed = []int{0, 1, 2, Unlimited}[rng.IntN(4)]
		r.ExhaustOnDuplicateCandidate = rng.IntN(2) == 0
		var marks []Mark
		rank := uint16(0)
		for range rng.IntN(7) {
			rank += uint16(1 + rng.IntN(3)*rng.IntN(2))
			for range 1 + rng.IntN(3)*rng.IntN(2) {
				cand := uint16(rng.IntN(n))
				if rng.IntN(12) == 0 {
					cand = Overvote
				}
				marks = append(marks, Mark{Rank: rank, Candidate: cand})
			}
		}
		marks = normalizeOvervoteMarks(marks)
		prefs, fixed := Preferences(nil, c, r, marks)
		if !fixed {
			unfixed++
			if r.OvervoteRule != ExhaustIfMultipleContinuing {
				t.Fatalf("trial %d: %v under %s has no fixed list", trial, marks, r.OvervoteRule)
			}
			continue
		}
		if len(marks) == 0 {
			if len(prefs) != 0 {
				t.Fatalf("an empty ballot gives %v", prefs)
			}
			continue
		}
		for s := range 1 << n {
			k := &counter{rules: r, cont: make([]bool, n)}
			for i := range n {
				k.cont[i] = s&(1<<i) != 0 && !c.Candidates[i].Excluded
			}
			got, st, _ := k.place(marks, 0, k.cont)
			want := -1
			for _, p := range prefs {
				if k.cont[p] {
					want = p
					break
				}
			}
			if st != Active {
				got = -1
			}
			if got != want {
				t.Fatalf("trial %d: marks %v, rules %s/skip %d/dup %v, continuing %05b: count places %d (%v), preferences %v give %d",
					trial, marks, r.OvervoteRule, r.MaxSkippedRanksAllowed, r.ExhaustOnDuplicateCandidate, s, got, st, prefs, want)
			}
		}
	}
	if unfixed == 0 {
		t.Error("no ballot was without a fixed list: the test does not reach that case")
	}
}

// normalizeOvervoteMarks keeps an overvote label alone at its rank, as the
// readers store it, and orders marks by rank.
func normalizeOvervoteMarks(marks []Mark) []Mark {
	var out []Mark
	for i, m := range marks {
		group := slices.ContainsFunc(marks, func(o Mark) bool { return o.Rank == m.Rank && o.Candidate == Overvote })
		if group && m.Candidate != Overvote {
			continue
		}
		if m.Candidate == Overvote && slices.ContainsFunc(marks[:i], func(o Mark) bool { return o.Rank == m.Rank && o.Candidate == Overvote }) {
			continue
		}
		out = append(out, m)
	}
	return out
}

// TestPreferences: the cases by name.
func TestPreferences(t *testing.T) {
	m := func(rank, cand uint16) Mark { return Mark{Rank: rank, Candidate: cand} }
	c := Contest{Candidates: []Candidate{{Name: "A"}, {Name: "B"}, {Name: "C"}, {Name: "X", Excluded: true}}}
	cases := []struct {
		name  string
		rules func(*Rules)
		marks []Mark
		want  []int
		fixed bool
	}{
		{"InRankOrder", nil, []Mark{m(1, 0), m(2, 1), m(3, 2)}, []int{0, 1, 2}, true},
		{"OneSkipPassedOver", nil, []Mark{m(1, 0), m(3, 1)}, []int{0, 1}, true},
		{"TwoSkipsEndIt", nil, []Mark{m(1, 0), m(4, 1)}, []int{0}, true},
		{"RepeatKeepsFirstPlace", nil, []Mark{m(1, 2), m(2, 2), m(3, 0)}, []int{2, 0}, true},
		{"RepeatEndsItWhenTheRulesSay", func(r *Rules) { r.ExhaustOnDuplicateCandidate = true }, []Mark{m(1, 2), m(2, 2), m(3, 0)}, []int{2}, true},
		{"OvervoteEndsIt", nil, []Mark{m(1, 1), m(2, 0), m(2, 2), m(3, 2)}, []int{1}, true},
		{"OvervoteSkipped", func(r *Rules) { r.OvervoteRule = AlwaysSkipToNextRank }, []Mark{m(1, 1), m(2, 0), m(2, 2), m(3, 2)}, []int{1, 2}, true},
		{"ExcludedPassedOver", nil, []Mark{m(1, 3), m(2, 2)}, []int{2}, true},
		{"OvervoteLabelEndsIt", nil, []Mark{m(1, Overvote), m(2, 0)}, nil, true},
		{"OneLiveInOvervoteCounts", func(r *Rules) { r.OvervoteRule = ExhaustIfMultipleContinuing }, []Mark{m(1, 0), m(2, 0), m(2, 1)}, []int{0, 1}, true},
		{"TwoLiveInOvervoteDependOnWhoIsLeft", func(r *Rules) { r.OvervoteRule = ExhaustIfMultipleContinuing }, []Mark{m(1, 1), m(1, 2)}, nil, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := DefaultRules()
			if tc.rules != nil {
				tc.rules(&r)
			}
			got, fixed := Preferences(nil, c, r, tc.marks)
			if fixed != tc.fixed || fixed && !slices.Equal(got, tc.want) {
				t.Errorf("Preferences = %v, %v; want %v, %v", got, fixed, tc.want, tc.fixed)
			}
		})
	}
}
