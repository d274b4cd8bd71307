package cvr

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"

	"votedesk/tally"
)

// readBLT reads an OpenSTV / ERS ballot file:
//
//	6 1                      candidates and seats
//	-3                       optional: withdrawn candidates, negated
//	1 2 4 - 3 0              weight, then candidate numbers by rank, then 0
//	(b-17) 1 5=6 2 0         optional ballot id in parentheses; weight 1
//	0                        end of ballots
//	"Bob Kiss"               one quoted name per candidate, in number order
//	"2009 Burlington Mayor"  optional title
//
// In a ballot "-" is a skipped rank, "a=b" marks a and b at the same rank
// (an overvote, or a tie), and "-" inside such a group is a candidate the
// count did not record: "-=-" is an overvote of unknown candidates, read as
// tally.Overvote. "#" starts a comment.
func readBLT(j *job) error {
	f, err := j.open()
	if err != nil {
		return err
	}
	defer f.Close()
	p := bltParser{j: j, lines: newLineReader(j.counting(f))}
	return p.parse()
}

// bltParser holds the state of reading one BLT file. Marks are first stored
// with the file's candidate numbers (less one), and mapped to the contest's
// candidates once the names, which come last, are known.
type bltParser struct {
	j          *job
	lines      *lineReader
	line       int
	candidates int
	used       []bool
	names      []string
	nameLines  []int
}

// next returns the next line that is neither blank nor only a comment, with
// surrounding space trimmed, or io.EOF.
func (p *bltParser) next() ([]byte, error) {
	for {
		b, err := p.lines.next()
		if err != nil {
			return nil, err
		}
		p.line = p.lines.line
		b = bytes.TrimSpace(b)
		if len(b) > 0 && b[0] != '#' {
			return b, nil
		}
	}
}

// fail returns an error at the current line.
func (p *bltParser) fail(format string, a ...any) error {
	return p.j.at(p.line, 0, fmt.Errorf(format, a...))
}

// eof turns the end of the file into an error saying what was missing.
func (p *bltParser) eof(err error, want string) error {
	if errors.Is(err, io.EOF) {
		return p.j.at(p.lines.line, 0, fmt.Errorf("the file ends before %s", want))
	}
	return err
}

func (p *bltParser) parse() error {
	line, err := p.next()
	if err != nil {
		return p.eof(err, "the line giving the numbers of candidates and seats")
	}
	head := bytes.Fields(stripComment(line))
	if len(head) != 2 {
		return p.fail("expected the numbers of candidates and seats, got %q", line)
	}
	n, ok := parseUint(head[0], tally.MaxCandidates)
	if !ok || n == 0 {
		return p.fail("the number of candidates must be from 1 to %d, got %q", tally.MaxCandidates, head[0])
	}
	seats, ok := parseUint(head[1], math.MaxInt32)
	if !ok {
		return p.fail("the number of seats must be a whole number, got %q", head[1])
	}
	p.candidates = int(n)
	p.used = make([]bool, n)
	p.j.meta.seats = int(seats)
	line, err = p.next()
	if err != nil {
		return p.eof(err, "the end-of-ballots line 0")
	}
	var withdrawn []int
	if line[0] == '-' {
		for _, t := range bytes.Fields(stripComment(line)) {
			k, ok := parseUint(t[1:], uint64(p.candidates))
			if t[0] != '-' || !ok || k == 0 {
				return p.fail("withdrawn candidates are written -1 to -%d, got %q", p.candidates, t)
			}
			withdrawn = append(withdrawn, int(k)-1)
		}
		if line, err = p.next(); err != nil {
			return p.eof(err, "the end-of-ballots line 0")
		}
	}
	if err := p.ballots(line); err != nil {
		return err
	}
	if err := p.namesAndTitle(); err != nil {
		return err
	}
	for _, k := range withdrawn {
		p.j.meta.withdrawn = append(p.j.meta.withdrawn, p.names[k])
	}
	return p.mapCandidates()
}

// ballots reads ballot lines, starting with line, up to the line "0".
func (p *bltParser) ballots(line []byte) error {
	var marks []tally.Mark
	for {
		line = stripComment(line)
		if string(line) == "0" {
			return nil
		}
		var id []byte
		if line[0] == '(' {
			end := bytes.IndexByte(line, ')')
			if end < 0 {
				return p.fail("ballot id in parentheses is not closed")
			}
			id, line = bytes.TrimSpace(line[1:end]), line[end+1:]
		}
		tokens := bytes.Fields(line)
		if len(tokens) == 0 {
			return p.fail("expected a ballot weight after the ballot id")
		}
		weight, ok := parseUint(tokens[0], math.MaxUint32)
		if !ok || weight == 0 {
			return p.fail("ballot weight must be a whole number from 1, got %q", tokens[0])
		}
		if id != nil && weight != 1 {
			return p.fail("a ballot with an id must have weight 1, got %d", weight)
		}
		if len(tokens) < 2 || string(tokens[len(tokens)-1]) != "0" {
			return p.fail("a ballot line must end with 0")
		}
		var err error
		if marks, err = p.rankings(tokens[1:len(tokens)-1], marks[:0]); err != nil {
			return err
		}
		if err := p.j.add(marks, id, uint32(weight), nil); err != nil {
			return p.j.at(p.line, 0, err)
		}
		if line, err = p.next(); err != nil {
			return p.eof(err, "the end-of-ballots line 0")
		}
	}
}

// rankings turns a ballot's preference tokens into marks. A token is a rank:
// "-" skips it; "a=b" marks a and b there (an overvote, which the rules
// judge); a group with "-" in it ("-=-", "3=-") is an overvote whose
// candidates the count did not record, one tally.Overvote mark.
func (p *bltParser) rankings(tokens [][]byte, marks []tally.Mark) ([]tally.Mark, error) {
	if len(tokens) > 0xFFFF {
		return nil, p.fail("a ballot ranks %d times, more than 65535", len(tokens))
	}
	for i, t := range tokens {
		rank := uint16(i + 1)
		if string(t) == "-" {
			continue
		}
		first, unknown := len(marks), false
		for member := range bytes.SplitSeq(t, []byte{'='}) {
			if string(member) == "-" {
				unknown = true
				continue
			}
			k, ok := parseUint(member, uint64(p.candidates))
			if !ok || k == 0 {
				return nil, p.fail("rank %d: expected a candidate number from 1 to %d, \"-\" or \"a=b\", got %q", rank, p.candidates, t)
			}
			c := uint16(k - 1)
			if !slices.ContainsFunc(marks[first:], func(m tally.Mark) bool { return m.Candidate == c }) {
				marks = append(marks, tally.Mark{Rank: rank, Candidate: c})
			}
		}
		if unknown {
			marks = append(marks[:first], tally.Mark{Rank: rank, Candidate: tally.Overvote})
			continue
		}
		for _, m := range marks[first:] {
			p.used[m.Candidate] = true
		}
	}
	return marks, nil
}

// namesAndTitle reads the quoted candidate names and the optional title.
func (p *bltParser) namesAndTitle() error {
	seen := make(map[string]bool, p.candidates)
	titled := false
	for {
		line, err := p.next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		for len(line) > 0 && line[0] != '#' {
			if line[0] != '"' {
				return p.fail("expected a quoted candidate name or title, got %q", line)
			}
			end := bytes.IndexByte(line[1:], '"')
			if end < 0 {
				return p.fail("quoted name is not closed")
			}
			s := string(line[1 : end+1])
			line = bytes.TrimSpace(line[end+2:])
			switch {
			case len(p.names) < p.candidates:
				if s == "" {
					return p.fail("candidate %d has an empty name", len(p.names)+1)
				}
				if seen[s] {
					return p.fail("candidate name %q appears twice", s)
				}
				seen[s] = true
				p.names = append(p.names, s)
				p.nameLines = append(p.nameLines, p.line)
			case !titled:
				p.j.meta.title, titled = s, true
			default:
				return p.fail("unexpected text after the title")
			}
		}
	}
	if len(p.names) < p.candidates {
		return p.j.at(p.lines.line, 0, fmt.Errorf("the file names %d of its %d candidates", len(p.names), p.candidates))
	}
	return nil
}

// mapCandidates maps the file's candidate numbers in the marks read to the
// contest's candidates. Only candidates some ballot marks must be known to
// the contest.
func (p *bltParser) mapCandidates() error {
	p.j.declare(p.names)
	to := make([]resolution, p.candidates)
	for k, name := range p.names {
		if !p.used[k] {
			continue
		}
		r, err := p.j.resolve([]byte(name))
		if err != nil {
			return p.j.at(p.nameLines[k], 0, err)
		}
		if r.skip {
			return p.j.at(p.nameLines[k], 0, fmt.Errorf("candidate %q is the skipped-rank label", name))
		}
		to[k] = r
	}
	marks := p.j.out.set.Marks
	for i, m := range marks {
		if m.Candidate != tally.Overvote {
			marks[i].Candidate = to[m.Candidate].cand
		}
	}
	return nil
}

// stripComment drops a "#" comment and the space before it.
func stripComment(b []byte) []byte {
	if i := bytes.IndexByte(b, '#'); i >= 0 {
		b = b[:i]
	}
	return bytes.TrimSpace(b)
}
