package raire

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// AssertionType is NEB or NEN, as RAIRE writes it.
type AssertionType string

// The two kinds of assertion.
const (
	// NEB: Winner is not eliminated before Loser.
	NEB AssertionType = "NEB"
	// NEN: with exactly Continuing left, Winner is not the next eliminated,
	// because Loser has fewer votes.
	NEN AssertionType = "NEN"
)

// Assertion is a claim about the ballots that an audit can test and that
// rules out some elimination orders.
type Assertion struct {
	Type   AssertionType
	Winner int
	Loser  int
	// Continuing are the candidates left (NEN only), in increasing order.
	Continuing []int
}

// Scored is an assertion with its margin and difficulty on the ballots.
type Scored struct {
	Assertion
	// Margin is WinnerTally - LoserTally, in ballots.
	Margin uint64
	// Difficulty is the audit's difficulty for this margin (Audit.Difficulty).
	Difficulty float64
	// WinnerTally and LoserTally are the two sides of the comparison: for
	// NEB the winner's first preferences and the ballots that could count
	// for the loser while the winner continues; for NEN the two tallies
	// among Continuing. They are not part of RAIRE's JSON and are zero in a
	// solution read from it.
	WinnerTally, LoserTally uint64
}

// Tallies returns the assertion's two sides counted directly from the
// votes, as defined in the RAIRE paper: for NEB, the winner's first
// preferences and the ballots ranking the loser above the winner or ranking
// the loser but not the winner; for NEN, the votes of the winner and the
// loser when each ballot counts for its first candidate in Continuing.
func (a Assertion) Tallies(votes []Vote) (winner, loser uint64) {
	for _, v := range votes {
		if a.Type == NEB {
			if len(v.Prefs) > 0 && v.Prefs[0] == a.Winner {
				winner += v.N
			}
			for _, p := range v.Prefs {
				if p == a.Winner {
					break
				}
				if p == a.Loser {
					loser += v.N
					break
				}
			}
			continue
		}
		for _, p := range v.Prefs {
			if slices.Contains(a.Continuing, p) {
				if p == a.Winner {
					winner += v.N
				} else if p == a.Loser {
					loser += v.N
				}
				break
			}
		}
	}
	return winner, loser
}

// MarginOn returns the assertion's margin counted directly from the votes:
// the winner's side minus the loser's, negative when the assertion is false.
func (a Assertion) MarginOn(votes []Vote) int64 {
	w, l := a.Tallies(votes)
	return int64(w) - int64(l)
}

// contradicts reports whether the assertion rules out every elimination
// order ending in tail (first eliminated first, the winner last).
func (a Assertion) contradicts(tail []int) bool {
	pos := func(c int) int { return slices.Index(tail, c) }
	if a.Type == NEB {
		// The loser is in the tail and the winner goes before it.
		l := pos(a.Loser)
		return l >= 0 && pos(a.Winner) < l
	}
	k := len(a.Continuing)
	if k > len(tail) {
		return false
	}
	rest := tail[len(tail)-k:]
	if rest[0] != a.Winner {
		return false
	}
	for _, c := range a.Continuing {
		if !slices.Contains(rest, c) {
			return false
		}
	}
	return true
}

// Explain says in plain words what the assertion claims and why it rules
// orders out, naming candidates from names (or by number when names lack
// them).
func (a Assertion) Explain(names []string) string { return a.explain(names, "", "") }

// Explain is the assertion's explanation with its tallies, margin and
// difficulty (the tallies only when known: not for a solution read from
// JSON).
func (s Scored) Explain(names []string) string {
	wt, lt := "", ""
	if s.WinnerTally > 0 {
		wt, lt = fmt.Sprintf(" (%d)", s.WinnerTally), fmt.Sprintf(" (%d)", s.LoserTally)
	}
	return s.explain(names, wt, lt) + fmt.Sprintf(" Margin %d ballots, difficulty %.4g.", s.Margin, s.Difficulty)
}

// explain words the assertion with the winner's and loser's tallies
// (possibly empty) after their sides.
func (a Assertion) explain(names []string, wt, lt string) string {
	w, l := CandidateName(names, a.Winner), CandidateName(names, a.Loser)
	if a.Type == NEB {
		return fmt.Sprintf("%s cannot be eliminated before %s: %s's first preferences%s outnumber the ballots that "+
			"rank %s above %s or rank %s but not %s%s, which are the most votes %s could have while %s is still in the count.",
			w, l, w, wt, l, w, l, w, lt, l, w)
	}
	return fmt.Sprintf("When only %s are left in the count, %s is not the next eliminated: counting each ballot "+
		"for its highest-ranked of these candidates, %s has more votes%s than %s%s.",
		nameList(names, a.Continuing, " and "), w, w, wt, l, lt)
}

// String returns the assertion in a short form: "NEB(2,3)", "NEN(0,3|{0,2,3})".
func (a Assertion) String() string {
	if a.Type == NEB {
		return fmt.Sprintf("NEB(%d,%d)", a.Winner, a.Loser)
	}
	parts := make([]string, len(a.Continuing))
	for i, c := range a.Continuing {
		parts[i] = fmt.Sprint(c)
	}
	return fmt.Sprintf("NEN(%d,%d|{%s})", a.Winner, a.Loser, strings.Join(parts, ","))
}

// Named is String with the candidates named from names (or by number where
// names lack them): "NEB(Alice, Bob)", "NEN(Alice, Chuan | Alice, Bob, Chuan)".
func (a Assertion) Named(names []string) string {
	w, l := CandidateName(names, a.Winner), CandidateName(names, a.Loser)
	if a.Type == NEB {
		return fmt.Sprintf("NEB(%s, %s)", w, l)
	}
	return fmt.Sprintf("NEN(%s, %s | %s)", w, l, nameList(names, a.Continuing, ", "))
}

// compareAssertions orders assertions as RAIRE lists them: NEB before NEN;
// NEB by winner then loser; NEN by the number continuing, winner, loser,
// then the continuing candidates.
func compareAssertions(a, b Assertion) int {
	if a.Type != b.Type {
		if a.Type == NEB {
			return -1
		}
		return 1
	}
	return cmp.Or(cmp.Compare(len(a.Continuing), len(b.Continuing)), cmp.Compare(a.Winner, b.Winner),
		cmp.Compare(a.Loser, b.Loser), slices.Compare(a.Continuing, b.Continuing))
}
