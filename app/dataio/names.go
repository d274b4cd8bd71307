package dataio

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"votedesk/app"
	"votedesk/tally"
	"votedesk/tally/cvr"
)

// How a name in a file was matched to a candidate.
const (
	MatchAlias  = "alias"            // an alias given with the import
	MatchFolded = "case and spacing" // the same name but for letter case and spaces
	// What an official matched a name to, other than a candidate
	// (CVROptions.NoMark, CVROptions.Overvote); the NameMatch's Candidate
	// says the same.
	MatchNoMark   = "a rank left blank"
	MatchOvervote = "an overvote"
)

// NameMatch is a name in a file that is not a candidate's exact name but was
// taken for one.
type NameMatch struct {
	InFile    string `json:"in_file"`
	Candidate string `json:"candidate"`
	How       string `json:"how"`
}

// candidateMatcher resolves the names a file uses to an election's
// candidates: the exact name, else an alias given with the import, else the
// one candidate (or alias) whose name is the same but for letter case and
// runs of spaces. It is a cvr.Candidates.
type candidateMatcher struct {
	names   []string
	exact   map[string]uint16
	aliases map[string]uint16
	folded  map[string]int // folded name -> candidate, -1 when two differ
	matched map[string]NameMatch
	order   []string // names in matched, in the order first matched

	noMark, overvote map[string]bool // names an official matched to a blank rank, an overvote
}

// newMatcher builds the matcher for candidates names and an import's
// aliases (name in a file -> candidate name) and names for a blank rank or
// an overvote. An alias must lead to a candidate, and may not be another
// candidate's name.
func newMatcher(names []string, opts CVROptions) (*candidateMatcher, error) {
	aliases := opts.Aliases
	m := &candidateMatcher{
		names: names, exact: make(map[string]uint16, len(names)), aliases: map[string]uint16{},
		folded: make(map[string]int, len(names)), matched: map[string]NameMatch{},
		noMark: setOf(opts.NoMark), overvote: setOf(opts.Overvote),
	}
	for i, n := range names {
		m.exact[n] = uint16(i)
		m.fold(n, i)
	}
	for alias, target := range aliases {
		alias = strings.TrimSpace(alias)
		if alias == "" {
			return nil, app.Errorf(app.CodeInvalid, "an alias for %q is empty", target)
		}
		c, ok := m.exact[strings.TrimSpace(target)]
		if !ok {
			i, found := m.folded[foldName(target)]
			if !found || i < 0 {
				return nil, app.Errorf(app.CodeInvalid, "alias %q names %q, which is not a candidate (candidates: %s)", alias, target, strings.Join(names, ", "))
			}
			c = uint16(i)
		}
		if other, ok := m.exact[alias]; ok && other != c {
			return nil, app.Errorf(app.CodeInvalid, "alias %q for %q is the name of candidate %q", alias, names[c], names[other])
		}
		m.aliases[alias] = c
	}
	for alias, c := range m.aliases {
		m.fold(alias, int(c))
	}
	return m, nil
}

// fold records that the folded form of name leads to candidate c.
func (m *candidateMatcher) fold(name string, c int) {
	f := foldName(name)
	if prev, ok := m.folded[f]; ok && prev != c {
		m.folded[f] = -1
		return
	}
	m.folded[f] = c
}

// foldName lower-cases a name and reduces its spaces to single ones.
func foldName(s string) string { return strings.Join(strings.Fields(strings.ToLower(s)), " ") }

// setOf makes a set of names.
func setOf(names []string) map[string]bool {
	set := make(map[string]bool, len(names))
	for _, n := range names {
		set[n] = true
	}
	return set
}

// NoMark reports whether a name in a file stands for a rank left blank
// (cvr.NoMarks).
func (m *candidateMatcher) NoMark(name string) bool {
	if m.noMark[name] {
		m.note(name, MatchNoMark, MatchNoMark)
		return true
	}
	return false
}

// note remembers a name matched other than exactly.
func (m *candidateMatcher) note(name, candidate, how string) {
	if _, seen := m.matched[name]; !seen {
		m.matched[name] = NameMatch{InFile: name, Candidate: candidate, How: how}
		m.order = append(m.order, name)
	}
}

// Candidate returns the candidate a name in a file stands for.
func (m *candidateMatcher) Candidate(name string) (uint16, bool) {
	if c, ok := m.exact[name]; ok {
		return c, true
	}
	if m.overvote[name] {
		m.note(name, MatchOvervote, MatchOvervote)
		return tally.Overvote, true
	}
	how := MatchAlias
	c, ok := m.aliases[strings.TrimSpace(name)]
	if !ok {
		i, found := m.folded[foldName(name)]
		if !found || i < 0 {
			return 0, false
		}
		c, how = uint16(i), MatchFolded
	}
	m.note(name, m.names[c], how)
	return c, true
}

// matches lists the names matched other than exactly, in the order met.
func (m *candidateMatcher) matches() []NameMatch {
	out := make([]NameMatch, len(m.order))
	for i, n := range m.order {
		out[i] = m.matched[n]
	}
	return out
}

// ParseAlias reads "NAME=CANDIDATE", as the command line takes an alias.
func ParseAlias(arg string) (alias, candidate string, err error) {
	alias, candidate, ok := strings.Cut(arg, "=")
	if !ok || strings.TrimSpace(alias) == "" || strings.TrimSpace(candidate) == "" {
		return "", "", fmt.Errorf("alias %q is not NAME=CANDIDATE", arg)
	}
	return strings.TrimSpace(alias), strings.TrimSpace(candidate), nil
}

// UnknownNames reads the files as ReadCVRs would and lists, in the order
// first met, the names in them that are no candidate of the election nor
// matched by the options (aliases, names for a blank rank or an
// overvote): what an official must match before the files can be
// imported. A file that cannot be read for another reason is that error.
func UnknownNames(ctx context.Context, names []string, sources []cvr.Source, opts CVROptions) ([]string, error) {
	m, err := newMatcher(names, opts)
	if err != nil {
		return nil, err
	}
	d := &discovery{m: m, index: map[string]uint16{}}
	for _, src := range sources {
		if err := completeSource(&src, m); err != nil {
			return nil, err
		}
		var set tally.BallotSet
		if _, err := cvr.Read(ctx, src, d, &set, cvr.Options{MaxBallots: MaxImportBallots}); err != nil && !errors.Is(err, cvr.ErrUnknownCandidate) {
			return nil, readError(err)
		}
	}
	return d.unknown, nil
}

// discovery resolves every name in a file: as the matcher does, else as a
// new candidate past the election's, which it remembers as unknown.
type discovery struct {
	m       *candidateMatcher
	unknown []string
	index   map[string]uint16
}

// Candidate returns the index of the name's candidate, known or not.
func (d *discovery) Candidate(name string) (uint16, bool) {
	if c, ok := d.m.Candidate(name); ok {
		return c, true
	}
	if i, ok := d.index[name]; ok {
		return i, true
	}
	if len(d.m.names)+len(d.unknown) >= tally.MaxCandidates {
		return 0, false
	}
	i := uint16(len(d.m.names) + len(d.unknown))
	d.index[name] = i
	d.unknown = append(d.unknown, name)
	return i, true
}

// NoMark reports whether the name was matched to a rank left blank.
func (d *discovery) NoMark(name string) bool { return d.m.NoMark(name) }
