package rla

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxManifestBytes is the largest manifest file ReadManifest reads: room
// for about a million batches.
const MaxManifestBytes = 64 << 20

// The columns a manifest's header may name for each field, compared in
// lower case with spaces, underscores and hyphens removed: Arlo's headers
// (Container, Tabulator, Batch Name, Number of Ballots), ColoradoRLA's
// (County ID, Scanner ID, Batch ID, # of Ballots, Storage Location, also
// written CountyID, ScannerID, BatchID, NumBallots, StorageLocation) and a
// plain Batch,Ballots. Other columns, County ID among them, are ignored.
var manifestColumns = [...]struct {
	field, header string // what the column gives, and Arlo's header for it
	headers       []string
}{
	fieldContainer: {"the container", "Container", []string{"container", "storagelocation", "location"}},
	fieldTabulator: {"the tabulator", "Tabulator", []string{"tabulator", "tabulatorid", "scanner", "scannerid"}},
	fieldName:      {"the batch name", "Batch Name", []string{"batchname", "batchid", "batch"}},
	fieldBallots: {"the number of ballots", "Number of Ballots",
		[]string{"numberofballots", "#ofballots", "numballots", "ballots", "numberofballotcards", "#ofballotcards"}},
}

// The fields of a batch, as indexes of manifestColumns.
const (
	fieldContainer = iota
	fieldTabulator
	fieldName
	fieldBallots
)

// ReadManifest reads a ballot manifest from CSV: a header row, then a row
// per batch. It accepts Arlo's and ColoradoRLA's layouts and a plain
// Batch,Ballots (see manifestColumns); headers are matched ignoring case
// and surrounding spaces, a UTF-8 byte order mark is skipped, rows whose
// fields are all blank are skipped. It refuses, naming the line and column
// and why: a missing or doubled column, a count that is not a whole number
// or is negative, an empty batch name, a batch listed twice, text that is
// not UTF-8, a line break or other control character inside a batch's
// container, tabulator or name, a file over MaxManifestBytes, more than MaxBallots ballots,
// and a manifest with no batches or no ballots.
func ReadManifest(r io.Reader) (Manifest, error) {
	cr := csv.NewReader(&capReader{r: r, left: MaxManifestBytes})
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	header, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return Manifest{}, errorf("the manifest is empty: it has no header row")
	}
	if err != nil {
		return Manifest{}, readError(err)
	}
	line, _ := cr.FieldPos(0)
	col, headers, err := manifestHeader(header, line)
	if err != nil {
		return Manifest{}, err
	}
	var batches []Batch
	seen := map[batchKey]int{}
	total := 0
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return Manifest{}, readError(err)
		}
		line, _ := cr.FieldPos(0)
		if blank(rec) {
			continue
		}
		for i, f := range rec {
			if !utf8.ValidString(f) {
				return Manifest{}, errorf("line %d, column %d: the text is not UTF-8", line, i+1)
			}
		}
		get := func(field int) string {
			if c := col[field]; c >= 0 && c < len(rec) {
				return strings.TrimSpace(rec[c])
			}
			return ""
		}
		b := Batch{Container: get(fieldContainer), Tabulator: get(fieldTabulator), Name: get(fieldName)}
		var msg string
		field := fieldBallots
		b.Ballots, msg = parseCount(get(fieldBallots))
		if msg == "" {
			field, msg = checkBatch(b, seen, line, total, "line")
		}
		if msg != "" {
			return Manifest{}, errorf("line %d, column %d (%s): %s", line, col[field]+1, headers[field], msg)
		}
		total += b.Ballots
		batches = append(batches, b)
	}
	return newManifest(batches, total)
}

// manifestHeader finds each field's column in the header row (on line
// line), -1 for an optional one that is absent, and the header text of
// each.
func manifestHeader(header []string, line int) (col [4]int, text [4]string, err error) {
	col = [4]int{-1, -1, -1, -1}
	for i, h := range header {
		if i == 0 {
			h = strings.TrimPrefix(h, "\uFEFF")
		}
		if !utf8.ValidString(h) {
			return col, text, errorf("line %d, column %d: the header is not UTF-8 text", line, i+1)
		}
		key := strings.NewReplacer(" ", "", "_", "", "-", "", "\t", "").Replace(strings.ToLower(h))
		for f, c := range manifestColumns {
			for _, want := range c.headers {
				if key != want {
					continue
				}
				if col[f] >= 0 {
					return col, text, errorf("line %d: columns %d (%q) and %d (%q) both give %s",
						line, col[f]+1, text[f], i+1, strings.TrimSpace(h), c.field)
				}
				col[f], text[f] = i, strings.TrimSpace(h)
			}
		}
	}
	for _, f := range []int{fieldName, fieldBallots} {
		if col[f] < 0 {
			c := manifestColumns[f]
			return col, text, errorf("line %d: no column for %s (a header such as %q)", line, c.field, c.header)
		}
	}
	return col, text, nil
}

// batchKey identifies a batch: its name is unique within its container
// and tabulator.
type batchKey struct{ container, tabulator, name string }

// checkBatch says which field of batch b (at place at, counted as unit:
// "line" or "batch") is wrong and why, or an empty message; seen holds the
// batches before it, by place, and total their ballots. A good batch is
// added to seen.
func checkBatch(b Batch, seen map[batchKey]int, at, total int, unit string) (field int, msg string) {
	for f, text := range [...]string{fieldContainer: b.Container, fieldTabulator: b.Tabulator, fieldName: b.Name} {
		if strings.ContainsFunc(text, unicode.IsControl) {
			return f, fmt.Sprintf("%s has a line break or other control character", manifestColumns[f].field)
		}
	}
	switch {
	case b.Name == "":
		return fieldName, "the batch has no name"
	case b.Ballots < 0:
		return fieldBallots, fmt.Sprintf("%d ballots is negative", b.Ballots)
	case b.Ballots > MaxBallots-total:
		return fieldBallots, fmt.Sprintf("the manifest's ballots pass %d, more than an audit can sample", MaxBallots)
	}
	k := batchKey{b.Container, b.Tabulator, b.Name}
	if first, ok := seen[k]; ok {
		return fieldName, fmt.Sprintf("batch %q%s is listed twice (first at %s %d)", b.Name, batchPlace(b), unit, first)
	}
	seen[k] = at
	return 0, ""
}

// batchPlace names a batch's tabulator and container, when it has them.
func batchPlace(b Batch) string {
	var parts []string
	if b.Tabulator != "" {
		parts = append(parts, fmt.Sprintf("tabulator %q", b.Tabulator))
	}
	if b.Container != "" {
		parts = append(parts, fmt.Sprintf("container %q", b.Container))
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

// parseCount reads a number of ballots: decimal digits, nothing else.
func parseCount(s string) (int, string) {
	if s == "" {
		return 0, "the number of ballots is missing"
	}
	digits := strings.TrimPrefix(s, "-")
	if digits == "" || strings.Trim(digits, "0123456789") != "" {
		return 0, fmt.Sprintf("%q is not a whole number of ballots", s)
	}
	if len(strings.TrimLeft(digits, "0")) > 9 {
		return 0, fmt.Sprintf("%s ballots is more than an audit can sample (%d)", s, MaxBallots)
	}
	n := 0
	for _, c := range digits {
		n = n*10 + int(c-'0')
	}
	if digits != s {
		n = -n
	}
	return n, ""
}

// blank reports whether every field of a row is empty or spaces.
func blank(rec []string) bool {
	for _, f := range rec {
		if strings.TrimSpace(f) != "" {
			return false
		}
	}
	return true
}

// readError words an error reading the CSV: a syntax error with its line
// and column, the size limit, or a read failure.
func readError(err error) error {
	var pe *csv.ParseError
	switch {
	case errors.As(err, &pe) && errors.Is(pe.Err, errTooBig):
		return errorf("the manifest is larger than %d MiB", MaxManifestBytes>>20)
	case errors.As(err, &pe):
		return errorf("line %d, character %d: %v", pe.Line, pe.Column, pe.Err)
	case errors.Is(err, errTooBig):
		return errorf("the manifest is larger than %d MiB", MaxManifestBytes>>20)
	}
	return errorf("read the manifest: %w", err)
}

// errTooBig is capReader's error past its limit.
var errTooBig = errors.New("too big")

// capReader reads from r until left bytes are used, then fails with
// errTooBig.
type capReader struct {
	r    io.Reader
	left int
}

func (c *capReader) Read(p []byte) (int, error) {
	if c.left <= 0 {
		// At the limit: the file may end here.
		var one [1]byte
		if n, err := c.r.Read(one[:]); n == 0 {
			return 0, err
		}
		return 0, errTooBig
	}
	if len(p) > c.left {
		p = p[:c.left]
	}
	n, err := c.r.Read(p)
	c.left -= n
	return n, err
}
