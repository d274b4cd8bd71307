package cvr

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// lineReader reads a text file line by line without copying: a line is a
// slice of the read buffer, valid until the next call. It counts lines,
// drops a leading UTF-8 byte order mark and the line ending (\n or \r\n).
type lineReader struct {
	r    *bufio.Reader
	line int    // number of the line returned last
	long []byte // holds a line longer than the buffer
	used int64  // bytes of the file consumed
	// short makes a line longer than the buffer an error (errLongLine)
	// instead of one gathered in long, for a reader that has a slower way
	// to fall back on.
	short bool
}

// errLongLine is the error of a lineReader with short set.
var errLongLine = errors.New("a line longer than the read buffer")

// readBufferSize is big enough that few lines need copying and the file
// system is asked for big reads.
const readBufferSize = 1 << 20

func newLineReader(r io.Reader) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, readBufferSize)}
}

// ahead returns the bytes read from the file but not yet returned as lines.
func (l *lineReader) ahead() []byte {
	b, _ := l.r.Peek(l.r.Buffered())
	return b
}

// next returns the next line; at the end of the file it returns io.EOF.
func (l *lineReader) next() ([]byte, error) {
	b, err := l.r.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) && l.short {
		return nil, errLongLine
	}
	if errors.Is(err, bufio.ErrBufferFull) {
		l.long = append(l.long[:0], b...)
		for errors.Is(err, bufio.ErrBufferFull) {
			if len(l.long) > MaxLineBytes {
				return nil, &ParseError{Line: l.line + 1, Err: fmt.Errorf("the line is longer than %d MiB, the most a line may have", MaxLineBytes>>20)}
			}
			b, err = l.r.ReadSlice('\n')
			l.long = append(l.long, b...)
		}
		b = l.long
	}
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	if len(b) == 0 {
		return nil, io.EOF
	}
	l.used += int64(len(b))
	l.line++
	if l.line == 1 {
		b = bytes.TrimPrefix(b, utf8BOM)
	}
	if n := len(b); n > 0 && b[n-1] == '\n' {
		b = b[:n-1]
		if n := len(b); n > 0 && b[n-1] == '\r' {
			b = b[:n-1]
		}
	}
	return b, nil
}
