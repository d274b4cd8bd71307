package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"votedesk/app/apptest"
)

var shared = apptest.SharedTestdata()

func TestCLITallyRCTabConfig(t *testing.T) {
	c := newCLI(t)
	for _, name := range []string{"test_set_1_exhaust_at_overvote", "sequential_with_continue_until_two", "test_set_multi_winner_fractional_threshold"} {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "out")
			c.ok("tally", "--rctab", filepath.Join(shared, "rctab", name, name+"_config.json"), "--output", dir)
			suffixes := []string{""}
			if strings.HasPrefix(name, "sequential") {
				suffixes = []string{"_1", "_2", "_3"}
			}
			for _, sfx := range suffixes {
				for _, ext := range []string{".json", ".csv"} {
					got, err := os.ReadFile(filepath.Join(dir, "detailed_report"+sfx+ext))
					if err != nil {
						t.Fatal(err)
					}
					want, err := os.ReadFile(filepath.Join(shared, "rctab", name, name+sfx+"_expected_detailed_report"+ext))
					if err != nil {
						t.Fatal(err)
					}
					g := strings.Replace(string(got), "VoteDesk", "RCTab 2.0.0", 1)
					if strings.TrimSpace(g) != strings.TrimSpace(string(want)) {
						t.Errorf("detailed_report%s%s differs from RCTab's", sfx, ext)
					}
					if _, err := os.Stat(filepath.Join(dir, "detailed_report"+sfx+ext+".sha256")); err != nil {
						t.Errorf("no SHA-256 file beside detailed_report%s%s", sfx, ext)
					}
				}
				if _, err := os.Stat(filepath.Join(dir, "summary_report"+sfx+".csv")); err != nil {
					t.Error("no summary report")
				}
			}
			if _, err := os.Stat(filepath.Join(dir, "audit.log")); err != nil {
				t.Error("no audit log")
			}
		})
	}
	t.Run("ErrBadInputWritesNothing", func(t *testing.T) {
		bad := filepath.Join(t.TempDir(), "bad_config.json")
		os.WriteFile(bad, []byte(`{"tabulatorVersion":"2.0.0","outputSettings":{},"cvrFileSources":[{"provider":"nope","filePath":"x.csv"}],"candidates":[{"name":"A"}],"rules":{}}`), 0o600)
		for _, cfg := range []string{bad, filepath.Join(t.TempDir(), "missing.json")} {
			dir := filepath.Join(t.TempDir(), "out")
			r := c.run(nil, "tally", "--rctab", cfg, "--output", dir)
			if r.code != 1 || !strings.Contains(r.err, filepath.Base(cfg)) {
				t.Errorf("tally of %s: exit %d, %q; want exit 1 naming the file", cfg, r.code, r.err)
			}
			if _, err := os.Stat(dir); !os.IsNotExist(err) {
				t.Errorf("a refused tally created %s", dir)
			}
		}
	})
}

func TestCLITallyCVRFile(t *testing.T) {
	c := newCLI(t)
	blt := filepath.Join(shared, "real", "burlington_2009_mayor", "2009-Burlington-Mayor.blt")
	out := c.ok("tally", "--method", "irv", "--cvr", blt, "--rule", "overvoteRule=exhaustIfMultipleContinuing", "--rule", "batchElimination=true")
	for _, want := range []string{"4,313", "4,061", "Winner(s): Bob Kiss"} {
		if !strings.Contains(out, want) {
			t.Errorf("Burlington IRV output lacks %q:\n%s", want, out)
		}
	}
	var schulze struct {
		Candidates     []string
		Preferences    [][]int
		StrongestPaths [][]int `json:"strongestPaths"`
		Places         []struct {
			Place      int
			Candidates []string
		}
	}
	decode(t, c.ok("tally", "--method", "schulze", "--cvr", filepath.Join(shared, "real", "burlington_2009_mayor", "00005-00000002.toi"), "--json"), &schulze)
	if len(schulze.Candidates) != 6 || schulze.Places[0].Candidates[0] != "Andy Montroll" || schulze.Preferences[0][1] != 4067 || len(schulze.StrongestPaths) != 6 {
		t.Errorf("schulze json = %+v", schulze)
	}
	t.Run("ErrUnknownMethod", func(t *testing.T) {
		c.refused(2, "tally", "--method", "coinflip", "--cvr", blt)
	})
	t.Run("ErrUnknownRule", func(t *testing.T) {
		c.refused(2, "tally", "--method", "irv", "--cvr", blt, "--rule", "colour=red")
	})
	t.Run("ErrMalformedFile", func(t *testing.T) {
		bad := filepath.Join(t.TempDir(), "bad.blt")
		os.WriteFile(bad, []byte("3 1\n1 1 2 x 0\n0\n\"A\"\n\"B\"\n\"C\"\n\"T\"\n"), 0o600)
		if msg := c.refused(1, "tally", "--method", "irv", "--cvr", bad); !strings.Contains(msg, "bad.blt") || !strings.Contains(msg, "line 2") {
			t.Errorf("message %q does not name the file and line", msg)
		}
	})
}

// TestCLITallyCountyCSV counts real county cast vote records named alone
// on the command line: their layout comes from their headers, ES&S's
// labels are known, and a file's own label for a blank rank is given with
// --skipped-label. Alameda County's ballot image, and RCTab's ES&S
// spreadsheet, with no config, likewise.
func TestCLITallyCountyCSV(t *testing.T) {
	c := newCLI(t)
	real := filepath.Join("..", "..", "tally", "cvr", "testdata", "real")
	ward1 := filepath.Join(real, "minneapolis-2009-ward-1.csv")
	out := c.ok("tally", "--method", "irv", "--cvr", ward1, "--skipped-label", "XXX")
	for _, want := range []string{"1,997 (50.31%)", "Round 1: elected REI", "Winner(s): REI"} {
		if !strings.Contains(out, want) {
			t.Errorf("Minneapolis 2009 Ward 1 lacks %q:\n%s", want, out)
		}
	}
	if out := c.ok("tally", "--method", "irv", "--cvr", ward1); !strings.Contains(out, "XXX") {
		t.Errorf("without --skipped-label, XXX should be read as a name, as the file writes it:\n%s", out)
	}
	out = c.ok("tally", "--method", "irv", "--cvr", filepath.Join(real, "minneapolis-2017-ward-3-first-records.csv"))
	if !strings.Contains(out, "Undeclared Write-ins") || strings.Contains(out, "undervote") || strings.Contains(out, "overvote ") {
		t.Errorf("ES&S labels read as candidates:\n%s", out)
	}
	// Alameda County's ballot image, its master lookup beside it: three
	// ranks for two candidates and a write-in are allowed, unless a rule
	// says otherwise.
	oakland := filepath.Join(real, "oakland-2018-school-director-6")
	if out := c.ok("tally", "--method", "irv", "--cvr", oakland); !strings.Contains(out, "Winner(s): SHANTHI GONZALES") || !strings.Contains(out, "33 (100.0%)") {
		t.Errorf("Oakland's ballot image:\n%s", out)
	}
	if msg := c.refused(1, "tally", "--method", "irv", "--cvr", oakland, "--rule", "maxRankingsAllowed=2"); !strings.Contains(msg, "ranking 3 is beyond maxRankingsAllowed 2") {
		t.Errorf("maxRankingsAllowed=2: %s", msg)
	}
	if out := c.ok("audit", "assertions", "--cvr", oakland); !strings.Contains(out, "SHANTHI GONZALES") {
		t.Errorf("audit assertions of the ballot image:\n%s", out)
	}
	xlsx := filepath.Join(shared, "rctab", "test_set_1_exhaust_at_overvote", "test_set_1_exhaust_at_overvote_cvr.xlsx")
	if out := c.ok("tally", "--method", "irv", "--cvr", xlsx); !strings.Contains(out, "Winner(s): B") {
		t.Errorf("RCTab's ES&S spreadsheet, alone:\n%s", out)
	}
}

func TestCLITallyElection(t *testing.T) {
	c := pollingPlace(t, 10)
	for i, r := range [][]string{{"A", "B"}, {"A"}, {"B", "C"}, {"C", "B"}, {"C", "A"}} {
		c.ok(append([]string{"ballot", "cast", "Poll", "--voter", voterName(i)}, r...)...)
	}
	out := c.ok("tally", "Poll")
	if !strings.Contains(out, "5 ballots") || !strings.Contains(out, "Winner(s): C") {
		t.Errorf("tally Poll:\n%s", out)
	}
	c.ok("election", "set", "Poll", "--allow-edit=true")
	c.refused(1, "election", "set", "Poll", "--method", "schulze")
	out = c.ok("tally", "Poll", "--method", "borda")
	if !strings.Contains(out, "Places:") {
		t.Errorf("tally Poll --method borda:\n%s", out)
	}
	c.refused(1, "tally", "Poll", "--rule", "winnerElectionMode=nonsense")
}
