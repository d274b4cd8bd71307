package cli_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
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

// TestCLIAuditOfAStoredElection walks an audit of the stored Burlington
// 2009 election step by step through the binary: the manifest template,
// the start (RAIRE's assertions, Kiss the reported winner, the first round
// of 233 draws at a 5% risk limit), the sample (each draw what Rivest's
// sampler gives for the seed, checked here apart from VoteDesk), a double
// entry that differs and is settled, the status, the refusal of a next
// round while draws are unread, the reports, and verify.
func TestCLIAuditOfAStoredElection(t *testing.T) {
	c := dataCLI(t, "Mayor")
	c.ok("import", "cvr", "Mayor", burlingtonBLT)
	c.ok("election", "launch", "Mayor")
	c.ok("election", "close", "Mayor")
	dir := t.TempDir()
	manifest := filepath.Join(dir, "manifest.csv")
	c.ok("audit", "manifest", "Mayor", "--output", manifest)
	if got := readFile(t, manifest); got != "Container,Tabulator,Batch Name,Number of Ballots\n,,cvr,8984\n" {
		t.Fatalf("manifest template:\n%s", got)
	}
	const seed = "84739201938475610293"
	out := c.ok("audit", "start", "Mayor", "--manifest", manifest, "--seed", seed)
	for _, want := range []string{"Bob Kiss is the reported winner", "Round 1 draws 233 ballots from 8984", "cannot be eliminated before"} {
		if !strings.Contains(out, want) {
			t.Errorf("audit start lacks %q:\n%s", want, out)
		}
	}
	var st struct {
		Draws []struct {
			Number   int    `json:"draw"`
			Ticket   string `json:"ticket"`
			Position int    `json:"position"`
			State    string `json:"state"`
			Record   []string
		} `json:"draws"`
		Measured  int  `json:"measured_draws"`
		Confirmed bool `json:"confirmed"`
	}
	if err := json.Unmarshal([]byte(c.ok("audit", "sample", "Mayor", "--json")), &st); err != nil {
		t.Fatal(err)
	}
	if len(st.Draws) != 233 {
		t.Fatalf("%d draws", len(st.Draws))
	}
	for _, d := range st.Draws[:20] {
		sum := sha256.Sum256([]byte(fmt.Sprintf("%s,%d", seed, d.Number)))
		pick := new(big.Int).Mod(new(big.Int).SetBytes(sum[:]), big.NewInt(8984))
		if d.Ticket != hex.EncodeToString(sum[:]) || int(pick.Int64())+1 != d.Position || d.State != "not read" || d.Record != nil {
			t.Fatalf("draw %d: ticket %s, position %d (Rivest's sampler: %d), %s, record %v", d.Number, d.Ticket, d.Position, pick.Int64()+1, d.State, d.Record)
		}
	}
	c.ok("audit", "record", "Mayor", "1", "--pass", "1", "Bob Kiss", "Kurt Wright")
	if out := c.ok("audit", "record", "Mayor", "1", "--pass", "2", "Kurt Wright"); !strings.Contains(out, "readings differ") {
		t.Errorf("a differing second pass: %s", out)
	}
	if out := c.ok("audit", "record", "Mayor", "1", "--pass", "settle", "Bob Kiss", "Kurt Wright"); !strings.Contains(out, "settled") {
		t.Errorf("settling: %s", out)
	}
	msg := c.refused(2, "audit", "record", "Mayor", "1", "--pass", "3", "Bob Kiss")
	if !strings.Contains(msg, "--pass is 1 or 2") {
		t.Errorf("a bad pass: %s", msg)
	}
	msg = c.refused(1, "audit", "record", "Mayor", "999", "--pass", "1", "Bob Kiss")
	if !strings.Contains(msg, "there is no draw 999") {
		t.Errorf("a draw past the sample: %s", msg)
	}
	status := c.ok("audit", "status", "Mayor")
	for _, want := range []string{"Rounds (total draws): 233. Read and measured: 1 of 233 draws.", "NEB Bob Kiss > James Simpson", "NEN Bob Kiss > Dan Smith (continuing: Bob Kiss, Dan Smith, Kurt Wright)", "232 of 233 draws are not read yet"} {
		if !strings.Contains(status, want) {
			t.Errorf("audit status lacks %q:\n%s", want, status)
		}
	}
	if msg := c.refused(1, "audit", "next", "Mayor"); !strings.Contains(msg, "232 ballots of this round are not read yet") {
		t.Errorf("a next round with draws unread: %s", msg)
	}
	if msg := c.refused(2, "audit", "next", "Mayor", "--draws", "0"); !strings.Contains(msg, `--draws takes a number of ballots to draw, at least 1, not "0"`) {
		t.Errorf("a round of 0 draws: %s", msg)
	}
	html := filepath.Join(dir, "audit.html")
	c.ok("audit", "report", "Mayor", "--format", "html", "--output", html)
	for _, want := range []string{seed, "Bob Kiss", "Elimination trees", "<svg", "Risk by round", "Audit in progress"} {
		if !strings.Contains(readFile(t, html), want) {
			t.Errorf("the audit report lacks %q", want)
		}
	}
	jsonReport := filepath.Join(dir, "audit.json")
	c.ok("audit", "report", "Mayor", "--format", "json", "--output", jsonReport)
	if err := json.Unmarshal([]byte(readFile(t, jsonReport)), &st); err != nil || st.Measured != 1 || st.Confirmed || st.Draws[0].Record == nil {
		t.Errorf("JSON report: %v, measured %d, record of draw 1 %v", err, st.Measured, st.Draws[0].Record)
	}
	if out := c.ok("verify"); !strings.Contains(out, "audits follow from the ballots") {
		t.Errorf("verify: %s", out)
	}
}
