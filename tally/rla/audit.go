package rla

import (
	"fmt"
	"math"
	"slices"

	"votedesk/tally/raire"
)

// The outcomes of a comparison draw, by the overstatement ω = A(CVR) -
// A(paper): none, one-vote and two-vote overstatements (ω = 1/2, 1), one-
// and two-vote understatements (ω = -1/2, -1).
const (
	clean = iota
	over1
	over2
	under1
	under2
)

// The outcomes of a polling draw, by the paper's assorter value.
const (
	forWinner = iota // 1
	neither          // 1/2
	forLoser         // 0
)

// The shrinkage weights, in draws: how strongly the bets lean on what was
// expected before the sample (ALPHA's d). 100 is rlauxe's default for
// polling (rlauxe is a port of SHANGRLA); comparison's planning rates use
// the same weight.
const (
	pollingD    = 100
	comparisonD = 100
)

// Audit is one contest's risk-limiting audit, set up once from the
// reported ballots: it measures the risk after the sampled ballots are
// read, and estimates how many to draw.
type Audit struct {
	kind       Kind
	alpha      float64
	ballots    int // in the manifest
	assertions []assertionAudit
}

// assertionAudit is how one assertion is tested.
type assertionAudit struct {
	a      raire.Assertion
	margin float64   // the reported diluted margin v
	x      []float64 // each outcome's value
	rule   betRule
}

// NewAudit sets up the audit of a contest: its kind, the risk limit alpha
// (strictly between 0 and 1), RAIRE's assertions, the reported ballots
// (the cast vote records, aggregated) and the number of ballots in the
// manifest, at least the reported ones: the difference are phantoms,
// ballots with no record, treated as SHANGRLA does (see the package
// documentation). It refuses an unknown kind, a bad risk limit, no
// assertions, a malformed assertion, more reported ballots than the
// manifest holds, and an assertion the reported ballots do not support
// (a margin that is not positive).
func NewAudit(kind Kind, riskLimit float64, assertions []raire.Assertion, reported []raire.Vote, manifestBallots int) (*Audit, error) {
	if kind != Comparison && kind != Polling {
		return nil, errorf("%q is not an audit kind (%s or %s)", kind, Comparison, Polling)
	}
	if !(riskLimit > 0 && riskLimit < 1) {
		return nil, errorf("the risk limit %v is not strictly between 0 and 1 (0.05 for 5%%)", riskLimit)
	}
	if len(assertions) == 0 {
		return nil, errorf("there are no assertions to audit")
	}
	if manifestBallots <= 0 || manifestBallots > MaxBallots {
		return nil, errorf("the manifest's %d ballots are not between 1 and %d", manifestBallots, MaxBallots)
	}
	var total uint64
	for _, v := range reported {
		if total += v.N; total < v.N || total > uint64(manifestBallots) {
			return nil, errorf("there are more cast vote records than the manifest's %d ballots", manifestBallots)
		}
	}
	au := &Audit{kind: kind, alpha: riskLimit, ballots: manifestBallots}
	for i, a := range assertions {
		if msg := malformed(a); msg != "" {
			return nil, errorf("assertion %d (%s): %s", i+1, describe(a), msg)
		}
		w, l := a.Tallies(reported)
		if w <= l {
			return nil, errorf("assertion %d (%v) is not supported by the reported ballots: the winner has %d and the loser %d",
				i+1, a, w, l)
		}
		a.Continuing = slices.Clone(a.Continuing)
		au.assertions = append(au.assertions, au.setUp(a, w, l))
	}
	return au, nil
}

// setUp works out an assertion's test from its reported tallies: the
// winner's w ballots, the loser's l, out of the manifest's ballots.
func (au *Audit) setUp(a raire.Assertion, w, l uint64) assertionAudit {
	n := float64(au.ballots)
	v := (float64(w) - float64(l)) / n
	if au.kind == Polling {
		eta0 := (1 + v) / 2 // the reported assorter mean, phantoms at 1/2
		shares := []float64{float64(w) / n, max(0, 1-float64(w)/n-float64(l)/n), float64(l) / n}
		return assertionAudit{a: a, margin: v, x: []float64{1, 0.5, 0},
			rule: shrinkTrunc{eta0: eta0, d: pollingD, c: (eta0 - mu) / 2, u: 1, prior: shares}}
	}
	b := 1 / (2 - v) // the overstatement assorter with no discrepancy
	prior := planningRates(Expect{})
	return assertionAudit{a: a, margin: v, x: []float64{b, b / 2, 0, 1.5 * b, 2 * b},
		rule: kelly{prior: prior[:], d: comparisonD}}
}

// describe names an assertion as RAIRE writes it, or by its parts when its
// type is not RAIRE's.
func describe(a raire.Assertion) string {
	if a.Type == raire.NEB || a.Type == raire.NEN {
		return a.String()
	}
	return fmt.Sprintf("type %q, winner %d, loser %d", a.Type, a.Winner, a.Loser)
}

// malformed says what is wrong with an assertion's form, or "".
func malformed(a raire.Assertion) string {
	switch {
	case a.Type != raire.NEB && a.Type != raire.NEN:
		return "its type is not NEB or NEN"
	case a.Winner < 0 || a.Loser < 0:
		return "a candidate number is negative"
	case a.Winner == a.Loser:
		return "its winner is its loser"
	case a.Type == raire.NEN && !(slices.Contains(a.Continuing, a.Winner) && slices.Contains(a.Continuing, a.Loser)):
		return "its winner and loser are not both continuing"
	}
	return ""
}

// Expect is the discrepancy rates a comparison audit plans for, each the
// expected fraction of sampled ballots: one- and two-vote overstatements
// (O1, O2) and understatements (U1, U2). The zero Expect means
// DefaultExpect. Polling audits do not use it.
type Expect struct {
	O1, O2, U1, U2 float64
}

// DefaultExpect is the planning rates of SHANGRLA's Audit: one ballot in a
// thousand a one-vote overstatement, one in ten thousand a two-vote one,
// and no understatements (which only help).
var DefaultExpect = Expect{O1: 0.001, O2: 0.0001}

// planningRates returns the comparison outcome shares for e (DefaultExpect
// when e is zero): each rate kept between 0 and 1 (NaN taken as 0), scaled
// down to sum to 1 if they sum to more, the rest no discrepancy.
func planningRates(e Expect) [maxOutcomes]float64 {
	if e == (Expect{}) {
		e = DefaultExpect
	}
	var p [maxOutcomes]float64
	p[over1], p[over2], p[under1], p[under2] = e.O1, e.O2, e.U1, e.U2
	sum := 0.0
	for k := over1; k <= under2; k++ {
		if math.IsNaN(p[k]) {
			p[k] = 0
		}
		p[k] = min(max(p[k], 0), 1)
		sum += p[k]
	}
	if sum > 1 {
		for k := range p {
			p[k] /= sum
		}
		sum = 1
	}
	p[clean] = 1 - sum
	return p
}
