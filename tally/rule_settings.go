package tally

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Setting is one parsed rule, ready to apply to Rules.
type Setting struct {
	Name, Value string
	apply       func(*Rules)
}

// Apply sets the rule.
func (s Setting) Apply(r *Rules) { s.apply(r) }

// The bounds RCTab enforces on a config's rules.
const (
	minRandomSeed = -140737488355328
	maxRandomSeed = 140737488355327
)

// ruleParsers maps each rule name of RCTab's config "rules" section to the
// parser of its value.
var ruleParsers = map[string]func(v string) (func(*Rules), error){
	"tiebreakMode": func(v string) (func(*Rules), error) {
		m, err := choice(v, TiebreakModes)
		return func(r *Rules) { r.TiebreakMode = m }, err
	},
	"overvoteRule": func(v string) (func(*Rules), error) {
		m, err := choice(v, OvervoteRules)
		return func(r *Rules) { r.OvervoteRule = m }, err
	},
	"winnerElectionMode": func(v string) (func(*Rules), error) {
		m, err := choice(v, WinnerElectionModes)
		return func(r *Rules) { r.WinnerElectionMode = m }, err
	},
	"randomSeed": func(v string) (func(*Rules), error) {
		n, err := integer(v, minRandomSeed, maxRandomSeed, true)
		return func(r *Rules) { r.RandomSeed = n }, err
	},
	"numberOfWinners": intRule(0, 1<<16, false, func(r *Rules, n int64) { r.NumberOfWinners = int(n) }),
	"multiSeatBottomsUpPercentageThreshold": intRule(1, 100, true, func(r *Rules, n int64) {
		r.MultiSeatBottomsUpPercentageThreshold = int(n)
	}),
	"decimalPlacesForVoteArithmetic": intRule(1, 20, false, func(r *Rules, n int64) { r.DecimalPlacesForVoteArithmetic = int(n) }),
	"minimumVoteThreshold":           intRule(0, 1000000, true, func(r *Rules, n int64) { r.MinimumVoteThreshold = n }),
	"stopTabulationEarlyAfterRound":  intRule(1, 1<<31-1, true, func(r *Rules, n int64) { r.StopTabulationEarlyAfterRound = int(n) }),
	"maxSkippedRanksAllowed": func(v string) (func(*Rules), error) {
		if strings.EqualFold(strings.TrimSpace(v), "unlimited") {
			return func(r *Rules) { r.MaxSkippedRanksAllowed = Unlimited }, nil
		}
		n, err := integer(v, 0, 1<<31-1, false)
		if err != nil {
			err = fmt.Errorf("%q is not \"unlimited\" or an integer from 0", v)
		}
		return func(r *Rules) { r.MaxSkippedRanksAllowed = int(n) }, err
	},
	"maxRankingsAllowed": func(v string) (func(*Rules), error) {
		if strings.EqualFold(strings.TrimSpace(v), "max") {
			return func(r *Rules) { r.MaxRankingsAllowed = MaxRankingsAll }, nil
		}
		n, err := integer(v, 1, 1<<31-1, false)
		if err != nil {
			err = fmt.Errorf("%q is not \"max\" or an integer from 1", v)
		}
		return func(r *Rules) { r.MaxRankingsAllowed = int(n) }, err
	},
	"nonIntegerWinningThreshold":       boolRule(func(r *Rules, b bool) { r.NonIntegerWinningThreshold = b }),
	"doesFirstRoundDetermineThreshold": boolRule(func(r *Rules, b bool) { r.DoesFirstRoundDetermineThreshold = b }),
	"hareQuota":                        boolRule(func(r *Rules, b bool) { r.HareQuota = b }),
	"batchElimination":                 boolRule(func(r *Rules, b bool) { r.BatchElimination = b }),
	"continueUntilTwoCandidatesRemain": boolRule(func(r *Rules, b bool) { r.ContinueUntilTwoCandidatesRemain = b }),
	"exhaustOnDuplicateCandidate":      boolRule(func(r *Rules, b bool) { r.ExhaustOnDuplicateCandidate = b }),
}

// RuleNames lists the rule names ParseRule accepts, sorted.
func RuleNames() []string {
	names := make([]string, 0, len(ruleParsers))
	for n := range ruleParsers {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// ParseRule parses one rule given as RCTab's field name and a value, e.g.
// ParseRule("overvoteRule", "exhaustIfMultipleContinuing"). The error names
// the valid rule names or values.
func ParseRule(name, value string) (Setting, error) {
	parse, ok := ruleParsers[name]
	if !ok {
		return Setting{}, errorf("unknown rule %q; valid rules are %s", name, strings.Join(RuleNames(), ", "))
	}
	apply, err := parse(value)
	if err != nil {
		return Setting{}, errorf("%w", &RuleValueError{Name: name, Err: err})
	}
	return Setting{Name: name, Value: value, apply: apply}, nil
}

// RuleValueError is a rule whose value ParseRule refused: Err says why.
type RuleValueError struct {
	Name string
	Err  error
}

func (e *RuleValueError) Error() string { return "rule " + e.Name + ": " + e.Err.Error() }

// Unwrap returns why the value was refused.
func (e *RuleValueError) Unwrap() error { return e.Err }

// IsRuleName reports whether ParseRule knows the rule name.
func IsRuleName(name string) bool {
	_, ok := ruleParsers[name]
	return ok
}

// ParseRuleArg parses "name=value".
func ParseRuleArg(arg string) (Setting, error) {
	name, value, ok := strings.Cut(arg, "=")
	if !ok {
		return Setting{}, errorf("rule %q is not name=value", arg)
	}
	return ParseRule(strings.TrimSpace(name), strings.TrimSpace(value))
}

func choice[T ~string](v string, valid []T) (T, error) {
	for _, c := range valid {
		if string(c) == strings.TrimSpace(v) {
			return c, nil
		}
	}
	return "", fmt.Errorf("%q is not one of %v", v, valid)
}

// integer parses a whole number in [lo, hi]; blank is 0 when allowed.
func integer(v string, lo, hi int64, blankOK bool) (int64, error) {
	v = strings.TrimSpace(v)
	if v == "" && blankOK {
		return 0, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < lo || n > hi {
		return 0, fmt.Errorf("%q is not an integer from %d to %d", v, lo, hi)
	}
	return n, nil
}

func intRule(lo, hi int64, blankOK bool, set func(*Rules, int64)) func(string) (func(*Rules), error) {
	return func(v string) (func(*Rules), error) {
		n, err := integer(v, lo, hi, blankOK)
		return func(r *Rules) { set(r, n) }, err
	}
}

func boolRule(set func(*Rules, bool)) func(string) (func(*Rules), error) {
	return func(v string) (func(*Rules), error) {
		b, err := strconv.ParseBool(strings.TrimSpace(v))
		if err != nil {
			err = fmt.Errorf("%q is not true or false", v)
		}
		return func(r *Rules) { set(r, b) }, err
	}
}

// Settings returns every rule of r under its RCTab name, sorted by name,
// with the value ParseRule reads back into the same rule: the rules as a
// config's "rules" section would state them.
func Settings(r Rules) []Setting {
	blankIfZero := func(n int64) string {
		if n == 0 {
			return ""
		}
		return strconv.FormatInt(n, 10)
	}
	values := map[string]string{
		"tiebreakMode":                          string(r.TiebreakMode),
		"overvoteRule":                          string(r.OvervoteRule),
		"winnerElectionMode":                    string(r.WinnerElectionMode),
		"randomSeed":                            strconv.FormatInt(r.RandomSeed, 10),
		"numberOfWinners":                       strconv.Itoa(r.NumberOfWinners),
		"multiSeatBottomsUpPercentageThreshold": blankIfZero(int64(r.MultiSeatBottomsUpPercentageThreshold)),
		"decimalPlacesForVoteArithmetic":        strconv.Itoa(r.DecimalPlacesForVoteArithmetic),
		"minimumVoteThreshold":                  strconv.FormatInt(r.MinimumVoteThreshold, 10),
		"stopTabulationEarlyAfterRound":         blankIfZero(int64(r.StopTabulationEarlyAfterRound)),
		"maxSkippedRanksAllowed":                strconv.Itoa(r.MaxSkippedRanksAllowed),
		"maxRankingsAllowed":                    strconv.Itoa(r.MaxRankingsAllowed),
		"nonIntegerWinningThreshold":            strconv.FormatBool(r.NonIntegerWinningThreshold),
		"doesFirstRoundDetermineThreshold":      strconv.FormatBool(r.DoesFirstRoundDetermineThreshold),
		"hareQuota":                             strconv.FormatBool(r.HareQuota),
		"batchElimination":                      strconv.FormatBool(r.BatchElimination),
		"continueUntilTwoCandidatesRemain":      strconv.FormatBool(r.ContinueUntilTwoCandidatesRemain),
		"exhaustOnDuplicateCandidate":           strconv.FormatBool(r.ExhaustOnDuplicateCandidate),
	}
	if r.MaxSkippedRanksAllowed == Unlimited {
		values["maxSkippedRanksAllowed"] = "unlimited"
	}
	if r.MaxRankingsAllowed == MaxRankingsAll {
		values["maxRankingsAllowed"] = "max"
	}
	out := make([]Setting, 0, len(values))
	for _, name := range RuleNames() {
		apply, _ := ruleParsers[name](values[name])
		out = append(out, Setting{Name: name, Value: values[name], apply: apply})
	}
	return out
}
