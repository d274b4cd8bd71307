package dataio

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"

	"votedesk/app"
)

// PollBookFile is a poll-book file as read: the entries it lists, and the
// rows left out, each with its line and why.
type PollBookFile struct {
	Entries []PollBookEntry
	// Repeated rows name a voter an earlier row already lists.
	Repeated []PollBookRow
	// Invalid rows have no valid name, an invalid email, or are not CSV.
	Invalid []PollBookRow
}

// PollBookEntry is one voter to add and the line it came from.
type PollBookEntry struct {
	app.VoterEntry
	Line int `json:"line"`
}

// PollBookRow is a row left out, with its line, its text and why.
type PollBookRow struct {
	Line   int    `json:"line"`
	Text   string `json:"text"`
	Reason string `json:"reason"`
}

// MaxPollBookLine is the longest line a poll-book file may have.
const MaxPollBookLine = 64 << 10

// The header names a poll-book column may have (compared in lower case).
var (
	nameHeaders  = []string{"name", "voter", "voter name", "voter_name", "full name", "full_name"}
	emailHeaders = []string{"email", "e-mail", "email address", "email_address", "mail"}
	idHeaders    = []string{"id", "voter id", "voter_id", "voterid", "voter number", "voter_number",
		"statevoterid", "state voter id", "state_voter_id", "sos_voterid"}
	// A roll that gives each part of a name its own column (as counties'
	// voter files and e-pollbooks do: "Last Name,First Name,Middle Name";
	// Washington's voter file: "StateVoterID,FName,MName,LName,NameSuffix").
	// A suffix tells a father from a son of one name ("John Smith Jr").
	firstHeaders  = []string{"first name", "first_name", "firstname", "first", "given name", "given_name", "forename", "fname", "name first", "name_first"}
	middleHeaders = []string{"middle name", "middle_name", "middlename", "middle", "middle initial", "middle_initial", "mname", "name middle", "name_middle"}
	lastHeaders   = []string{"last name", "last_name", "lastname", "last", "surname", "family name", "family_name", "lname", "name last", "name_last"}
	suffixHeaders = []string{"suffix", "name suffix", "name_suffix", "namesuffix", "suffix name", "suffix_name"}
	nameParts     = [][]string{firstHeaders, middleHeaders, lastHeaders, suffixHeaders}
	// Other columns of voter files, which say a first row of two cells or
	// more is a header (headerOnly), not a voter whose name has commas.
	otherHeaders = []string{"uid", "pin", "address", "street address", "street", "city", "state", "zip", "zip code",
		"postal code", "county", "precinct", "ward", "district", "party", "phone", "telephone", "dob", "birth date",
		"date of birth", "gender", "sex", "status", "registration date"}
)

// ReadPollBook reads a poll-book file in one of two shapes:
//
//   - one voter name per line (commas are part of the name; one pair of
//     surrounding double quotes is removed), or
//   - CSV whose first row is a header naming a "name" column, and optionally
//     "email" and "id" columns (see the header names above; others are
//     ignored). Without a name column, first, middle and last name columns
//     and a suffix column make the name, in that order ("Katherine Robert
//     Richard", "John Smith Jr"). A file with
//     an id column and no name columns lists voters by their id, which
//     becomes their name in the poll book; with both, the id is not stored
//     (the poll book keeps a name and an email). A first row that names a
//     column of these kinds but no name or id is refused: it is a header,
//     not a voter.
//
// Blank lines are ignored and a UTF-8 byte-order mark is allowed. Names and
// emails are checked as app checks them, so the entries are accepted unless
// the poll book already has them. A row is one line: a quoted field may not
// span lines.
func ReadPollBook(r io.Reader) (*PollBookFile, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), MaxPollBookLine)
	f := &PollBookFile{}
	first := map[string]int{}
	var cols *pollBookColumns
	line, rows := 0, 0
	for sc.Scan() {
		line++
		raw := sc.Bytes()
		if line == 1 {
			raw = bytes.TrimPrefix(raw, []byte("\xEF\xBB\xBF"))
		}
		text := strings.TrimRight(string(raw), "\r")
		if strings.TrimSpace(text) == "" {
			continue
		}
		rows++
		if rows == 1 {
			if c, ok := pollBookHeader(text); ok {
				cols = c
				continue
			}
			if headerOnly(text) {
				return nil, app.Errorf(app.CodeInvalid, "line %d is a header (%s) without a name or id column: a poll book lists voters by name (add a \"name\" column, or \"first name\" and \"last name\" columns)", line, strings.TrimSpace(text))
			}
		}
		name, email := unquote(strings.TrimSpace(text)), ""
		if cols != nil {
			rec, err := csvRow(text)
			if err != nil {
				f.Invalid = append(f.Invalid, PollBookRow{line, text, "not a CSV row: " + csvReason(err)})
				continue
			}
			name, email = cols.nameOf(rec), strings.TrimSpace(field(rec, cols.email))
		}
		f.add(first, line, text, name, email)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, app.Errorf(app.CodeInvalid, "line %d is longer than %d bytes; is this a poll-book file?", line+1, MaxPollBookLine)
		}
		return nil, fmt.Errorf("read poll-book file: %w", err)
	}
	return f, nil
}

// add checks one row's name and email and files it as an entry, a repeat
// or an invalid row.
func (f *PollBookFile) add(first map[string]int, line int, text, name, email string) {
	n, err := app.CleanName("voter name", name)
	if err != nil {
		f.Invalid = append(f.Invalid, PollBookRow{line, text, app.ErrorMessage(err)})
		return
	}
	if email != "" {
		if email, err = app.CleanEmail(email); err != nil {
			f.Invalid = append(f.Invalid, PollBookRow{line, text, app.ErrorMessage(err)})
			return
		}
	}
	// Two rows name one voter when their names compare equal as the
	// domain compares names (letter case, spacing), which the poll book
	// would refuse.
	key := app.NameKey(n)
	if l, dup := first[key]; dup {
		f.Repeated = append(f.Repeated, PollBookRow{line, text, fmt.Sprintf("%q is listed twice (first on line %d)", n, l)})
		return
	}
	first[key] = line
	f.Entries = append(f.Entries, PollBookEntry{app.VoterEntry{Name: n, Email: email}, line})
}

// pollBookColumns are the columns of a poll-book CSV with a header; email is
// -1 when there is none, and name is the id column when there is no name.
// parts, when there is no name column, are the first, middle, last name
// and suffix columns (-1 for one not there).
type pollBookColumns struct {
	name, email int
	parts       []int
}

// nameOf is the name a row gives: its name column's, or its name parts
// joined by a space.
func (c *pollBookColumns) nameOf(rec []string) string {
	if c.parts == nil {
		return field(rec, c.name)
	}
	var parts []string
	for _, i := range c.parts {
		if p := strings.TrimSpace(field(rec, i)); p != "" {
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, " ")
}

// pollBookHeader recognizes a header row: a CSV row with a name, name-part
// or id column.
func pollBookHeader(text string) (*pollBookColumns, bool) {
	rec, err := csvRow(text)
	if err != nil {
		return nil, false
	}
	name, email, id := -1, -1, -1
	parts, anyPart := []int{-1, -1, -1, -1}, false
	for i, h := range rec {
		h = headerName(h)
		switch {
		case name < 0 && isOneOf(h, nameHeaders):
			name = i
		case email < 0 && isOneOf(h, emailHeaders):
			email = i
		case id < 0 && isOneOf(h, idHeaders):
			id = i
		}
		for p, list := range nameParts {
			if parts[p] < 0 && isOneOf(h, list) {
				parts[p], anyPart = i, true
			}
		}
	}
	switch {
	case name >= 0:
		return &pollBookColumns{name: name, email: email}, true
	case anyPart:
		return &pollBookColumns{name: -1, email: email, parts: parts}, true
	}
	return &pollBookColumns{name: id, email: email}, id >= 0
}

// headerOnly reports whether a first row that names no name or id column
// is still a header: one of its cells is a known column name (an "email"
// column, for example, or with another cell beside it a voter file's
// "city"), so it is not a voter.
func headerOnly(text string) bool {
	rec, err := csvRow(text)
	if err != nil {
		return false
	}
	for _, h := range rec {
		h = headerName(h)
		if isOneOf(h, emailHeaders) || isOneOf(h, nameHeaders) || isOneOf(h, idHeaders) || len(rec) > 1 && isOneOf(h, otherHeaders) {
			return true
		}
	}
	return false
}

// headerName is a header cell as the lists above spell column names: in
// lower case, its spaces made one.
func headerName(h string) string { return strings.Join(strings.Fields(strings.ToLower(h)), " ") }

func isOneOf(s string, list []string) bool {
	for _, x := range list {
		if s == x {
			return true
		}
	}
	return false
}

// csvRow parses one line as a CSV row.
func csvRow(text string) ([]string, error) {
	r := csv.NewReader(strings.NewReader(text))
	r.FieldsPerRecord = -1
	r.TrimLeadingSpace = true
	return r.Read()
}

// csvReason is a CSV error without the position encoding/csv adds (the
// row is one line, which the caller names).
func csvReason(err error) string {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
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
