package rctab

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"votedesk/tally"
)

// FuzzLoadConfig feeds arbitrary bytes to the config loader: it may refuse
// them but must not panic.
func FuzzLoadConfig(f *testing.F) {
	f.Add([]byte(goodConfig))
	f.Add([]byte(`{"rules": {"numberOfWinners": 3}}`))
	f.Add([]byte(`{"cvrFileSources": [{"filePath": 7}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		path := t.TempDir() + "/config.json"
		if err := writeFileBytes(path, data); err != nil {
			t.Fatal(err)
		}
		cfg, err := Load(path)
		if err != nil {
			return
		}
		if _, err := cfg.Rules(); err == nil {
			cfg.Contest()
		}
	})
}

// TestSettingsRoundTrip checks that Settings states every rule and that
// parsing what it states gives the same rules back.
func TestSettingsRoundTrip(t *testing.T) {
	changed := tally.DefaultRules()
	changed.WinnerElectionMode, changed.NumberOfWinners, changed.MaxSkippedRanksAllowed = tally.MultiPassIRV, 3, tally.Unlimited
	changed.MaxRankingsAllowed, changed.StopTabulationEarlyAfterRound, changed.RandomSeed = 5, 2, -77
	changed.TiebreakMode, changed.BatchElimination, changed.MultiSeatBottomsUpPercentageThreshold = tally.Random, true, 25
	for _, want := range []tally.Rules{tally.DefaultRules(), changed} {
		settings := tally.Settings(want)
		if len(settings) != len(tally.RuleNames()) {
			t.Fatalf("Settings gave %d rules, want %d", len(settings), len(tally.RuleNames()))
		}
		got := tally.Rules{}
		for _, s := range settings {
			p, err := tally.ParseRule(s.Name, s.Value)
			if err != nil {
				t.Fatalf("tally.ParseRule(%s, %q): %v", s.Name, s.Value, err)
			}
			p.Apply(&got)
		}
		if got != want {
			t.Errorf("rules read back = %+v, want %+v", got, want)
		}
	}
}

// TestUnsupportedRuleRefused: a config that turns on a rule of a newer
// RCTab VoteDesk does not count (cutoffElimination) is refused, naming the
// rule, rather than counted as if the rule were off; off, it counts.
func TestUnsupportedRuleRefused(t *testing.T) {
	src := filepath.Join(testdata(t), "rctab", "test_set_1_exhaust_at_overvote", "test_set_1_exhaust_at_overvote_config.json")
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	for value, refused := range map[string]bool{"true": true, `"true"`: true, "false": false, `""`: false} {
		cfg := strings.Replace(string(data), `"rules" : {`, `"rules" : { "cutoffElimination" : `+value+",", 1)
		path := filepath.Join(t.TempDir(), "config.json")
		if err := os.WriteFile(path, []byte(cfg), 0o600); err != nil {
			t.Fatal(err)
		}
		c, err := Load(path)
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.Rules()
		if refused != (err != nil) || refused && !strings.Contains(err.Error(), "rules.cutoffElimination") {
			t.Errorf("cutoffElimination %s: %v", value, err)
		}
	}
}
