package raire

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
)

// The JSON shapes of RAIRE's output.
type (
	outputJSON struct {
		Metadata json.RawMessage `json:"metadata"`
		Solution resultJSON      `json:"solution"`
	}
	resultJSON struct {
		Ok  *okJSON         `json:"Ok,omitempty"`
		Err json.RawMessage `json:"Err,omitempty"`
	}
	okJSON struct {
		Assertions             []scoredJSON `json:"assertions"`
		Difficulty             float64      `json:"difficulty"`
		Margin                 uint64       `json:"margin"`
		Winner                 int          `json:"winner"`
		NumCandidates          int          `json:"num_candidates"`
		WarningTrimTimedOut    bool         `json:"warning_trim_timed_out,omitempty"`
		TimeToDetermineWinners *workJSON    `json:"time_to_determine_winners,omitempty"`
		TimeToFindAssertions   *workJSON    `json:"time_to_find_assertions,omitempty"`
		TimeToTrimAssertions   *workJSON    `json:"time_to_trim_assertions,omitempty"`
	}
	scoredJSON struct {
		Assertion  assertionJSON `json:"assertion"`
		Difficulty float64       `json:"difficulty"`
		Margin     uint64        `json:"margin"`
	}
	assertionJSON struct {
		Type       AssertionType `json:"type"`
		Winner     int           `json:"winner"`
		Loser      int           `json:"loser"`
		Continuing []int         `json:"continuing,omitempty"`
	}
	workJSON struct {
		Work    int     `json:"work"`
		Seconds float64 `json:"seconds"`
	}
)

// InvalidInput is the Err name WriteSolution uses for an error RAIRE has
// no name for (a *FieldError that wraps no *Error, or any other error):
// {"Err": {"InvalidInput": "message"}}. It is VoteDesk's, not RAIRE's.
const InvalidInput = "InvalidInput"

// WriteSolution writes RAIRE's output: {"metadata": metadata, "solution":
// {"Ok": {...}}} for a solution, or {"Err": ...} for the error, as RAIRE
// writes its errors: a bare name ("InvalidCandidateNumber"), or the name
// with its value ({"TiedWinners": [1, 2]}, {"TimeoutFindingAssertions":
// 12.5}). The metadata is written unchanged ({} when nil).
func WriteSolution(w io.Writer, metadata json.RawMessage, sol *Solution, err error) error {
	out := outputJSON{Metadata: metadata}
	if len(out.Metadata) == 0 {
		out.Metadata = json.RawMessage("{}")
	}
	switch {
	case err != nil:
		out.Solution.Err = errorJSON(err)
	case sol == nil:
		return errors.New("raire: WriteSolution needs a solution or an error")
	default:
		ok := &okJSON{Assertions: []scoredJSON{}, Difficulty: sol.Difficulty, Margin: sol.Margin, Winner: sol.Winner,
			NumCandidates: sol.NumCandidates, WarningTrimTimedOut: sol.WarningTrimTimedOut,
			TimeToDetermineWinners: (*workJSON)(&sol.TimeToDetermineWinners),
			TimeToFindAssertions:   (*workJSON)(&sol.TimeToFindAssertions),
			TimeToTrimAssertions:   (*workJSON)(&sol.TimeToTrimAssertions)}
		for _, a := range sol.Assertions {
			ok.Assertions = append(ok.Assertions, scoredJSON{Difficulty: a.Difficulty, Margin: a.Margin,
				Assertion: assertionJSON{Type: a.Type, Winner: a.Winner, Loser: a.Loser, Continuing: a.Continuing}})
		}
		out.Solution.Ok = ok
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// errorJSON is an error as RAIRE writes it.
func errorJSON(err error) json.RawMessage {
	var e *Error
	if !errors.As(err, &e) {
		b, _ := json.Marshal(map[string]string{InvalidInput: err.Error()})
		return b
	}
	var b []byte
	switch e.Kind {
	case TiedWinners, WrongWinner, CouldNotRuleOut:
		b, _ = json.Marshal(map[ErrorKind][]int{e.Kind: append([]int{}, e.Candidates...)})
	case TimeoutFindingAssertions:
		b, _ = json.Marshal(map[ErrorKind]float64{e.Kind: e.Difficulty})
	default:
		b, _ = json.Marshal(e.Kind)
	}
	return b
}

// ReadSolution reads RAIRE's output format, as WriteSolution writes it or
// as raire-rs does (whose older files lack margins, and some difficulties,
// which then read as 0). It returns the metadata and the solution; when the
// file holds an error, that error is returned as an *Error (or, for
// InvalidInput, a *FieldError). A malformed file gives another error.
func ReadSolution(r io.Reader) (json.RawMessage, *Solution, error) {
	var out outputJSON
	if err := decodeOne(r, &out); err != nil {
		return nil, nil, fmt.Errorf("raire: reading a solution: %w", err)
	}
	if len(out.Solution.Err) > 0 {
		return out.Metadata, nil, parseErrorJSON(out.Solution.Err)
	}
	ok := out.Solution.Ok
	if ok == nil {
		return nil, nil, errors.New("raire: reading a solution: solution has neither Ok nor Err")
	}
	sol := &Solution{Difficulty: ok.Difficulty, Margin: ok.Margin, Winner: ok.Winner,
		NumCandidates: ok.NumCandidates, WarningTrimTimedOut: ok.WarningTrimTimedOut}
	for _, t := range []struct {
		from *workJSON
		to   *Work
	}{{ok.TimeToDetermineWinners, &sol.TimeToDetermineWinners}, {ok.TimeToFindAssertions, &sol.TimeToFindAssertions},
		{ok.TimeToTrimAssertions, &sol.TimeToTrimAssertions}} {
		if t.from != nil {
			*t.to = Work(*t.from)
		}
	}
	for i, a := range ok.Assertions {
		as := Assertion{Type: a.Assertion.Type, Winner: a.Assertion.Winner, Loser: a.Assertion.Loser}
		switch as.Type {
		case NEB:
		case NEN:
			as.Continuing = slices.Sorted(slices.Values(a.Assertion.Continuing))
		default:
			return nil, nil, fmt.Errorf("raire: reading a solution: assertions[%d]: type %q is not NEB or NEN", i, as.Type)
		}
		sol.Assertions = append(sol.Assertions, Scored{Assertion: as, Difficulty: a.Difficulty, Margin: a.Margin})
	}
	return out.Metadata, sol, nil
}

// parseErrorJSON turns RAIRE's Err value back into an error.
func parseErrorJSON(raw json.RawMessage) error {
	var kind ErrorKind
	if json.Unmarshal(raw, &kind) == nil {
		return &Error{Kind: kind}
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil || len(m) != 1 {
		return fmt.Errorf("raire: reading a solution: Err %s is not an error RAIRE writes", raw)
	}
	var k string
	var v json.RawMessage
	for k, v = range m {
	}
	e := &Error{Kind: ErrorKind(k)}
	var err error
	switch e.Kind {
	case TiedWinners, WrongWinner, CouldNotRuleOut:
		err = json.Unmarshal(v, &e.Candidates)
	case TimeoutFindingAssertions:
		err = json.Unmarshal(v, &e.Difficulty)
	case InvalidInput:
		var msg string
		if err = json.Unmarshal(v, &msg); err == nil {
			return &FieldError{Field: "(input)", Msg: msg}
		}
	}
	if err != nil {
		return fmt.Errorf("raire: reading a solution: Err %s: %v", k, err)
	}
	return e
}
