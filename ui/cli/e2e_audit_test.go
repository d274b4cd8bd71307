package cli_test

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"votedesk/tally/raire"
)

// TestCLIAuditAssertionsRAIREContract runs `votedesk audit assertions
// --raire` on the worked examples of "A Guide to RAIRE": RAIRE's output
// format on standard output, with RAIRE's overall difficulty and margin,
// the metadata passed through, and an assertion set that rules out every
// other winner.
func TestCLIAuditAssertionsRAIREContract(t *testing.T) {
	c := newCLI(t)
	dir := filepath.Join(shared, "raire")
	inputs, _ := filepath.Glob(filepath.Join(dir, "input", "*.json"))
	if len(inputs) == 0 {
		t.Fatalf("no RAIRE examples in %s", dir)
	}
	for _, in := range inputs {
		name := filepath.Base(in)
		t.Run(strings.TrimSuffix(name, ".json"), func(t *testing.T) {
			out := c.ok("audit", "assertions", "--raire", in)
			var shape struct {
				Metadata json.RawMessage
				Solution map[string]json.RawMessage
			}
			if err := json.Unmarshal([]byte(out), &shape); err != nil || shape.Solution["Ok"] == nil || len(shape.Metadata) == 0 {
				t.Fatalf("not RAIRE's output format (%v):\n%s", err, out)
			}
			_, got, err := raire.ReadSolution(strings.NewReader(out))
			if err != nil {
				t.Fatal(err)
			}
			f, err := os.Open(filepath.Join(dir, "expected", name))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			_, want, err := raire.ReadSolution(f)
			if err != nil {
				t.Fatal(err)
			}
			// (An older expected file states no difficulty: then only the
			// winner and Check.)
			if want.Difficulty != 0 && math.Abs(got.Difficulty-want.Difficulty) > 1e-9*want.Difficulty || (want.Margin != 0 && got.Margin != want.Margin) || got.Winner != want.Winner {
				t.Errorf("difficulty %v, margin %d, winner %d; RAIRE: %v, %d, %d", got.Difficulty, got.Margin, got.Winner, want.Difficulty, want.Margin, want.Winner)
			}
			inf, err := os.Open(in)
			if err != nil {
				t.Fatal(err)
			}
			defer inf.Close()
			contest, err := raire.ReadContest(inf)
			if err != nil {
				t.Fatal(err)
			}
			if err := raire.Check(contest, got); err != nil {
				t.Errorf("the assertions printed leave another winner possible: %v", err)
			}
		})
	}
}

// TestCLIAuditAssertionsRefusals: a tied contest prints RAIRE's Err and
// exits 1; bad input names what is wrong; a CVR file gives the assertions
// in words, Burlington 2009 among them.
func TestCLIAuditAssertionsRefusals(t *testing.T) {
	c := newCLI(t)
	tied := filepath.Join(t.TempDir(), "tied.json")
	os.WriteFile(tied, []byte(`{"metadata": {"candidates": ["A", "B"]}, "num_candidates": 2, "votes": [{"n": 5, "prefs": [0]}, {"n": 5, "prefs": [1]}], "audit": {"type": "OneOnMargin", "total_auditable_ballots": 10}}`), 0o600)
	r := c.run(nil, "audit", "assertions", "--raire", tied)
	if r.code != 1 || !strings.Contains(r.out, `"Err"`) || !strings.Contains(r.out, "TiedWinners") || r.err == "" {
		t.Errorf("a tied contest: exit %d\n%s%s", r.code, r.out, r.err)
	}
	bad := filepath.Join(t.TempDir(), "bad.json")
	os.WriteFile(bad, []byte(`{"num_candidates": 2, "votes": [{"n": 5, "prefs": [0, 7]}], "audit": {"type": "OneOnMargin", "total_auditable_ballots": 5}}`), 0o600)
	if msg := c.refused(1, "audit", "assertions", "--raire", bad); !strings.Contains(msg, "votes[0]") {
		t.Errorf("an out-of-range candidate: %s", msg)
	}
	if msg := c.refused(2, "audit", "assertions"); !strings.Contains(msg, "--raire") {
		t.Errorf("no contest named: %s", msg)
	}
	out := c.ok("audit", "assertions", "--cvr", filepath.Join(shared, "real", "burlington_2009_mayor", "2009-Burlington-Mayor.blt"))
	if !strings.Contains(out, "Bob Kiss wins") || !strings.Contains(out, "margin of 253 of 8984 ballots") || !strings.Contains(out, "cannot be eliminated before") {
		t.Errorf("Burlington 2009:\n%s", out)
	}
}
