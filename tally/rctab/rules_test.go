package rctab

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"votedesk/tally"
)

// TestParseRule checks rule overrides as the CLI passes them.
func TestParseRule(t *testing.T) {
	cases := []struct {
		name, arg string
		check     func(tally.Rules) bool
		wantErr   string
	}{
		{"OvervoteRule", "overvoteRule=exhaustIfMultipleContinuing", func(r tally.Rules) bool { return r.OvervoteRule == tally.ExhaustIfMultipleContinuing }, ""},
		{"BatchElimination", "batchElimination=true", func(r tally.Rules) bool { return r.BatchElimination }, ""},
		{"UnlimitedSkips", "maxSkippedRanksAllowed=unlimited", func(r tally.Rules) bool { return r.MaxSkippedRanksAllowed == tally.Unlimited }, ""},
		{"MaxRankings", "maxRankingsAllowed=max", func(r tally.Rules) bool { return r.MaxRankingsAllowed == tally.MaxRankingsAll }, ""},
		{"Seats", "numberOfWinners=3", func(r tally.Rules) bool { return r.NumberOfWinners == 3 }, ""},
		{"Seed", "randomSeed=-42", func(r tally.Rules) bool { return r.RandomSeed == -42 }, ""},
		{"BlankStopEarly", "stopTabulationEarlyAfterRound=", func(r tally.Rules) bool { return r.StopTabulationEarlyAfterRound == 0 }, ""},
		{"ErrUnknownRule", "overvote=exhaust", nil, "valid rules are"},
		{"ErrNoEquals", "batchElimination", nil, "name=value"},
		{"ErrBadChoice", "tiebreakMode=coinToss", nil, "useCandidateOrder"},
		{"ErrBadBool", "hareQuota=maybe", nil, "true or false"},
		{"ErrOutOfRange", "decimalPlacesForVoteArithmetic=21", nil, "from 1 to 20"},
		{"ErrSeedTooBig", "randomSeed=140737488355328", nil, "randomSeed"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, err := ParseRuleArg(tc.arg)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Errorf("err = %v, want one mentioning %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			r := tally.DefaultRules()
			s.Apply(&r)
			if !tc.check(r) {
				t.Errorf("%s did not take effect: %+v", tc.arg, r)
			}
		})
	}
}

// FuzzParseRule checks that any name and value parse or fail cleanly.
func FuzzParseRule(f *testing.F) {
	for _, n := range RuleNames() {
		f.Add(n, "1")
	}
	f.Add("maxSkippedRanksAllowed", "unlimited")
	f.Fuzz(func(t *testing.T, name, value string) {
		s, err := ParseRule(name, value)
		if err == nil {
			r := tally.DefaultRules()
			s.Apply(&r)
		}
	})
}

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
		settings := Settings(want)
		if len(settings) != len(RuleNames()) {
			t.Fatalf("Settings gave %d rules, want %d", len(settings), len(RuleNames()))
		}
		got := tally.Rules{}
		for _, s := range settings {
			p, err := ParseRule(s.Name, s.Value)
			if err != nil {
				t.Fatalf("ParseRule(%s, %q): %v", s.Name, s.Value, err)
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
