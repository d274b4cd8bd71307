package raire

import (
	"encoding/json"
	"fmt"
	"math"
	"time"
)

// MaxCandidates is the most candidates a contest may have: the search keeps
// sets of candidates as bits of a uint64.
const MaxCandidates = 64

// Vote is N identical ballots ranking the candidates Prefs, most preferred
// first. Prefs are candidate indexes, each at most once; an empty list is a
// ballot that counts for no one.
type Vote struct {
	N     uint64
	Prefs []int
}

// AuditType is how an assertion's difficulty is estimated; the names are
// RAIRE's.
type AuditType string

// The audit types. See the package documentation for the formulas.
const (
	// OneOnMargin is a ballot-level comparison audit: difficulty is one over
	// the diluted margin.
	OneOnMargin AuditType = "OneOnMargin"
	// OneOnMarginSq is one over the diluted margin squared, a rough measure
	// for ballot polling.
	OneOnMarginSq AuditType = "OneOnMarginSq"
	// BRAVO is a ballot-polling audit: difficulty is BRAVO's expected sample
	// size.
	BRAVO AuditType = "BRAVO"
	// MACRO is a ballot-level comparison audit: difficulty is MACRO's
	// expected sample size with no errors found.
	MACRO AuditType = "MACRO"
)

// Audit says how difficulties are computed.
type Audit struct {
	Type AuditType
	// TotalAuditableBallots is the number of ballots the audit samples from
	// (at least the number of votes): margins are diluted by it.
	TotalAuditableBallots uint64
	// Confidence is the risk limit α, between 0 and 1 (BRAVO and MACRO).
	Confidence float64
	// ErrorInflationFactor is MACRO's γ, at least 1.
	ErrorInflationFactor float64
}

// Difficulty returns the difficulty of an assertion whose winner has
// winner votes and whose loser has loser votes: +Inf when the winner does
// not have more.
func (a Audit) Difficulty(winner, loser uint64) float64 {
	if winner <= loser {
		return math.Inf(1)
	}
	total := float64(a.TotalAuditableBallots)
	margin := float64(winner - loser)
	switch a.Type {
	case OneOnMarginSq:
		return (total / margin) * (total / margin)
	case BRAVO:
		w, l := float64(winner), float64(loser)
		s := w / (w + l)
		perBallot := w * math.Log(2*s)
		if loser > 0 {
			perBallot += l * math.Log(2-2*s)
		}
		return (math.Log(1/a.Confidence) + 0.5*math.Log(2*s)) / (perBallot / total)
	case MACRO:
		return 2 * a.ErrorInflationFactor * total * math.Log(1/a.Confidence) / margin
	}
	return total / margin
}

// TrimAlgorithm is how redundant assertions are removed after the search;
// the names are RAIRE's.
type TrimAlgorithm string

// The trimming algorithms. The empty TrimAlgorithm means MinimizeTree,
// RAIRE's default.
const (
	// TrimNone keeps every assertion the search found.
	TrimNone TrimAlgorithm = "None"
	// MinimizeTree keeps the fewest assertions that still rule out every
	// alternative at the node of the elimination tree where the first
	// assertion applies, so the tree an official checks is the smallest.
	MinimizeTree TrimAlgorithm = "MinimizeTree"
	// MinimizeAssertions then drops every assertion whose work deeper
	// assertions can do, at the cost of a bigger tree.
	MinimizeAssertions TrimAlgorithm = "MinimizeAssertions"
)

// Contest is an IRV contest to find assertions for.
type Contest struct {
	// Candidates are the candidates' names, for explanations and messages;
	// may be nil.
	Candidates    []string
	NumCandidates int
	Votes         []Vote
	// Winner is the reported winner, checked against the ballots; nil
	// skips the check.
	Winner *int
	Audit  Audit
	Trim   TrimAlgorithm
	// TimeLimit bounds the time Assertions takes; 0 means none.
	TimeLimit time.Duration
	// Metadata is the JSON input's metadata, kept to be written back.
	Metadata json.RawMessage
}

// Options limits the work Assertions does.
type Options struct {
	// MaxWork is the most steps each stage may take: elimination states
	// when checking the winner, nodes taken from the queue when searching,
	// tree nodes when trimming. 0 means DefaultMaxWork.
	MaxWork int
}

// DefaultMaxWork is the work limit when Options.MaxWork is 0.
const DefaultMaxWork = 10_000_000

// validate checks the contest's numbers, naming the first bad field.
func (c *Contest) validate() error {
	n := c.NumCandidates
	if n < 1 || n > MaxCandidates {
		return &FieldError{Field: "num_candidates", Msg: fmt.Sprintf("%d is not between 1 and %d", n, MaxCandidates),
			Err: &Error{Kind: InvalidNumberOfCandidates}}
	}
	if c.Candidates != nil && len(c.Candidates) != n {
		return &FieldError{Field: "metadata.candidates", Msg: fmt.Sprintf("%d names for %d candidates", len(c.Candidates), n)}
	}
	var total uint64
	for i, v := range c.Votes {
		var seen uint64
		for j, p := range v.Prefs {
			if p < 0 || p >= n {
				return &FieldError{Field: fmt.Sprintf("votes[%d].prefs[%d]", i, j), Msg: fmt.Sprintf("candidate %d is not between 0 and %d", p, n-1),
					Err: &Error{Kind: InvalidCandidateNumber}}
			}
			if seen&(1<<p) != 0 {
				return &FieldError{Field: fmt.Sprintf("votes[%d].prefs[%d]", i, j), Msg: fmt.Sprintf("candidate %d is ranked twice", p)}
			}
			seen |= 1 << p
		}
		if total+v.N < total {
			return &FieldError{Field: fmt.Sprintf("votes[%d].n", i), Msg: "the total number of votes overflows"}
		}
		total += v.N
	}
	if c.Winner != nil && (*c.Winner < 0 || *c.Winner >= n) {
		return &FieldError{Field: "winner", Msg: fmt.Sprintf("candidate %d is not between 0 and %d", *c.Winner, n-1),
			Err: &Error{Kind: InvalidCandidateNumber}}
	}
	if c.TimeLimit < 0 {
		return &FieldError{Field: "time_limit_seconds", Msg: "must be positive", Err: &Error{Kind: InvalidTimeout}}
	}
	return c.Audit.validate(total)
}

// validate checks the audit's parameters against the number of votes.
func (a Audit) validate(votes uint64) error {
	switch a.Type {
	case OneOnMargin, OneOnMarginSq, BRAVO, MACRO:
	default:
		return &FieldError{Field: "audit.type", Msg: fmt.Sprintf("%q is not OneOnMargin, OneOnMarginSq, BRAVO or MACRO", a.Type)}
	}
	if a.TotalAuditableBallots == 0 || a.TotalAuditableBallots < votes {
		return &FieldError{Field: "audit.total_auditable_ballots",
			Msg: fmt.Sprintf("%d is less than the %d votes (or zero)", a.TotalAuditableBallots, votes)}
	}
	if (a.Type == BRAVO || a.Type == MACRO) && !(a.Confidence > 0 && a.Confidence < 1) {
		return &FieldError{Field: "audit.confidence", Msg: fmt.Sprintf("the risk limit %g is not strictly between 0 and 1", a.Confidence)}
	}
	if a.Type == MACRO && !(a.ErrorInflationFactor >= 1 && !math.IsInf(a.ErrorInflationFactor, 1)) {
		return &FieldError{Field: "audit.error_inflation_factor", Msg: fmt.Sprintf("%g is not a number of at least 1", a.ErrorInflationFactor)}
	}
	return nil
}
