package raire_test

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"votedesk/tally/raire"
)

// expectedScore returns the overall difficulty and margin of RAIRE's
// expected solution. The example files predate RAIRE writing margins, and
// one lists no difficulties, so what they lack is computed from their own
// assertions' tallies (for OneOnMargin the hardest assertion is the one
// with the smallest margin).
func expectedScore(c raire.Contest, want *raire.Solution) (float64, uint64) {
	diff, margin := want.Difficulty, want.Margin
	for i, a := range want.Assertions {
		w, l := a.Tallies(c.Votes)
		if want.Difficulty == 0 {
			diff = max(diff, c.Audit.Difficulty(w, l))
		}
		if want.Margin == 0 && (i == 0 || w-l < margin) {
			margin = w - l
		}
	}
	return diff, margin
}

// TestExamples solves the worked examples of "A Guide to RAIRE" with each
// trimming algorithm: the difficulty and margin are RAIRE's, every
// assertion's numbers are right, and Check accepts the assertions.
func TestExamples(t *testing.T) {
	for _, name := range exampleNames {
		c, want := readExample(t, name)
		wantDiff, wantMargin := expectedScore(c, want)
		for _, trim := range []raire.TrimAlgorithm{"", raire.TrimNone, raire.MinimizeTree, raire.MinimizeAssertions} {
			c.Trim = trim
			sol, err := raire.Assertions(c, raire.Options{})
			if err != nil {
				t.Fatalf("%s %s: %v", name, trim, err)
			}
			if !near(sol.Difficulty, wantDiff) || sol.Margin != wantMargin {
				t.Errorf("%s %s: difficulty %v margin %d, RAIRE has %v and %d", name, trim, sol.Difficulty, sol.Margin, wantDiff, wantMargin)
			}
			if sol.Winner != want.Winner || sol.NumCandidates != c.NumCandidates {
				t.Errorf("%s %s: winner %d of %d, want %d of %d", name, trim, sol.Winner, sol.NumCandidates, want.Winner, c.NumCandidates)
			}
			for _, a := range sol.Assertions {
				if m := a.MarginOn(c.Votes); m <= 0 || uint64(m) != a.Margin {
					t.Errorf("%s %s: %v has margin %d, counted %d", name, trim, a.Assertion, a.Margin, m)
				}
				if d := c.Audit.Difficulty(a.Tallies(c.Votes)); !near(d, a.Difficulty) {
					t.Errorf("%s %s: %v has difficulty %v, counted %v", name, trim, a.Assertion, a.Difficulty, d)
				}
			}
			if err := raire.Check(c, sol); err != nil {
				t.Errorf("%s %s: %v", name, trim, err)
			}
			t.Logf("%s %s: difficulty %.6g, margin %d, %d assertions", name, trim, sol.Difficulty, sol.Margin, len(sol.Assertions))
		}
	}
}

// TestExampleDifficulties checks the difficulty formula against every
// assertion difficulty RAIRE lists in the examples.
func TestExampleDifficulties(t *testing.T) {
	for _, name := range exampleNames {
		c, want := readExample(t, name)
		for _, a := range want.Assertions {
			if a.Difficulty == 0 {
				continue
			}
			if d := c.Audit.Difficulty(a.Tallies(c.Votes)); !near(d, a.Difficulty) {
				t.Errorf("%s: %v: RAIRE's difficulty %v, formula %v", name, a.Assertion, a.Difficulty, d)
			}
		}
	}
}

// TestCheckAcceptsRAIRE checks the checker: RAIRE's own assertion sets pass
// Check, and dropping an assertion fails Check exactly when enumerating
// every elimination order finds one nothing rules out (which happens at
// least once in every example).
func TestCheckAcceptsRAIRE(t *testing.T) {
	for _, name := range exampleNames {
		c, want := readExample(t, name)
		if err := raire.Check(c, want); err != nil {
			t.Errorf("%s: RAIRE's assertions: %v", name, err)
		}
		if !bruteCovered(c.NumCandidates, want.Winner, want.Assertions) {
			t.Errorf("%s: RAIRE's assertions leave a gap by enumeration", name)
		}
		gaps := 0
		for i := range want.Assertions {
			part := *want
			part.Assertions = slices.Delete(slices.Clone(want.Assertions), i, i+1)
			err := raire.Check(c, &part)
			gap := !bruteCovered(c.NumCandidates, want.Winner, part.Assertions)
			if (err != nil) != gap {
				t.Errorf("%s without %v: Check says %v, enumeration finds a gap: %v", name, want.Assertions[i].Assertion, err, gap)
			}
			if gap {
				gaps++
			}
		}
		if gaps == 0 {
			t.Errorf("%s: no assertion of RAIRE's is needed", name)
		}
	}
}

// TestCheckRejectsFalseAssertion: an assertion that does not hold on the
// ballots fails Check even when the set rules everything out.
func TestCheckRejectsFalseAssertion(t *testing.T) {
	c, want := readExample(t, "a_guide_to_RAIRE_eg_one_candidate_dominates")
	bad := *want
	bad.Assertions = append(slices.Clone(want.Assertions), raire.Scored{Assertion: raire.Assertion{Type: raire.NEB, Winner: 1, Loser: 0}})
	err := raire.Check(c, &bad)
	if err == nil || !strings.Contains(err.Error(), "NEB(Bob, Alice) does not hold") {
		t.Errorf("Check of NEB(Bob, Alice), which is false: %v", err)
	}
	if m := raire.Message(err); !strings.HasPrefix(m, "NEB(Bob, Alice) does not hold") {
		t.Errorf("its message for a person: %q", m)
	}
	gap := *want
	gap.Assertions = want.Assertions[:0]
	if err := raire.Check(c, &gap); err == nil || !strings.Contains(err.Error(), "Diego, Chuan, Alice, then Bob (first eliminated first)") {
		t.Errorf("Check of no assertions: %v; want the order it leaves open, by name", err)
	}
	if e := (*raire.Error)(nil); !errors.As(raire.Check(c, &gap), &e) || e.Kind != raire.CouldNotRuleOut {
		t.Errorf("Check of no assertions: not RAIRE's CouldNotRuleOut")
	}
}

// TestExplain checks the plain-words explanations of the NEB example.
func TestExplain(t *testing.T) {
	c, _ := readExample(t, "a_guide_to_RAIRE_eg_NEB_assertions")
	sol, err := raire.Assertions(c, raire.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"NEB(2,3)": "Chuan cannot be eliminated before Diego: Chuan's first preferences (85) outnumber the ballots that " +
			"rank Diego above Chuan or rank Diego but not Chuan (40), which are the most votes Diego could have while " +
			"Chuan is still in the count. Margin 45 ballots, difficulty 5.",
		"NEN(2,0|{0,2})": "When only Alice and Chuan are left in the count, Chuan is not the next eliminated: counting " +
			"each ballot for its highest-ranked of these candidates, Chuan has more votes (125) than Alice (100). " +
			"Margin 25 ballots, difficulty 9.",
	}
	for _, a := range sol.Assertions {
		got := a.Explain(c.Candidates)
		t.Log(got)
		if w, ok := want[a.String()]; ok && got != w {
			t.Errorf("%v:\n got %s\nwant %s", a.Assertion, got, w)
		}
	}
}

// TestDifficultyFormulas checks each audit type's difficulty against values
// worked out by hand from the formulas in the package documentation.
func TestDifficultyFormulas(t *testing.T) {
	const n = 1000
	for _, tc := range []struct {
		audit       raire.Audit
		winner, los uint64
		want        float64
	}{
		{raire.Audit{Type: raire.OneOnMargin, TotalAuditableBallots: n}, 600, 400, 5},
		{raire.Audit{Type: raire.OneOnMarginSq, TotalAuditableBallots: n}, 600, 400, 25},
		{raire.Audit{Type: raire.MACRO, TotalAuditableBallots: n, Confidence: 0.05, ErrorInflationFactor: 1.1}, 600, 400, 32.9530550090939},
		{raire.Audit{Type: raire.BRAVO, TotalAuditableBallots: n, Confidence: 0.05}, 600, 400, 153.3059012465744},
		{raire.Audit{Type: raire.BRAVO, TotalAuditableBallots: n, Confidence: 0.05}, 10, 0, 482.1928094887362},
		{raire.Audit{Type: raire.BRAVO, TotalAuditableBallots: n, Confidence: 0.05}, 400, 400, math.Inf(1)},
		{raire.Audit{Type: raire.OneOnMargin, TotalAuditableBallots: n}, 400, 600, math.Inf(1)},
	} {
		if got := tc.audit.Difficulty(tc.winner, tc.los); !near(got, tc.want) {
			t.Errorf("%+v, %d against %d: %v, want %v", tc.audit, tc.winner, tc.los, got, tc.want)
		}
	}
}
