package ui

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"strings"

	"votedesk/app"
)

// RollFile is a poll-book file read for import: the entries to add, and
// the rows left out, each with its line and why.
type RollFile struct {
	Entries []RollEntry
	Skipped []RollRow // listed twice in the file
	Invalid []RollRow // not a valid name or email
}

// RollEntry is one voter to add and the line it came from.
type RollEntry struct {
	app.VoterEntry
	Line int
}

// RollRow is a row left out of an import.
type RollRow struct {
	Line   int
	Text   string
	Reason string
}

// maxRollLine is the longest line a poll-book file may have.
const maxRollLine = 64 << 10

// ReadRollFile reads a poll-book file in one of two shapes: one voter name
// per line, or CSV whose first row is a header with a "name" column and
// optionally an "email" column (other columns are ignored). Blank lines are
// ignored; a UTF-8 byte-order mark is allowed. Names and emails are checked
// as app checks them, so what it returns as entries will be accepted unless
// the poll book already has them.
func ReadRollFile(r io.Reader) (RollFile, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), maxRollLine)
	var f RollFile
	seen := map[string]int{}
	line := 0
	header := false
	nameCol, emailCol := 0, -1
	add := func(ln int, text, name, email string) {
		n, err := app.CleanName("voter name", name)
		if err != nil {
			f.Invalid = append(f.Invalid, RollRow{ln, text, app.ErrorMessage(err)})
			return
		}
		if email = strings.TrimSpace(email); email != "" {
			if email, err = app.CleanEmail(email); err != nil {
				f.Invalid = append(f.Invalid, RollRow{ln, text, app.ErrorMessage(err)})
				return
			}
		}
		if first, dup := seen[n]; dup {
			f.Skipped = append(f.Skipped, RollRow{ln, text, fmt.Sprintf("%q is listed twice (first on line %d)", n, first)})
			return
		}
		seen[n] = ln
		f.Entries = append(f.Entries, RollEntry{app.VoterEntry{Name: n, Email: email}, ln})
	}
	for sc.Scan() {
		line++
		raw := sc.Bytes()
		if line == 1 {
			raw = bytes.TrimPrefix(raw, []byte("\xef\xbb\xbf"))
		}
		text := strings.TrimRight(string(raw), "\r")
		if strings.TrimSpace(text) == "" {
			continue
		}
		if len(seen) == 0 && len(f.Invalid) == 0 && len(f.Skipped) == 0 && !header {
			if cols, ok := headerColumns(text); ok {
				header, nameCol, emailCol = true, cols[0], cols[1]
				continue
			}
		}
		if !header {
			add(line, text, unquote(strings.TrimSpace(text)), "")
			continue
		}
		rec, err := csvRecord(text)
		if err != nil {
			f.Invalid = append(f.Invalid, RollRow{line, text, "not a CSV row: " + err.Error()})
			continue
		}
		name, email := field(rec, nameCol), field(rec, emailCol)
		add(line, text, name, email)
	}
	if err := sc.Err(); err != nil {
		if err == bufio.ErrTooLong {
			return RollFile{}, app.Errorf(app.CodeInvalid, "line %d is longer than %d bytes; is this a poll-book file?", line+1, maxRollLine)
		}
		return RollFile{}, fmt.Errorf("read poll-book file: %w", err)
	}
	return f, nil
}

// headerColumns recognizes a header row: a CSV row with a "name" column.
// It returns the name and email columns (email -1 when absent).
func headerColumns(text string) ([2]int, bool) {
	rec, err := csvRecord(text)
	if err != nil {
		return [2]int{}, false
	}
	cols := [2]int{-1, -1}
	for i, h := range rec {
		switch strings.ToLower(strings.TrimSpace(h)) {
		case "name", "voter", "voter name", "voter_name":
			if cols[0] < 0 {
				cols[0] = i
			}
		case "email", "e-mail", "email address":
			if cols[1] < 0 {
				cols[1] = i
			}
		}
	}
	return cols, cols[0] >= 0
}

// csvRecord parses one line as a CSV row.
func csvRecord(text string) ([]string, error) {
	r := csv.NewReader(strings.NewReader(text))
	r.FieldsPerRecord = -1
	r.TrimLeadingSpace = true
	return r.Read()
}

func field(rec []string, i int) string {
	if i < 0 || i >= len(rec) {
		return ""
	}
	return rec[i]
}

// unquote removes one pair of surrounding double quotes, undoubling inner
// ones, as a spreadsheet writes a one-column file.
func unquote(s string) string {
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		return strings.ReplaceAll(s[1:len(s)-1], `""`, `"`)
	}
	return s
}
