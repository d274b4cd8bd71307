package cvr

import (
	"bytes"
	"errors"
	"fmt"
	"io"
)

// csvScanner splits a CSV file into records (RFC 4180: fields separated by
// commas, quoted with ", "" for a quote inside quotes, line breaks allowed
// inside quotes). A quote inside an unquoted field is taken literally, as
// spreadsheet programs write them. Fields are slices that stay valid until
// the next scan; a line with no quotes is split in place, without copying.
type csvScanner struct {
	lines  *lineReader
	line   int      // line where the current record starts
	fields [][]byte // the current record
	buf    []byte   // unquoted bytes of a record that had quotes
	ends   []int
	err    error
	col    int // column of the error, when it has one

	// prefix, when set, is stripped from a first line that begins with it,
	// and prefixed then says so (VoteDesk's "# candidates:" line).
	prefix   []byte
	prefixed bool

	// plainOnly makes a record with a quote an error (errQuoted), for a
	// reader that starts mid-file and so cannot tell a record's start.
	plainOnly bool
}

func newCSVScanner(r io.Reader) *csvScanner {
	return &csvScanner{lines: newLineReader(r)}
}

// scan reads the next record. It returns false at the end of the file or on
// an error, which err then holds.
func (s *csvScanner) scan() bool {
	line, err := s.lines.next()
	if err != nil {
		if !errors.Is(err, io.EOF) {
			s.err = err
		}
		return false
	}
	s.line = s.lines.line
	if s.prefix != nil && s.line == 1 && bytes.HasPrefix(line, s.prefix) {
		line = bytes.TrimLeft(line[len(s.prefix):], " ")
		s.prefixed = true
	}
	s.fields = s.fields[:0]
	if bytes.IndexByte(line, '"') < 0 {
		for {
			i := bytes.IndexByte(line, ',')
			if i < 0 {
				s.fields = append(s.fields, line)
				return true
			}
			s.fields = append(s.fields, line[:i])
			line = line[i+1:]
		}
	}
	if s.plainOnly {
		s.err = errQuoted
		return false
	}
	return s.scanQuoted(line)
}

// scanQuoted splits a record that has quotes, copying its fields into buf and
// reading on while a quoted field runs over line breaks.
func (s *csvScanner) scanQuoted(line []byte) bool {
	s.buf, s.ends = s.buf[:0], s.ends[:0]
	i := 0
	for {
		if i < len(line) && line[i] == '"' {
			i++
			for {
				q := bytes.IndexByte(line[i:], '"')
				if q < 0 {
					s.buf = append(append(s.buf, line[i:]...), '\n')
					if len(s.buf) > MaxLineBytes {
						s.col = len(s.ends) + 1
						s.err = fmt.Errorf("a quoted field runs on for more than %d MiB, the most a record may have", MaxLineBytes>>20)
						return false
					}
					next, err := s.lines.next()
					if err != nil {
						s.col = len(s.ends) + 1
						s.err = fmt.Errorf("quoted field is not closed before the end of the file")
						if !errors.Is(err, io.EOF) {
							s.err = err
						}
						return false
					}
					line, i = next, 0
					continue
				}
				s.buf = append(s.buf, line[i:i+q]...)
				i += q + 1
				if i < len(line) && line[i] == '"' {
					s.buf = append(s.buf, '"')
					i++
					continue
				}
				break
			}
			if i < len(line) && line[i] != ',' {
				s.col = len(s.ends) + 1
				s.err = fmt.Errorf("text after the closing quote of a field")
				return false
			}
		} else {
			q := bytes.IndexByte(line[i:], ',')
			if q < 0 {
				q = len(line) - i
			}
			s.buf = append(s.buf, line[i:i+q]...)
			i += q
		}
		s.ends = append(s.ends, len(s.buf))
		if i >= len(line) {
			break
		}
		i++ // the comma
	}
	start := 0
	for _, end := range s.ends {
		s.fields = append(s.fields, s.buf[start:end])
		start = end
	}
	return true
}

// blank reports whether the current record is an empty line.
func (s *csvScanner) blank() bool { return len(s.fields) == 1 && len(s.fields[0]) == 0 }

// trimSpace trims ASCII spaces and tabs around a field without allocating.
func trimSpace(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t') {
		b = b[1:]
	}
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t') {
		b = b[:len(b)-1]
	}
	return b
}

// parseRank reads a rank: a whole number from 1 to 65535.
func parseRank(b []byte) (uint16, error) {
	n, ok := parseUint(b, 0xFFFF)
	if !ok {
		return 0, fmt.Errorf("expected a rank (a whole number from 1), got %q", b)
	}
	if n == 0 {
		return 0, errors.New("rank 0: ranks count from 1")
	}
	return uint16(n), nil
}

// parseUint reads a decimal number no larger than limit.
func parseUint(b []byte, limit uint64) (uint64, bool) {
	if len(b) == 0 || len(b) > 20 {
		return 0, false
	}
	var n uint64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + uint64(c-'0')
		if n > limit {
			return 0, false
		}
	}
	return n, true
}
