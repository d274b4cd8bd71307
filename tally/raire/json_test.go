package raire_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"votedesk/tally/raire"
)

// TestJSONRoundTrip writes each example's solution in RAIRE's format and
// reads it back: same metadata, same assertions with the same margins and
// difficulties, and the shape raire-rs writes.
func TestJSONRoundTrip(t *testing.T) {
	for _, name := range exampleNames {
		c, _ := readExample(t, name)
		sol, err := raire.Assertions(c, raire.Options{})
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := raire.WriteSolution(&buf, c.Metadata, sol, nil); err != nil {
			t.Fatal(err)
		}
		meta, back, err := raire.ReadSolution(bytes.NewReader(buf.Bytes()))
		if err != nil {
			t.Fatalf("%s: %v\n%s", name, err, buf.Bytes())
		}
		var m1, m2 bytes.Buffer
		json.Compact(&m1, c.Metadata)
		json.Compact(&m2, meta)
		if m1.String() != m2.String() {
			t.Errorf("%s: metadata %s, wrote %s", name, m1.String(), m2.String())
		}
		if len(back.Assertions) != len(sol.Assertions) || back.Difficulty != sol.Difficulty || back.Margin != sol.Margin ||
			back.Winner != sol.Winner || back.NumCandidates != sol.NumCandidates {
			t.Fatalf("%s: read back %+v, wrote %+v", name, back, sol)
		}
		for i, a := range sol.Assertions {
			b := back.Assertions[i]
			if b.Type != a.Type || b.Winner != a.Winner || b.Loser != a.Loser || !slices.Equal(b.Continuing, a.Continuing) ||
				b.Margin != a.Margin || b.Difficulty != a.Difficulty {
				t.Errorf("%s: assertion %d read back as %+v, wrote %+v", name, i, b, a)
			}
		}
		var shape struct {
			Solution struct {
				Ok struct {
					Assertions []struct {
						Assertion map[string]any
						Margin    *float64
					}
				}
			}
		}
		if json.Unmarshal(buf.Bytes(), &shape) != nil || len(shape.Solution.Ok.Assertions) == 0 ||
			shape.Solution.Ok.Assertions[0].Assertion["type"] == nil || shape.Solution.Ok.Assertions[0].Margin == nil {
			t.Errorf("%s: not RAIRE's shape:\n%s", name, buf.Bytes())
		}
	}
}

// TestJSONErrors writes each kind of error as RAIRE does and reads it back.
func TestJSONErrors(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want string
	}{
		{&raire.Error{Kind: raire.InvalidCandidateNumber}, `"InvalidCandidateNumber"`},
		{&raire.Error{Kind: raire.TimeoutCheckingWinner}, `"TimeoutCheckingWinner"`},
		{&raire.Error{Kind: raire.TiedWinners, Candidates: []int{0, 2}}, `{"TiedWinners":[0,2]}`},
		{&raire.Error{Kind: raire.WrongWinner, Candidates: []int{1}}, `{"WrongWinner":[1]}`},
		{&raire.Error{Kind: raire.CouldNotRuleOut, Candidates: []int{2, 0, 1}}, `{"CouldNotRuleOut":[2,0,1]}`},
		{&raire.Error{Kind: raire.TimeoutFindingAssertions, Difficulty: 12.5}, `{"TimeoutFindingAssertions":12.5}`},
		{&raire.FieldError{Field: "num_candidates", Msg: "0 is not between 1 and 64", Err: &raire.Error{Kind: raire.InvalidNumberOfCandidates}},
			`"InvalidNumberOfCandidates"`},
		{&raire.FieldError{Field: "votes[0].prefs[1]", Msg: "candidate 1 is ranked twice"},
			`{"InvalidInput":"raire: votes[0].prefs[1]: candidate 1 is ranked twice"}`},
	} {
		var buf bytes.Buffer
		if err := raire.WriteSolution(&buf, json.RawMessage(`{"contest":"x"}`), nil, tc.err); err != nil {
			t.Fatal(err)
		}
		var out struct{ Solution struct{ Err json.RawMessage } }
		if err := json.Unmarshal(buf.Bytes(), &out); err != nil {
			t.Fatal(err)
		}
		var written bytes.Buffer
		json.Compact(&written, out.Solution.Err)
		if written.String() != tc.want {
			t.Errorf("%v written as %s, want %s", tc.err, written.String(), tc.want)
		}
		_, sol, err := raire.ReadSolution(&buf)
		var want, got *raire.Error
		if errors.As(tc.err, &want) {
			if sol != nil || !errors.As(err, &got) || got.Kind != want.Kind || !slices.Equal(got.Candidates, want.Candidates) ||
				got.Difficulty != want.Difficulty {
				t.Errorf("%v read back as %v, %v", tc.err, sol, err)
			}
			continue
		}
		var fe *raire.FieldError
		if sol != nil || !errors.As(err, &fe) || fe.Msg != tc.err.Error() {
			t.Errorf("%v read back as %v, %v", tc.err, sol, err)
		}
	}
}

// TestReadContestErrors: each bad input gives an error naming the field
// (and RAIRE's error where it has one), never a panic.
func TestReadContestErrors(t *testing.T) {
	const audit = `"audit":{"type":"OneOnMargin","total_auditable_ballots":10}`
	const good = `"num_candidates":2,"votes":[{"n":3,"prefs":[0,1]}],` + audit
	for _, tc := range []struct {
		in, field string
		kind      raire.ErrorKind
	}{
		{`{`, "(input)", ""},
		{`[]`, "(input)", ""},
		{`{` + good + `} {}`, "(input)", ""},
		{`{"metadata":"x",` + good + `}`, "metadata", ""},
		{`{"metadata":{"candidates":3},` + good + `}`, "metadata.candidates", ""},
		{`{"metadata":{"candidates":["A","B","C"]},` + good + `}`, "metadata.candidates", ""},
		{`{"votes":[],` + audit + `}`, "num_candidates", ""},
		{`{"num_candidates":"2","votes":[],` + audit + `}`, "num_candidates", ""},
		{`{"num_candidates":2.5,"votes":[],` + audit + `}`, "num_candidates", ""},
		{`{"num_candidates":0,"votes":[],` + audit + `}`, "num_candidates", raire.InvalidNumberOfCandidates},
		{`{"num_candidates":-1,"votes":[],` + audit + `}`, "num_candidates", raire.InvalidNumberOfCandidates},
		{`{"num_candidates":2,` + audit + `}`, "votes", ""},
		{`{"num_candidates":2,"votes":{},` + audit + `}`, "votes", ""},
		{`{"num_candidates":2,"votes":[1],` + audit + `}`, "votes[0]", ""},
		{`{"num_candidates":2,"votes":[{"prefs":[0]}],` + audit + `}`, "votes[0].n", ""},
		{`{"num_candidates":2,"votes":[{"n":-3,"prefs":[0]}],` + audit + `}`, "votes[0].n", ""},
		{`{"num_candidates":2,"votes":[{"n":1}],` + audit + `}`, "votes[0].prefs", ""},
		{`{"num_candidates":2,"votes":[{"n":1,"prefs":"0"}],` + audit + `}`, "votes[0].prefs", ""},
		{`{"num_candidates":2,"votes":[{"n":1,"prefs":[0]},{"n":1,"prefs":[0,7]}],` + audit + `}`, "votes[1].prefs[1]", raire.InvalidCandidateNumber},
		{`{"num_candidates":2,"votes":[{"n":1,"prefs":[-1]}],` + audit + `}`, "votes[0].prefs[0]", raire.InvalidCandidateNumber},
		{`{"num_candidates":2,"votes":[{"n":1,"prefs":[1,1]}],` + audit + `}`, "votes[0].prefs[1]", ""},
		{`{"num_candidates":2,"votes":[{"n":1,"prefs":["a"]}],` + audit + `}`, "votes[0].prefs[0]", ""},
		{`{"num_candidates":2,"votes":[{"n":1,"prefs":[99999999999999999999]}],` + audit + `}`, "votes[0].prefs[0]", ""},
		{`{` + good + `,"winner":2}`, "winner", raire.InvalidCandidateNumber},
		{`{` + good + `,"winner":"Alice"}`, "winner", ""},
		{`{"num_candidates":2,"votes":[]}`, "audit", ""},
		{`{"num_candidates":2,"votes":[],"audit":5}`, "audit", ""},
		{`{"num_candidates":2,"votes":[],"audit":{"type":"Guess","total_auditable_ballots":1}}`, "audit.type", ""},
		{`{"num_candidates":2,"votes":[],"audit":{"type":"OneOnMargin"}}`, "audit.total_auditable_ballots", ""},
		{`{"num_candidates":2,"votes":[{"n":30,"prefs":[0]}],` + audit + `}`, "audit.total_auditable_ballots", ""},
		{`{"num_candidates":2,"votes":[],"audit":{"type":"BRAVO","total_auditable_ballots":5}}`, "audit.confidence", ""},
		{`{"num_candidates":2,"votes":[],"audit":{"type":"BRAVO","total_auditable_ballots":5,"confidence":1.5}}`, "audit.confidence", ""},
		{`{"num_candidates":2,"votes":[],"audit":{"type":"MACRO","total_auditable_ballots":5,"confidence":0.05,"error_inflation_factor":0.5}}`,
			"audit.error_inflation_factor", ""},
		{`{` + good + `,"trim_algorithm":"Fast"}`, "trim_algorithm", ""},
		{`{` + good + `,"time_limit_seconds":-1}`, "time_limit_seconds", raire.InvalidTimeout},
		{`{` + good + `,"time_limit_seconds":"soon"}`, "time_limit_seconds", raire.InvalidTimeout},
	} {
		_, err := raire.ReadContest(strings.NewReader(tc.in))
		var fe *raire.FieldError
		if !errors.As(err, &fe) || fe.Field != tc.field {
			t.Errorf("%s: got %v, want an error naming %s", tc.in, err, tc.field)
			continue
		}
		var e *raire.Error
		if tc.kind != "" && (!errors.As(err, &e) || e.Kind != tc.kind) {
			t.Errorf("%s: got %v, want %s", tc.in, err, tc.kind)
		}
	}
	c, err := raire.ReadContest(strings.NewReader(`{"metadata":{"candidates":["A","B"]},` + good + `,"winner":0,"time_limit_seconds":2.5,"trim_algorithm":"None"}`))
	if err != nil || c.Candidates[1] != "B" || *c.Winner != 0 || c.TimeLimit.Seconds() != 2.5 || c.Trim != raire.TrimNone {
		t.Errorf("good input read as %+v, %v", c, err)
	}
	c, err = raire.ReadContest(strings.NewReader(`{"num_candidates":1,"votes":[],"audit":{"type":"MACRO",` +
		`"total_auditable_ballots":7,"confidence":0.05,"error_inflation_factor":1.1}}`))
	if want := (raire.Audit{Type: raire.MACRO, TotalAuditableBallots: 7, Confidence: 0.05, ErrorInflationFactor: 1.1}); err != nil || c.Audit != want {
		t.Errorf("MACRO audit read as %+v, %v", c.Audit, err)
	}
}

// FuzzReadContest feeds arbitrary input to ReadContest, and what it
// accepts to Assertions with a small work limit: neither may panic, and a
// solution must pass Check.
func FuzzReadContest(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(exampleDir(f), "input", "*.json"))
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"num_candidates":3,"votes":[{"n":1,"prefs":[0,1,2]},{"n":1,"prefs":[2,1]}],"audit":{"type":"BRAVO","confidence":0.05,"total_auditable_ballots":2}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := raire.ReadContest(bytes.NewReader(data))
		if err != nil {
			return
		}
		if c.NumCandidates > 8 {
			return
		}
		sol, err := raire.Assertions(c, raire.Options{MaxWork: 20000})
		if err != nil {
			return
		}
		if err := raire.Check(c, sol); err != nil {
			t.Fatalf("%s: %v", data, err)
		}
		if err := raire.WriteSolution(&bytes.Buffer{}, c.Metadata, sol, nil); err != nil {
			t.Fatal(err)
		}
	})
}
