package app

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// MaxNameLength is the longest name (in characters) of a user, election,
// candidate or voter.
const MaxNameLength = 200

// Names are normalized once, where they enter (commands, files read), and
// the rules of format-2 events accept only normalized names:
//   - Unicode NFC, so "José" typed with a combining accent and with a
//     precomposed é is one name;
//   - spaces trimmed, and every run of white space inside made one space;
//   - no control characters, and no invisible or direction-changing
//     characters (Unicode format characters such as zero-width spaces and
//     joiners, bidi controls and isolates, the soft hyphen), so that no two
//     names look alike but differ;
//   - not starting with '#' (key layouts reserve it).
//
// Names compare as the domain defines them (NameKey): letter case and
// spaces aside. Two users, two candidates of an election, two elections, or
// two voters of a poll book may not share a key.

// CleanName normalizes a name and checks it: 1 to MaxNameLength characters
// after normalizing, nothing invisible or controlling. kind says what is
// named, for the message ("election name").
func CleanName(kind, name string) (string, error) {
	if !utf8.ValidString(name) {
		return "", Errorf(CodeInvalid, "%s %q is not valid UTF-8", kind, name)
	}
	for _, r := range name {
		if unicode.IsControl(r) && !unicode.IsSpace(r) || invisible(r) {
			return "", Errorf(CodeInvalid, "%s \"%s\" contains an invisible or control character (U+%04X); type the name again without it", kind, visible(name), r)
		}
	}
	n := strings.Join(strings.Fields(norm.NFC.String(name)), " ")
	switch {
	case n == "":
		return "", Errorf(CodeInvalid, "%s is empty", kind)
	case utf8.RuneCountInString(n) > MaxNameLength:
		return "", Errorf(CodeInvalid, "%s is longer than %d characters", kind, MaxNameLength)
	case strings.HasPrefix(n, "#"):
		return "", Errorf(CodeInvalid, "%s %q may not start with '#'", kind, n)
	}
	return n, nil
}

// invisible reports whether r is a character that shows nothing or changes
// how the text around it is shown: Unicode's format characters (Cf: zero
// width space, joiners, bidi marks, embeddings, overrides and isolates, the
// soft hyphen, ...) and the few other blanks that are not white space.
func invisible(r rune) bool {
	switch r {
	case '\u115F', '\u1160', '\u3164', '\uFFA0', '\u2800', '\u034F':
		return true
	}
	return unicode.Is(unicode.Cf, r)
}

// visible writes a name for a message with its invisible and control
// characters shown as <U+XXXX>.
func visible(s string) string {
	var b strings.Builder
	for _, r := range s {
		if invisible(r) || unicode.IsControl(r) {
			fmt.Fprintf(&b, "<U+%04X>", r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// NameKey is what two names are compared by: normalized (CleanName's
// rules, without refusing anything), letter case folded.
func NameKey(name string) string {
	if plainName(name) {
		return strings.ToLower(name) // returns name itself when it has no capitals
	}
	n := strings.Join(strings.Fields(norm.NFC.String(name)), " ")
	return strings.ToLower(n)
}

// appendNameKey appends NameKey(name) to b, without making a string of
// either for the usual name: an addition to a poll book compares every
// name already in it.
func appendNameKey(b, name []byte) []byte {
	if !plainName(name) {
		return append(b, NameKey(string(name))...)
	}
	for _, c := range name {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b = append(b, c)
	}
	return b
}

// plainName reports whether name is ASCII without spacing to tidy (no
// space at either end, none doubled, no tab or line break): normalizing
// leaves it as it is, so its key is its lower case.
func plainName[T string | []byte](name T) bool {
	for i := 0; i < len(name); i++ {
		switch c := name[i]; {
		case c >= 0x80 || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r':
			return false
		case c == ' ' && (i == 0 || i == len(name)-1 || name[i-1] == ' '):
			return false
		}
	}
	return true
}

// legacyName checks a name the way format-1 events were checked, so the
// log written before names were normalized replays as it did.
func legacyName(kind, name string) error {
	n := strings.TrimSpace(name)
	switch {
	case n == "":
		return Errorf(CodeInvalid, "%s is empty", kind)
	case !utf8.ValidString(n):
		return Errorf(CodeInvalid, "%s %q is not valid UTF-8", kind, n)
	case utf8.RuneCountInString(n) > MaxNameLength:
		return Errorf(CodeInvalid, "%s is longer than %d characters", kind, MaxNameLength)
	case strings.HasPrefix(n, "#"):
		return Errorf(CodeInvalid, "%s %q may not start with '#'", kind, n)
	}
	for _, r := range n {
		if unicode.IsControl(r) {
			return Errorf(CodeInvalid, "%s %q contains a control character", kind, n)
		}
	}
	return nil
}

// checkName is the rules' check of a name in an event: format-2 events
// carry only normalized names; format-1 events are checked as they were.
func (a *applier) checkName(kind, name string) error {
	if !a.ev.Signed() {
		return legacyName(kind, name)
	}
	n, err := CleanName(kind, name)
	if err != nil {
		return err
	}
	if n != name {
		return Errorf(CodeInvalid, "%s %q is not in normal form (%q)", kind, name, n)
	}
	return nil
}

// CleanCandidateName is CleanName for a candidate, which may also not
// contain '|' (it ties candidates at one rank where rankings are typed).
func CleanCandidateName(name string) (string, error) {
	n, err := CleanName("candidate name", name)
	if err != nil {
		return "", err
	}
	if strings.ContainsRune(n, '|') {
		return "", Errorf(CodeInvalid, "candidate name %q may not contain '|' (it separates tied candidates)", n)
	}
	return n, nil
}

// CleanEmail trims and lower-cases an email address and checks its shape:
// one '@' with text on both sides, no spaces, at most 254 characters.
func CleanEmail(email string) (string, error) {
	e := strings.ToLower(strings.TrimSpace(norm.NFC.String(email)))
	at := strings.IndexByte(e, '@')
	switch {
	case e == "":
		return "", Errorf(CodeInvalid, "email is empty")
	case len(e) > 254:
		return "", Errorf(CodeInvalid, "email is longer than 254 characters")
	case at <= 0 || at != strings.LastIndexByte(e, '@') || at == len(e)-1:
		return "", Errorf(CodeInvalid, "email %q is not an address like name@example.org", e)
	case strings.ContainsFunc(e, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) || invisible(r) }):
		return "", Errorf(CodeInvalid, "email %q contains spaces or invisible characters", e)
	}
	return e, nil
}

// cleanNames cleans a list of names, refusing an empty list and duplicates
// (by NameKey).
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
		if seen[NameKey(n)] {
			return nil, Errorf(CodeInvalid, "%s %q is listed twice", kind, n)
		}
		seen[NameKey(n)] = true
		out = append(out, n)
	}
	return out, nil
}

// trimmed is a name as format-1 events keyed it.
func trimmed(name string) string { return strings.TrimSpace(name) }
