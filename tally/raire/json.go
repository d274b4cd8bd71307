package raire

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"time"
)

// ReadContest reads a contest in RAIRE's JSON input format: metadata (kept
// as is; its candidates, when present, name the candidates),
// num_candidates, votes [{n, prefs}], an optional winner, audit {type,
// total_auditable_ballots, confidence, error_inflation_factor}, an
// optional trim_algorithm and an optional time_limit_seconds. Other fields
// are ignored, as RAIRE does. A bad or missing value gives a *FieldError
// naming the field.
func ReadContest(r io.Reader) (Contest, error) {
	var top map[string]json.RawMessage
	if err := decodeOne(r, &top); err != nil {
		return Contest{}, &FieldError{Field: "(input)", Msg: err.Error()}
	}
	if top == nil {
		return Contest{}, &FieldError{Field: "(input)", Msg: "must be a JSON object"}
	}
	var c Contest
	var err error
	if c.Metadata, c.Candidates, err = readMetadata(top["metadata"]); err != nil {
		return Contest{}, err
	}
	n, err := readInt(top["num_candidates"], "num_candidates")
	if err != nil {
		return Contest{}, err
	}
	c.NumCandidates = clampInt(n)
	if c.Votes, err = readVotes(top["votes"]); err != nil {
		return Contest{}, err
	}
	if !isNull(top["winner"]) {
		w, err := readInt(top["winner"], "winner")
		if err != nil {
			return Contest{}, err
		}
		wi := clampInt(w)
		c.Winner = &wi
	}
	if c.Audit, err = readAudit(top["audit"]); err != nil {
		return Contest{}, err
	}
	if trim := top["trim_algorithm"]; !isNull(trim) {
		var t string
		if json.Unmarshal(trim, &t) != nil || (t != string(TrimNone) && t != string(MinimizeTree) && t != string(MinimizeAssertions)) {
			return Contest{}, &FieldError{Field: "trim_algorithm", Msg: fmt.Sprintf("%s is not \"None\", \"MinimizeTree\" or \"MinimizeAssertions\"", trim)}
		}
		c.Trim = TrimAlgorithm(t)
	}
	if limit := top["time_limit_seconds"]; !isNull(limit) {
		s, err := readFloat(limit, "time_limit_seconds")
		if err != nil || !(s > 0 && s < 1e9) {
			return Contest{}, &FieldError{Field: "time_limit_seconds", Msg: "must be a positive number of seconds", Err: &Error{Kind: InvalidTimeout}}
		}
		c.TimeLimit = time.Duration(s * float64(time.Second))
	}
	return c, c.validate()
}

// decodeOne decodes exactly one JSON value from r into v.
func decodeOne(r io.Reader, v any) error {
	dec := json.NewDecoder(r)
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("unexpected data after the JSON value")
	}
	return nil
}

// isNull reports whether a field is absent or null.
func isNull(raw json.RawMessage) bool { return len(raw) == 0 || string(raw) == "null" }

// readMetadata keeps the metadata and reads its candidate names.
func readMetadata(raw json.RawMessage) (json.RawMessage, []string, error) {
	if isNull(raw) {
		return nil, nil, nil
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return nil, nil, &FieldError{Field: "metadata", Msg: "must be a JSON object"}
	}
	var names []string
	if c, ok := m["candidates"]; ok && !isNull(c) {
		if json.Unmarshal(c, &names) != nil {
			return nil, nil, &FieldError{Field: "metadata.candidates", Msg: "must be a list of names"}
		}
	}
	return raw, names, nil
}

// readInt reads a whole number (which may be negative) from a required
// field.
func readInt(raw json.RawMessage, field string) (int64, error) {
	if isNull(raw) {
		return 0, &FieldError{Field: field, Msg: "is missing"}
	}
	var num json.Number
	if json.Unmarshal(raw, &num) != nil || bytes.HasPrefix(raw, []byte(`"`)) {
		return 0, &FieldError{Field: field, Msg: fmt.Sprintf("%s is not a whole number", raw)}
	}
	v, err := strconv.ParseInt(num.String(), 10, 64)
	if err != nil {
		return 0, &FieldError{Field: field, Msg: fmt.Sprintf("%s is not a whole number in range", num)}
	}
	return v, nil
}

// clampInt converts to int, clamping to the int32 range: such numbers are
// out of range for any contest, and validate says so.
func clampInt(v int64) int { return int(max(min(v, math.MaxInt32), math.MinInt32)) }

// readCount reads a whole number of 0 or more from a required field.
func readCount(raw json.RawMessage, field string) (uint64, error) {
	v, err := readInt(raw, field)
	if err != nil {
		return 0, err
	}
	if v < 0 {
		return 0, &FieldError{Field: field, Msg: fmt.Sprintf("%d is negative", v)}
	}
	return uint64(v), nil
}

// readFloat reads a finite number from a field.
func readFloat(raw json.RawMessage, field string) (float64, error) {
	var num json.Number
	if isNull(raw) || json.Unmarshal(raw, &num) != nil || bytes.HasPrefix(raw, []byte(`"`)) {
		return 0, &FieldError{Field: field, Msg: "must be a number"}
	}
	v, err := strconv.ParseFloat(num.String(), 64)
	if err != nil || math.IsInf(v, 0) {
		return 0, &FieldError{Field: field, Msg: fmt.Sprintf("%s is not a finite number", num)}
	}
	return v, nil
}

// readVotes reads the votes field.
func readVotes(raw json.RawMessage) ([]Vote, error) {
	if isNull(raw) {
		return nil, &FieldError{Field: "votes", Msg: "is missing"}
	}
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) != nil {
		return nil, &FieldError{Field: "votes", Msg: "must be a list of {\"n\": count, \"prefs\": [candidates]}"}
	}
	votes := make([]Vote, len(list))
	for i, item := range list {
		field := fmt.Sprintf("votes[%d]", i)
		var v map[string]json.RawMessage
		if json.Unmarshal(item, &v) != nil || v == nil {
			return nil, &FieldError{Field: field, Msg: "must be an object {\"n\": count, \"prefs\": [candidates]}"}
		}
		count, err := readCount(v["n"], field+".n")
		if err != nil {
			return nil, err
		}
		var prefs []json.RawMessage
		if isNull(v["prefs"]) {
			return nil, &FieldError{Field: field + ".prefs", Msg: "is missing"}
		}
		if json.Unmarshal(v["prefs"], &prefs) != nil {
			return nil, &FieldError{Field: field + ".prefs", Msg: "must be a list of candidate numbers"}
		}
		votes[i] = Vote{N: count, Prefs: make([]int, len(prefs))}
		for j, p := range prefs {
			c, err := readInt(p, fmt.Sprintf("%s.prefs[%d]", field, j))
			if err != nil {
				return nil, err
			}
			votes[i].Prefs[j] = clampInt(c)
		}
	}
	return votes, nil
}

// readAudit reads the audit field.
func readAudit(raw json.RawMessage) (Audit, error) {
	var m map[string]json.RawMessage
	if isNull(raw) {
		return Audit{}, &FieldError{Field: "audit", Msg: "is missing"}
	}
	if json.Unmarshal(raw, &m) != nil || m == nil {
		return Audit{}, &FieldError{Field: "audit", Msg: "must be an object {\"type\": ..., \"total_auditable_ballots\": ...}"}
	}
	var a Audit
	var t string
	if isNull(m["type"]) || json.Unmarshal(m["type"], &t) != nil {
		return Audit{}, &FieldError{Field: "audit.type", Msg: "must be \"OneOnMargin\", \"OneOnMarginSq\", \"BRAVO\" or \"MACRO\""}
	}
	a.Type = AuditType(t)
	var err error
	if a.TotalAuditableBallots, err = readCount(m["total_auditable_ballots"], "audit.total_auditable_ballots"); err != nil {
		return Audit{}, err
	}
	if a.Type == BRAVO || a.Type == MACRO {
		if a.Confidence, err = readFloat(m["confidence"], "audit.confidence"); err != nil {
			return Audit{}, err
		}
	}
	if a.Type == MACRO {
		if a.ErrorInflationFactor, err = readFloat(m["error_inflation_factor"], "audit.error_inflation_factor"); err != nil {
			return Audit{}, err
		}
	}
	return a, nil
}
