package app

import (
	"sort"
	"strconv"
	"strings"

	"votedesk/tally"
)

// DefaultMethod is how an election is counted when it names no method.
const DefaultMethod = tally.IRV

// Methods lists the counting methods an election may store, by name: every
// method tally counts with.
var Methods = methodNames()

func methodNames() []string {
	names := make([]string, len(tally.Methods))
	for i, m := range tally.Methods {
		names[i] = string(m)
	}
	return names
}

// CheckMethod reports whether m names a counting method ("" means the
// default).
func CheckMethod(m string) error {
	if m == "" {
		return nil
	}
	if _, err := tally.ParseMethod(m); err != nil {
		return Errorf(CodeInvalid, "unknown counting method %q (methods: %s)", m, methodList())
	}
	return nil
}

func methodList() string { return strings.Join(Methods, ", ") }

// CheckRules checks counting rules given as RCTab field names and values.
func CheckRules(rules map[string]string) error {
	_, err := buildRules(rules)
	return err
}

// buildRules turns NAME=VALUE rules into tally rules over RCTab's defaults,
// applied in name order so the result does not depend on map order.
func buildRules(rules map[string]string) (tally.Rules, error) {
	r := tally.DefaultRules()
	names := make([]string, 0, len(rules))
	for k := range rules {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		if k == RuleSmallGroup {
			// Not a counting rule: the disclosure rule reads it (SmallGroup).
			if n, err := strconv.Atoi(rules[k]); err != nil || n < 1 {
				return tally.Rules{}, Errorf(CodeInvalid, "rule %s=%q: want a whole number of ballots, at least 1", k, rules[k])
			}
			continue
		}
		s, err := tally.ParseRule(k, rules[k])
		if err != nil {
			return tally.Rules{}, &Error{Code: CodeInvalid, Message: tally.Message(err), Err: err}
		}
		s.Apply(&r)
	}
	return r, nil
}
