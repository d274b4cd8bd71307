package raire

import (
	"errors"
	"fmt"
	"strings"
)

// ErrorKind names a failure the way RAIRE's JSON output names it (the
// variants of raire-rs's RaireError), so a caller can switch on it and
// WriteSolution can write it unchanged.
type ErrorKind string

// The kinds of Error, with RAIRE's names.
const (
	// InvalidNumberOfCandidates: there must be at least one candidate (and,
	// here, at most MaxCandidates).
	InvalidNumberOfCandidates ErrorKind = "InvalidNumberOfCandidates"
	// InvalidCandidateNumber: a ballot or the winner names a candidate index
	// outside 0..num_candidates-1.
	InvalidCandidateNumber ErrorKind = "InvalidCandidateNumber"
	// InvalidTimeout: the time limit is not a positive number of seconds.
	InvalidTimeout ErrorKind = "InvalidTimeout"
	// TiedWinners: breaking elimination ties differently gives different
	// winners (Error.Candidates lists them); no audit can confirm a tie.
	TiedWinners ErrorKind = "TiedWinners"
	// WrongWinner: the stated winner is not the IRV winner of the ballots
	// (Error.Candidates holds the real winner).
	WrongWinner ErrorKind = "WrongWinner"
	// CouldNotRuleOut: no assertion contradicts an elimination order with
	// another winner (Error.Candidates, first eliminated first).
	CouldNotRuleOut ErrorKind = "CouldNotRuleOut"
	// TimeoutCheckingWinner: the work limit ran out while counting the
	// election with every way of breaking ties.
	TimeoutCheckingWinner ErrorKind = "TimeoutCheckingWinner"
	// TimeoutFindingAssertions: the work limit ran out during the search
	// (Error.Difficulty is the lower bound reached).
	TimeoutFindingAssertions ErrorKind = "TimeoutFindingAssertions"
)

// Error is a failure of Assertions, with RAIRE's name for it. Use
// errors.As to get it from an error.
type Error struct {
	Kind ErrorKind
	// Candidates are the tied winners (TiedWinners), the real winner
	// (WrongWinner) or the elimination order that could not be ruled out,
	// first eliminated first (CouldNotRuleOut).
	Candidates []int
	// Difficulty is the lower bound on the difficulty reached when the
	// search ran out of work (TimeoutFindingAssertions).
	Difficulty float64
	// Names are the candidates' names for the message; may be nil.
	Names []string
}

// Message is a plain-English description of the failure, for a person.
func (e *Error) Message() string {
	list := func() string { return nameList(e.Names, e.Candidates, " and ") }
	switch e.Kind {
	case InvalidNumberOfCandidates:
		return fmt.Sprintf("the contest must have between 1 and %d candidates", MaxCandidates)
	case InvalidCandidateNumber:
		return "a candidate number is outside 0 to num_candidates-1"
	case InvalidTimeout:
		return "the time limit must be a positive number of seconds"
	case TiedWinners:
		return "the election is tied: " + list() + " can each win, depending on how ties are broken, so no audit can confirm the outcome"
	case WrongWinner:
		return "the ballots do not elect the stated winner; they elect " + list()
	case CouldNotRuleOut:
		return "no assertion rules out the elimination order " + nameList(e.Names, e.Candidates, ", then ") + " (first eliminated first)"
	case TimeoutCheckingWinner:
		return "ran out of time or work counting the election with every way of breaking ties"
	case TimeoutFindingAssertions:
		return fmt.Sprintf("ran out of time or work finding assertions (difficulty so far %g); try a larger limit", e.Difficulty)
	}
	return "" + string(e.Kind)
}

// Error is Message with the package's name, as Go errors read.
func (e *Error) Error() string { return "raire: " + e.Message() }

// FieldError is a bad value in a contest, naming the field as written in
// RAIRE's JSON input (for example "votes[3].prefs[1]"). It wraps an *Error
// when RAIRE has a name for the failure.
type FieldError struct {
	Field string
	Msg   string
	Err   *Error
}

// Error returns the field and what is wrong with it.
func (e *FieldError) Error() string { return "raire: " + e.Message() }

// Message is Error without the package's name, for a person.
func (e *FieldError) Message() string { return e.Field + ": " + e.Msg }

// CheckError is why Check refused a solution (other than an elimination
// order nothing rules out, which is an *Error of kind CouldNotRuleOut).
type CheckError struct{ Msg string }

func (e *CheckError) Error() string { return "raire: check: " + e.Msg }

// Message is Error without the package's name, for a person.
func (e *CheckError) Message() string { return e.Msg }

// Message is err's text for a person: a RAIRE error's without the
// package's name (found with errors.As, not by its text), any other
// error's as it is.
func Message(err error) string {
	var m interface{ Message() string }
	if errors.As(err, &m) {
		return m.Message()
	}
	return err.Error()
}

// Unwrap returns the RAIRE error this is an instance of, if any.
func (e *FieldError) Unwrap() error {
	if e.Err == nil {
		return nil
	}
	return e.Err
}

// CandidateName returns candidate c's name, or "candidate c" when names
// has none for it.
func CandidateName(names []string, c int) string {
	if c >= 0 && c < len(names) && names[c] != "" {
		return names[c]
	}
	return fmt.Sprintf("candidate %d", c)
}

// nameList joins the candidates' names, the last two with last:
// "A, B and C" for last " and ".
func nameList(names []string, cs []int, last string) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = CandidateName(names, c)
	}
	if len(parts) < 2 {
		return strings.Join(parts, "")
	}
	return strings.Join(parts[:len(parts)-1], ", ") + last + parts[len(parts)-1]
}
