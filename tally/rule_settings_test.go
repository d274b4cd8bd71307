package tally

import (
	"strings"
	"testing"
)

// TestParseRule checks rule overrides as the CLI passes them.
func TestParseRule(t *testing.T) {
	cases := []struct {
		name, arg string
		check     func(Rules) bool
		wantErr   string
	}{
		{"OvervoteRule", "overvoteRule=exhaustIfMultipleContinuing", func(r Rules) bool { return r.OvervoteRule == ExhaustIfMultipleContinuing }, ""},
		{"BatchElimination", "batchElimination=true", func(r Rules) bool { return r.BatchElimination }, ""},
		{"UnlimitedSkips", "maxSkippedRanksAllowed=unlimited", func(r Rules) bool { return r.MaxSkippedRanksAllowed == Unlimited }, ""},
		{"MaxRankings", "maxRankingsAllowed=max", func(r Rules) bool { return r.MaxRankingsAllowed == MaxRankingsAll }, ""},
		{"Seats", "numberOfWinners=3", func(r Rules) bool { return r.NumberOfWinners == 3 }, ""},
		{"Seed", "randomSeed=-42", func(r Rules) bool { return r.RandomSeed == -42 }, ""},
		{"BlankStopEarly", "stopTabulationEarlyAfterRound=", func(r Rules) bool { return r.StopTabulationEarlyAfterRound == 0 }, ""},
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
			r := DefaultRules()
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
			r := DefaultRules()
			s.Apply(&r)
		}
	})
}
