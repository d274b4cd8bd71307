package report

import (
	"io"
	"strconv"
	"strings"
)

// csvWriter prints records as Apache Commons CSV's default format does
// (RCTab's CSVFormat.DEFAULT), with "\n" line ends: a field is quoted when
// it is empty and first on its line, starts with a character at or below
// '#', contains a quote, comma or line break, or ends in a space or control
// character; quotes inside are doubled.
type csvWriter struct {
	sb    strings.Builder
	first bool
}

func newCSV() *csvWriter { return &csvWriter{first: true} }

// cell prints one field of the current record.
func (c *csvWriter) cell(v string) {
	if !c.first {
		c.sb.WriteByte(',')
	}
	first := c.first
	c.first = false
	v = spreadsheetSafe(v)
	if !needsQuotes(v, first) {
		c.sb.WriteString(v)
		return
	}
	c.sb.WriteByte('"')
	c.sb.WriteString(strings.ReplaceAll(v, `"`, `""`))
	c.sb.WriteByte('"')
}

// record prints a whole line.
func (c *csvWriter) record(vs ...string) {
	for _, v := range vs {
		c.cell(v)
	}
	c.end()
}

// end finishes the current line.
func (c *csvWriter) end() {
	c.sb.WriteByte('\n')
	c.first = true
}

func (c *csvWriter) writeTo(w io.Writer) error {
	_, err := io.WriteString(w, c.sb.String())
	return err
}

func needsQuotes(v string, first bool) bool {
	if v == "" {
		return first
	}
	if v[0] <= '#' {
		return true
	}
	if strings.ContainsAny(v, "\"\r\n,") {
		return true
	}
	return v[len(v)-1] <= ' '
}

// spreadsheetSafe keeps a cell from being read as a formula when the CSV
// is opened in a spreadsheet (OWASP's advice on CSV injection): a cell that
// starts with = + @ a tab or a carriage return, or with - and is not a
// number, gets a leading apostrophe. Names from outside (candidates in a
// CVR file) are where such cells come from; counts never start so.
func spreadsheetSafe(v string) string {
	if v == "" {
		return v
	}
	switch v[0] {
	case '=', '+', '@', '\t', '\r':
		return "'" + v
	case '-':
		if _, err := strconv.ParseFloat(v, 64); err != nil {
			return "'" + v
		}
	}
	return v
}
