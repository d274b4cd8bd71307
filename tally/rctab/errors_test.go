package rctab

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"votedesk/tally"
)

// goodConfig is a small valid config reading cvr.csv (generic CSV).
const goodConfig = `{
  "tabulatorVersion" : "TEST",
  "outputSettings" : { "contestName" : "Mayor" },
  "cvrFileSources" : [ {
    "filePath" : "cvr.csv", "provider" : "genericCsv",
    "firstVoteColumnIndex" : "2", "firstVoteRowIndex" : "2", "idColumnIndex" : "1"
  } ],
  "candidates" : [ { "name" : "Ann" }, { "name" : "Bob" }, { "name" : "Cy" } ],
  "rules" : {
    "tiebreakMode" : "useCandidateOrder", "overvoteRule" : "exhaustImmediately",
    "winnerElectionMode" : "singleWinnerMajority", "numberOfWinners" : "1",
    "decimalPlacesForVoteArithmetic" : "4", "maxSkippedRanksAllowed" : "1",
    "maxRankingsAllowed" : "max"
  }
}`

const goodCVR = "id,Ann,Bob,Cy\n1,1,2,\n2,2,1,\n3,,1,2\n4,1,,\n5,,,1\n"

// writeCase writes a config and CVR into a fresh folder and returns the
// config path.
func writeCase(t *testing.T, config, cvr string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "config.json"), []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "cvr.csv"), []byte(cvr), 0o644); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, "config.json")
}

// TestRunConfigWrites checks a good run writes every report with its hash.
func TestRunConfigWrites(t *testing.T) {
	cfg := writeCase(t, goodConfig, goodCVR)
	out := filepath.Join(t.TempDir(), "results")
	if err := RunConfig(context.Background(), cfg, out); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"detailed_report.json", "detailed_report.csv", "summary_report.csv", "audit.log"} {
		for _, f := range []string{name, name + ".sha256"} {
			if _, err := os.Stat(filepath.Join(out, f)); err != nil {
				t.Errorf("missing %s: %v", f, err)
			}
		}
	}
	hash, _ := os.ReadFile(filepath.Join(out, "detailed_report.csv.sha256"))
	if !strings.HasSuffix(string(hash), "  detailed_report.csv\n") || len(hash) != 64+2+len("detailed_report.csv")+1 {
		t.Errorf("hash file %q is not in sha256sum's format", hash)
	}
	audit, _ := os.ReadFile(filepath.Join(out, "audit.log"))
	if !strings.Contains(string(audit), "[Round] 1 [CVR] 1 [counted for] Ann") {
		t.Errorf("audit log lacks ballot 1's first count:\n%s", audit)
	}
	if err := RunConfig(context.Background(), cfg, out); err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Errorf("second run into the same folder: err = %v, want a refusal", err)
	}
}

// TestRunConfigRefusesBadInput checks that bad input names the file, the
// place and the problem, and leaves nothing behind.
func TestRunConfigRefusesBadInput(t *testing.T) {
	cases := []struct {
		name        string
		config, cvr string
		want        []string
	}{
		{"ErrUnknownProvider", strings.Replace(goodConfig, `"genericCsv"`, `"punchcards"`, 1), goodCVR,
			[]string{"cvrFileSources[0]", "punchcards"}},
		{"ErrCandidateNotInConfig", goodConfig, "id,Ann,Bob,Dee\n1,1,2,3\n", []string{"cvr.csv", "Dee"}},
		{"ErrMalformedCVR", goodConfig, "id,Ann,Bob,Cy\n1,1,two,\n", []string{"cvr.csv", "line 2"}},
		{"ErrMissingColumn", strings.Replace(goodConfig, `"firstVoteColumnIndex" : "2"`, `"firstVoteColumnIndex" : "9"`, 1), goodCVR,
			[]string{"cvr.csv"}},
		{"ErrMissingCVRFile", strings.Replace(goodConfig, `"cvr.csv"`, `"nowhere.csv"`, 1), goodCVR, []string{"nowhere.csv"}},
		{"ErrMalformedConfig", strings.Replace(goodConfig, `"Mayor" }`, `"Mayor" `, 1), goodCVR, []string{"config.json", "line"}},
		{"ErrBadRuleValue", strings.Replace(goodConfig, `"maxSkippedRanksAllowed" : "1"`, `"maxSkippedRanksAllowed" : "lots"`, 1), goodCVR,
			[]string{"rules.maxSkippedRanksAllowed", "unlimited"}},
		{"ErrBadRuleChoice", strings.Replace(goodConfig, `"exhaustImmediately"`, `"exhaustSometimes"`, 1), goodCVR,
			[]string{"rules.overvoteRule", "alwaysSkipToNextRank"}},
		{"ErrBadIndex", strings.Replace(goodConfig, `"firstVoteRowIndex" : "2"`, `"firstVoteRowIndex" : "two"`, 1), goodCVR,
			[]string{"cvrFileSources[0].firstVoteRowIndex"}},
		{"ErrNoCandidateName", strings.Replace(goodConfig, `{ "name" : "Cy" }`, `{ "name" : "" }`, 1), goodCVR,
			[]string{"candidates[2].name"}},
		{"ErrRandomSeedMissing", strings.Replace(goodConfig, `"useCandidateOrder"`, `"random"`, 1), goodCVR,
			[]string{"rules.randomSeed"}},
		{"ErrTieNeedsDecision", strings.Replace(goodConfig, `"useCandidateOrder"`, `"stopCountingAndAsk"`, 1),
			"id,Ann,Bob,Cy\n1,1,,\n2,,1,\n3,,,1\n", []string{"tie needs a decision"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cfg := writeCase(t, tc.config, tc.cvr)
			parent := t.TempDir()
			out := filepath.Join(parent, "results")
			err := RunConfig(context.Background(), cfg, out)
			if err == nil {
				t.Fatal("bad input was accepted")
			}
			t.Log(err)
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
			if entries, _ := os.ReadDir(parent); len(entries) != 0 {
				t.Errorf("left %d entries behind, e.g. %s", len(entries), entries[0].Name())
			}
		})
	}
}

// TestTieNeedsDecisionIsWrapped lets the CLI tell a tie from other errors.
func TestTieNeedsDecisionIsWrapped(t *testing.T) {
	cfg := writeCase(t, strings.Replace(goodConfig, `"useCandidateOrder"`, `"stopCountingAndAsk"`, 1), "id,Ann,Bob,Cy\n1,1,,\n2,,1,\n3,,,1\n")
	err := RunConfig(context.Background(), cfg, filepath.Join(t.TempDir(), "out"))
	if !errors.Is(err, tally.ErrTieNeedsDecision) {
		t.Errorf("err = %v, want one wrapping tally.ErrTieNeedsDecision", err)
	}
}

func writeFileBytes(path string, data []byte) error { return os.WriteFile(path, data, 0o644) }
