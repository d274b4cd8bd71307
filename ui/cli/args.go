package cli

import (
	"fmt"
	"strings"
)

// usageError is a mistake in how a command was called (exit status 2).
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return &usageError{fmt.Sprintf(format, args...)} }

// flagKind says whether a flag takes a value.
type flagKind int

const (
	boolFlag flagKind = iota
	valueFlag
)

// args is a parsed command line: positional arguments and flag values, in
// any order (flags may come after positional arguments).
type args struct {
	pos   []string
	vals  map[string][]string
	given map[string]bool
}

// parseArgs separates flags (--name, --name=value, --name value) from
// positional arguments. spec lists the flags the command accepts; "--" ends
// the flags.
func parseArgs(in []string, spec map[string]flagKind) (*args, error) {
	a := &args{vals: map[string][]string{}, given: map[string]bool{}}
	for i := 0; i < len(in); i++ {
		s := in[i]
		if s == "--" {
			a.pos = append(a.pos, in[i+1:]...)
			break
		}
		if !strings.HasPrefix(s, "-") || s == "-" || isNumber(s) {
			a.pos = append(a.pos, s)
			continue
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(s, "-"), "=")
		kind, ok := spec[name]
		if !ok {
			return nil, usagef("unknown flag %s", s)
		}
		switch {
		case kind == boolFlag && !hasValue:
			value = "true"
		case kind == valueFlag && !hasValue:
			if i+1 >= len(in) {
				return nil, usagef("flag --%s needs a value", name)
			}
			i++
			value = in[i]
		}
		if kind == boolFlag {
			if _, err := parseBool(name, value); err != nil {
				return nil, err
			}
		}
		a.vals[name] = append(a.vals[name], value)
		a.given[name] = true
	}
	return a, nil
}

func isNumber(s string) bool {
	s = strings.TrimPrefix(s, "-")
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// str returns the last value of a flag, or "".
func (a *args) str(name string) string {
	v := a.vals[name]
	if len(v) == 0 {
		return ""
	}
	return v[len(v)-1]
}

// all returns every value of a repeatable flag.
func (a *args) all(name string) []string { return a.vals[name] }

// flag returns a boolean flag's value.
func (a *args) flag(name string) bool {
	if !a.given[name] {
		return false
	}
	b, _ := parseBool(name, a.str(name))
	return b
}

// boolPtr returns a boolean flag's value, or nil when it was not given.
func (a *args) boolPtr(name string) *bool {
	if !a.given[name] {
		return nil
	}
	b := a.flag(name)
	return &b
}

// strPtr returns a flag's value, or nil when it was not given.
func (a *args) strPtr(name string) *string {
	if !a.given[name] {
		return nil
	}
	s := a.str(name)
	return &s
}

// want checks the number of positional arguments: at least min, at most max
// (max < 0: no limit).
func (a *args) want(min, max int, usage string) error {
	if len(a.pos) < min || (max >= 0 && len(a.pos) > max) {
		return usagef("usage: votedesk %s", usage)
	}
	return nil
}

func parseBool(name, v string) (bool, error) {
	switch strings.ToLower(v) {
	case "", "true", "1", "yes", "on":
		return true, nil
	case "false", "0", "no", "off":
		return false, nil
	}
	return false, usagef("flag --%s takes true or false, not %q", name, v)
}
