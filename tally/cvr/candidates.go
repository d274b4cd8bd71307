package cvr

import "votedesk/tally"

// UndeclaredWriteIn is the name under which Read asks Candidates for the
// contest's undeclared write-in candidate, whatever label the file uses for it
// (RCTab's name for that pseudo-candidate).
const UndeclaredWriteIn = "Undeclared Write-ins"

// OvervoteName is the candidate name WriteCDF gives explicit overvotes
// (tally.Overvote), as RCTab does; read such a file back with
// Source.OvervoteLabel set to it.
const OvervoteName = "overvote"

// Candidates maps the candidate names a file uses to the contest's candidate
// indexes. The contest decides what a name it does not know means: Candidate
// returning false makes Read fail with ErrUnknownCandidate (RCTab's rule),
// while a resolver that adds the name as a new candidate accepts it.
// Read asks for each distinct name once.
type Candidates interface {
	// Candidate returns the index of the candidate with this name or alias.
	Candidate(name string) (index uint16, ok bool)
}

// NoMarks is a Candidates that may say a name in the file stands for no
// mark at its rank (a rank left blank), as a source's skipped-rank label
// does: an official matching a file's names to the election's, say.
type NoMarks interface {
	NoMark(name string) bool
}

// CandidateIndex is a ready-made Candidates: each name or alias mapped to its
// candidate's index.
type CandidateIndex map[string]uint16

// Candidate returns the index recorded for name.
func (c CandidateIndex) Candidate(name string) (uint16, bool) {
	i, ok := c[name]
	return i, ok
}

// IndexCandidates returns a CandidateIndex that maps names[i] to i.
func IndexCandidates(names ...string) CandidateIndex {
	c := make(CandidateIndex, len(names))
	for i, n := range names {
		c[n] = uint16(i)
	}
	return c
}

// fileCandidates is the resolver of ReadFile: it accepts every name, giving
// new names the next index, so the file's own candidates become the contest.
type fileCandidates struct {
	names []string
	index map[string]uint16
}

// Candidate returns the name's index, adding the name if it is new.
func (c *fileCandidates) Candidate(name string) (uint16, bool) {
	if i, ok := c.index[name]; ok {
		return i, true
	}
	if len(c.names) >= tally.MaxCandidates {
		return 0, false
	}
	i := uint16(len(c.names))
	c.names = append(c.names, name)
	c.index[name] = i
	return i, true
}

// declare adds the candidates a file lists, in the file's order, so that
// candidates with no marks are kept and the order is the file's.
func (c *fileCandidates) declare(names []string) {
	for _, n := range names {
		c.Candidate(n)
	}
}
