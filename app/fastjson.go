package app

import "unicode/utf8"

// An import's sealed part holds its ballots, a million of them for a
// million-ballot import, and every device that applies the event reads it:
// through encoding/json that is a validating scan, reflection, and a
// nested Unmarshal per ballot and per rankings list, some 5 s a million
// ballots. readImported reads the compact form VoteDesk writes itself
// (appendJSON: no spaces, strings without escapes) in one pass, with the
// texts sliced out of one copy of the input, and answers ok = false for
// anything else, which the caller then hands to encoding/json. Whatever it
// accepts, encoding/json reads to the same ballots (fastjson_test.go checks
// both on written, random and mutated input).

// compactScan reads compact JSON from b at i.
type compactScan struct {
	b  []byte
	s  string // b as one string: texts are sliced out of it
	i  int
	ok bool
}

func (c *compactScan) next(x byte) bool {
	if c.ok && c.i < len(c.b) && c.b[c.i] == x {
		c.i++
		return true
	}
	return false
}

func (c *compactScan) want(x byte) {
	if !c.next(x) {
		c.ok = false
	}
}

// text reads a string without escapes or control characters, whose bytes
// are valid UTF-8 (encoding/json would replace invalid ones).
func (c *compactScan) text() string {
	if !c.next('"') {
		c.ok = false
		return ""
	}
	start, ascii := c.i, true
	for c.i < len(c.b) {
		x := c.b[c.i]
		if x == '"' {
			break
		}
		if x < 0x20 || x == '\\' {
			c.ok = false
			return ""
		}
		if x >= 0x80 {
			ascii = false
		}
		c.i++
	}
	if c.i >= len(c.b) || !ascii && !utf8.Valid(c.b[start:c.i]) {
		c.ok = false
		return ""
	}
	c.i++
	return c.s[start : c.i-1]
}

// rankings reads [["A"],["B","C"],[]] into r, rank by rank from 1.
func (c *compactScan) rankings(r []Ranking) []Ranking {
	c.want('[')
	if c.next(']') {
		return r
	}
	for rank := 1; c.ok; rank++ {
		c.want('[')
		if !c.next(']') {
			for c.ok {
				r = append(r, Ranking{Candidate: c.text(), Rank: rank})
				if c.next(']') {
					break
				}
				c.want(',')
			}
		}
		if c.next(']') {
			break
		}
		c.want(',')
	}
	return r
}

// readImported reads {"ballots":[[id,rankings,precinct,batch,tabulator],
// ...]}, the last three as far as written, in VoteDesk's compact form.
func readImported(b []byte) ([]ImportedBallot, bool) {
	const pre = `{"ballots":[`
	if len(b) < len(pre)+2 || string(b[:len(pre)]) != pre {
		return nil, false
	}
	c := &compactScan{b: b, s: string(b), i: len(pre), ok: true}
	out := []ImportedBallot{}
	marks := make([]Ranking, 0, len(b)/16)
	if !c.next(']') {
		out = make([]ImportedBallot, 0, len(b)/64)
		for c.ok {
			var ib ImportedBallot
			c.want('[')
			ib.SourceID = c.text()
			c.want(',')
			from := len(marks)
			marks = c.rankings(marks)
			if len(marks) > from {
				ib.Rankings = marks[from:len(marks):len(marks)]
			}
			for _, to := range []*string{&ib.Precinct, &ib.Batch, &ib.Tabulator} {
				if !c.next(',') {
					break
				}
				*to = c.text()
			}
			c.want(']')
			out = append(out, ib)
			if c.next(']') {
				break
			}
			c.want(',')
		}
	}
	c.want('}')
	if !c.ok || c.i != len(b) {
		return nil, false
	}
	return out, true
}
