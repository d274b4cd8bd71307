package app

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxNameLength is the longest name (in characters) of a user, election,
// candidate or voter.
const MaxNameLength = 200

// CleanName trims a name and checks it: 1 to MaxNameLength characters, no
// control characters, and not starting with '#' (which key layouts reserve).
// kind says what is named, for the message ("election name").
func CleanName(kind, name string) (string, error) {
	n := strings.TrimSpace(name)
	switch {
	case n == "":
		return "", Errorf(CodeInvalid, "%s is empty", kind)
	case !utf8.ValidString(n):
		return "", Errorf(CodeInvalid, "%s %q is not valid UTF-8", kind, n)
	case utf8.RuneCountInString(n) > MaxNameLength:
		return "", Errorf(CodeInvalid, "%s is longer than %d characters", kind, MaxNameLength)
	case strings.HasPrefix(n, "#"):
		return "", Errorf(CodeInvalid, "%s %q may not start with '#'", kind, n)
	}
	for _, r := range n {
		if unicode.IsControl(r) {
			return "", Errorf(CodeInvalid, "%s %q contains a control character", kind, n)
		}
	}
	return n, nil
}

// CleanEmail trims and lower-cases an email address and checks its shape:
// one '@' with text on both sides, no spaces, at most 254 characters.
func CleanEmail(email string) (string, error) {
	e := strings.ToLower(strings.TrimSpace(email))
	at := strings.IndexByte(e, '@')
	switch {
	case e == "":
		return "", Errorf(CodeInvalid, "email is empty")
	case len(e) > 254:
		return "", Errorf(CodeInvalid, "email is longer than 254 characters")
	case at <= 0 || at != strings.LastIndexByte(e, '@') || at == len(e)-1:
		return "", Errorf(CodeInvalid, "email %q is not an address like name@example.org", e)
	case strings.ContainsFunc(e, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }):
		return "", Errorf(CodeInvalid, "email %q contains spaces", e)
	}
	return e, nil
}

// cleanNames cleans a list of names, refusing an empty list and duplicates.
func cleanNames(kind string, names []string) ([]string, error) {
	if len(names) == 0 {
		return nil, Errorf(CodeInvalid, "no %s given", kind+"s")
	}
	out := make([]string, 0, len(names))
	seen := make(map[string]bool, len(names))
	for _, raw := range names {
		n, err := CleanName(kind, raw)
		if err != nil {
			return nil, err
		}
		if seen[n] {
			return nil, Errorf(CodeInvalid, "%s %q is listed twice", kind, n)
		}
		seen[n] = true
		out = append(out, n)
	}
	return out, nil
}
