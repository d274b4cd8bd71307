package cvr

import (
	"errors"
	"fmt"
	"strings"
)

// ErrUnknownCandidate is wrapped by the error for a name in a file that the
// contest's Candidates do not recognize.
var ErrUnknownCandidate = errors.New("unknown candidate")

// ParseError says where in a file a cast vote record could not be read, and
// why. Every error that Read and ReadFile return for a file's content is a
// *ParseError; the places that do not apply are zero.
type ParseError struct {
	File   string // base name of the file
	Line   int    // 1-based line of a text file
	Row    int    // 1-based spreadsheet row
	Column int    // 1-based column: CSV field or spreadsheet column
	Record int    // 1-based cast vote record, where the format numbers them (CDF)
	Err    error
}

// Error formats the error as "file: line 7, column 12: what is wrong".
func (e *ParseError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	sep := ": "
	for _, p := range []struct {
		name string
		n    int
	}{{"line", e.Line}, {"row", e.Row}, {"column", e.Column}, {"CVR", e.Record}} {
		if p.n > 0 {
			fmt.Fprintf(&b, "%s%s %d", sep, p.name, p.n)
			sep = ", "
		}
	}
	b.WriteString(": ")
	b.WriteString(e.Err.Error())
	return b.String()
}

// Unwrap returns the cause, so errors.Is finds ErrUnknownCandidate,
// context.Canceled or an *os.PathError.
func (e *ParseError) Unwrap() error { return e.Err }

// unknownCandidate is the error for a name the contest does not know.
func unknownCandidate(name string) error {
	return fmt.Errorf("%w %q", ErrUnknownCandidate, name)
}
