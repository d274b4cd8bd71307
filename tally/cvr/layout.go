package cvr

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/xuri/excelize/v2"
)

// The labels an ES&S export writes in its ranking cells, which a layout
// told by the header takes unless the source names its own.
const (
	essOvervote          = "overvote"
	essSkippedRank       = "undervote"
	essUndeclaredWriteIn = "UWI"
)

// InferLayout gives a genericCsv or ess source that names no first vote
// column (no RCTab config laid it out) the layout its header row shows:
//
//   - ess (a spreadsheet, or one saved as CSV): the ranking columns are
//     those whose headers name ranks 1, 2, 3... in a row ("1st Choice",
//     "First Choice", "Choice 1 of 5", "Rank 1", "CANDIDATE CHOICE 1");
//     the columns before and after them are the id, precinct, batch and
//     count columns their headers name ("Cast Vote Record", "Ballot ID",
//     "RCTab CVR Id"; "Precinct"; "Batch"; "Count"); a source that names no
//     labels gets ES&S's own, "overvote", "undervote" and "UWI", and a cell
//     of several lines, or of names joined by "|", names several candidates
//     (an overvote, as RCTab's CVR-to-CSV conversion and test sheets write
//     one). A header that names no rank is read as RCTab's ES&S test files
//     have it: the id in column 1, the rankings from column 2.
//   - genericCsv: the candidate columns start at the first column whose
//     header is a candidate of the contest (isCandidate), or, without a
//     contest (nil), the first whose header names no record field (an id,
//     precinct, batch, tabulator...). The columns before them are the id,
//     precinct and batch columns their headers name, and column 1 is the id
//     when none is named.
//
// Ballots start on row 2 unless the source says. A source with a first
// vote column, or of another format, is left as it is.
func InferLayout(src *Source, isCandidate func(name string) bool) error {
	if src.FirstVoteColumnIndex != 0 || (src.Provider != FormatESS && src.Provider != FormatGenericCSV) {
		return nil
	}
	header, err := headerRow(src.FilePath)
	if err != nil {
		return err
	}
	if src.Provider == FormatESS {
		err = inferESS(src, header)
	} else {
		err = inferGeneric(src, header, isCandidate)
	}
	if err != nil {
		return &ParseError{File: baseName(src.FilePath), Line: 1, Err: err}
	}
	if src.FirstVoteRowIndex == 0 {
		src.FirstVoteRowIndex = 2
	}
	return nil
}

// inferESS lays out an ES&S source by its header: the ranking columns of
// the contest the source names (ContestID), or of the file's only one.
func inferESS(src *Source, header []string) error {
	runs := rankRuns(header)
	if len(runs) == 0 {
		src.FirstVoteColumnIndex, src.IDColumnIndex = 2, 1
		return nil
	}
	run, err := chooseRun(runs, src.ContestID)
	if err != nil {
		return err
	}
	src.FirstVoteColumnIndex, src.LastVoteColumnIndex = Index(run.first+1), Index(run.last+1)
	inRun := func(c int) bool {
		for _, r := range runs {
			if c >= r.first && c <= r.last {
				return true
			}
		}
		return false
	}
	for c, h := range header {
		if inRun(c) {
			continue
		}
		kind := fieldKind(h)
		if kind == fieldCount && c < run.last {
			kind = fieldOther
		}
		setField(src, kind, c)
	}
	src.inferred = true
	if src.OvervoteLabel == "" {
		src.OvervoteLabel = essOvervote
	}
	if src.OvervoteDelimiter == "" {
		// A cell of several lines names several candidates, as RCTab's
		// CVR-to-CSV conversion writes an overvote (and so does one of
		// names joined by "|": readESS).
		src.OvervoteDelimiter = "\n"
	}
	if src.skippedRankLabel() == "" {
		src.SkippedRankLabel = essSkippedRank
	}
	if src.UndeclaredWriteInLabel == "" {
		src.UndeclaredWriteInLabel = essUndeclaredWriteIn
	}
	return nil
}

// inferGeneric lays out a genericCsv source by its header.
func inferGeneric(src *Source, header []string, isCandidate func(string) bool) error {
	first := -1
	for c, h := range header {
		h = strings.TrimSpace(h)
		if isCandidate != nil && isCandidate(h) || isCandidate == nil && h != "" && fieldKind(h) == fieldNone {
			first = c
			break
		}
	}
	if first < 0 {
		what := "names a candidate of the election"
		if isCandidate == nil {
			what = "names a candidate (every one names a record field)"
		}
		return fmt.Errorf("no column header %s, so the ballot columns are unknown (header: %.80q)", what, header)
	}
	// A count column is no candidate, but what it counts (ballots, or a
	// record's rankings, as in FairVote's copies of Cambridge's files) a
	// generic CSV does not say: refused, not passed over or read as a
	// candidate's ranks.
	for c, h := range header {
		if fieldKind(h) == fieldCount && (isCandidate == nil || !isCandidate(strings.TrimSpace(h))) {
			return fmt.Errorf("column %d, %q, counts something, which a generic CSV (a column per candidate) cannot say: remove it, or give the layout in an RCTab config", c+1, h)
		}
	}
	src.FirstVoteColumnIndex = Index(first + 1)
	for c, h := range header[:first] {
		setField(src, fieldKind(h), c)
	}
	if first > 0 && src.IDColumnIndex == 0 && src.PrecinctColumnIndex != 1 && src.BatchColumnIndex != 1 {
		src.IDColumnIndex = 1
	}
	return nil
}

// setField makes column c (0-based) the source's column of that kind,
// unless an earlier column already is.
func setField(src *Source, kind fieldType, c int) {
	var x *Index
	switch kind {
	case fieldID:
		x = &src.IDColumnIndex
	case fieldPrecinct:
		x = &src.PrecinctColumnIndex
	case fieldBatch:
		x = &src.BatchColumnIndex
	case fieldCount:
		x = &src.CountColumnIndex
	default:
		return
	}
	if *x == 0 {
		*x = Index(c + 1)
	}
}

// headerRow reads the first row of a CSV file or of a workbook's first
// sheet. An error is a *ParseError naming the file, and the row or line.
func headerRow(path string) ([]string, error) {
	zipped, err := isZip(path)
	if err != nil {
		return nil, &ParseError{File: baseName(path), Err: err}
	}
	if zipped {
		header, err := sheetHeader(path)
		if err != nil {
			return nil, &ParseError{File: baseName(path), Row: 1, Err: err}
		}
		return header, nil
	}
	header, err := csvHeader(path)
	if err != nil {
		return nil, &ParseError{File: baseName(path), Line: 1, Err: err}
	}
	return header, nil
}

// sheetHeader reads the first row of a workbook's first sheet.
func sheetHeader(path string) (header []string, err error) {
	err = withFirstSheet(path, func(rows *excelize.Rows, _ int) error {
		if !rows.Next() {
			if err := rows.Error(); err != nil {
				return err
			}
			return errors.New("the first sheet is empty: expected a header row")
		}
		header, err = rows.Columns()
		return err
	})
	return header, err
}

// csvHeader reads the first record of a CSV file, its fields trimmed.
func csvHeader(path string) ([]string, error) {
	f, _, err := openRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := newCSVScanner(f)
	if !sc.scan() {
		if sc.err != nil {
			return nil, sc.err
		}
		return nil, errors.New("the file is empty: expected a header row")
	}
	return headerFields(sc.fields), nil
}

// headerFields makes a CSV header record strings, trimmed (a byte order
// mark is the line reader's to drop).
func headerFields(fields [][]byte) []string {
	header := make([]string, len(fields))
	for i, f := range fields {
		header[i] = strings.TrimSpace(string(f))
	}
	return header
}

// rankRun is a run of ranking columns (0-based, first to last) and the
// contest their headers name ("" for headers that name none).
type rankRun struct {
	first, last int
	contest     string
}

// rankRuns finds the ranking columns of an ES&S header: each column whose
// header names rank 1, with those right after it naming ranks 2, 3... of
// the same contest. Headers that are a rank alone ("1", "2nd") count only
// as a run of two or more; one that says it is a rank ("Choice 1") counts
// alone. A sheet of several contests (New York City's: "DEM Mayor Choice
// 1 of 5 Citywide (026916)", then the next contest's) has a run each.
func rankRuns(header []string) []rankRun {
	var runs []rankRun
	for c := 0; c < len(header); c++ {
		r, named := rankHeader(header[c])
		if r != 1 {
			continue
		}
		contest := contestOf(header[c])
		last := c
		for last+1 < len(header) {
			next, n := rankHeader(header[last+1])
			if next != last+2-c || contestOf(header[last+1]) != contest {
				break
			}
			named = named || n
			last++
		}
		if named || last > c {
			runs = append(runs, rankRun{c, last, contest})
			c = last
		}
	}
	return runs
}

// SheetContests lists the contests whose ranking columns an ES&S sheet or
// CSV names by their headers, so a person can choose the contestId to
// read; a sheet whose headers name no contest lists one, named "".
func SheetContests(path string) ([]ContestInfo, error) {
	header, err := headerRow(path)
	if err != nil {
		return nil, err
	}
	var out []ContestInfo
	for _, c := range runContests(rankRuns(header)) {
		out = append(out, ContestInfo{ID: c, Name: c})
	}
	return out, nil
}

// runContests lists the contests of runs of ranking columns, each once, in
// order.
func runContests(runs []rankRun) []string {
	var contests []string
	for _, r := range runs {
		if !slices.Contains(contests, r.contest) {
			contests = append(contests, r.contest)
		}
	}
	return contests
}

// chooseRun picks the ranking columns of the contest named (its words, in
// any letter case, within the contest's), or the only contest's when none
// is named. Naming none when the sheet has several, or a name that fits
// none or several, is refused with the contests listed.
func chooseRun(runs []rankRun, name string) (rankRun, error) {
	contests := runContests(runs)
	if name == "" {
		if len(contests) == 1 {
			return runs[0], nil
		}
		return rankRun{}, fmt.Errorf("the sheet holds %d contests; name one with --contest: %s", len(contests), quoteList(contests))
	}
	fits := contestsNamed(contests, name)
	switch len(fits) {
	case 1:
		return runOf(runs, contests[fits[0]]), nil
	case 0:
		return rankRun{}, fmt.Errorf("no ranking columns are of contest %q; the sheet's contests: %s", name, quoteList(contests))
	}
	var names []string
	for _, i := range fits {
		names = append(names, contests[i])
	}
	return rankRun{}, fmt.Errorf("contest %q could be any of %s; name it in full", name, quoteList(names))
}

// contestsNamed lists the contests (by their place in names) that a name
// a person gave names: the one it names in full, in any letter case and
// spacing, else every one whose name holds it, word for word.
func contestsNamed(names []string, name string) []int {
	want := " " + strings.Join(headerWords(name), " ") + " "
	var fits []int
	for i, n := range names {
		label := " " + strings.Join(headerWords(n), " ") + " "
		if label == want {
			return []int{i}
		}
		if strings.Contains(label, want) {
			fits = append(fits, i)
		}
	}
	return fits
}

// runOf returns the first run of a contest.
func runOf(runs []rankRun, contest string) rankRun {
	for _, r := range runs {
		if r.contest == contest {
			return r
		}
	}
	return rankRun{}
}

// quoteList writes names quoted, with commas, "(no name)" for the empty one.
func quoteList(names []string) string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = strconv.Quote(n)
		if n == "" {
			out[i] = "(no name)"
		}
	}
	return strings.Join(out, ", ")
}

// contestOf is the contest a ranking column's header names: its words
// without those naming the rank ("Choice", "1", "of", "5") and without a
// code in parentheses, which New York City's headers give each column
// ("DEM Mayor Choice 2 of 5 Citywide (226916)" is of "DEM Mayor Citywide").
func contestOf(h string) string {
	var b strings.Builder
	depth := 0
	for _, r := range h {
		switch {
		case r == '(':
			depth++
		case r == ')' && depth > 0:
			depth--
		case depth == 0:
			b.WriteRune(r)
		}
	}
	var kept []string
	for _, w := range strings.FieldsFunc(b.String(), notWordRune) {
		if lw := strings.ToLower(w); !rankWords[lw] && lw != "of" && ordinal(lw) == 0 {
			kept = append(kept, w)
		}
	}
	return strings.Join(kept, " ")
}

// rankWords are the words of a header that names a rank.
var rankWords = map[string]bool{"choice": true, "choices": true, "rank": true, "ranking": true, "preference": true, "pref": true, "selection": true}

// ordinalWords are ranks written out.
var ordinalWords = map[string]int{"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8, "ninth": 9, "tenth": 10}

// rankHeader reads the rank a ranking column's header names (0 for none):
// the rank's number ("3", "3rd", "third") beside a word such as "choice"
// or "rank" (named): right after it ("Choice 1 of 5") or right before it
// ("Rep. to Congress 1st Choice District 2"), else the first number; or
// the number alone.
func rankHeader(h string) (rank int, named bool) {
	words := headerWords(h)
	for i, w := range words {
		if !rankWords[w] {
			continue
		}
		named = true
		if i+1 < len(words) {
			if n := ordinal(words[i+1]); n > 0 {
				return n, true
			}
		}
		if i > 0 {
			if n := ordinal(words[i-1]); n > 0 {
				return n, true
			}
		}
	}
	for _, w := range words {
		if rank = ordinal(w); rank > 0 {
			break
		}
	}
	if rank == 0 || !named && len(words) != 1 {
		return 0, false
	}
	return rank, named
}

// ordinal reads a rank's number from a word: "3", "3rd" or "third"; 0 when
// the word is none.
func ordinal(w string) int {
	if n, ok := ordinalWords[w]; ok {
		return n
	}
	digits := strings.TrimRightFunc(w, unicode.IsLetter)
	if suffix := w[len(digits):]; suffix != "" && suffix != "st" && suffix != "nd" && suffix != "rd" && suffix != "th" {
		return 0
	}
	n, ok := parseUint([]byte(digits), 0xFFFF)
	if !ok {
		return 0
	}
	return int(n)
}

// headerWords splits a header into lower-case words of letters and digits.
func headerWords(h string) []string {
	return strings.FieldsFunc(strings.ToLower(h), notWordRune)
}

// notWordRune reports whether r separates the words of a header.
func notWordRune(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }

// fieldType is what a column that holds no rankings holds.
type fieldType int

const (
	fieldNone     fieldType = iota // not a record field: a candidate's column, in a genericCsv
	fieldID                        // the cast vote record's id
	fieldPrecinct                  // its precinct
	fieldBatch                     // its batch
	fieldCount                     // how many ballots the row stands for
	fieldOther                     // another field of the record (a tabulator, a ballot style...)
)

// countHeaders are the headers of a column counting a row's ballots.
var countHeaders = map[string]bool{"count": true, "ballot count": true, "ballots": true, "number of ballots": true, "weight": true}

// fieldKind tells by its header what a column that holds no rankings holds.
func fieldKind(h string) fieldType {
	words := headerWords(h)
	has := func(want ...string) bool {
		for _, w := range words {
			for _, x := range want {
				if w == x {
					return true
				}
			}
		}
		return false
	}
	switch {
	case countHeaders[strings.Join(words, " ")]:
		return fieldCount
	case has("portion", "split", "tabulator", "contest", "vendor", "style", "provider", "filepath", "party", "district", "type", "status", "date", "time"):
		return fieldOther
	case has("precinct"):
		return fieldPrecinct
	case has("batch"):
		return fieldBatch
	case has("id", "cvr", "record", "ballot", "ballotid", "cvrid", "number", "serial", "imprinted") || strings.Contains(h, "#"):
		return fieldID
	}
	return fieldNone
}

// parseCount reads a count column's cell: a whole number of ballots,
// written as spreadsheets may ("3", "3.0").
func parseCount(cell string) (uint32, error) {
	s := cell
	if i := strings.IndexByte(s, '.'); i >= 0 && strings.Trim(s[i+1:], "0") == "" {
		s = s[:i]
	}
	n, ok := parseUint([]byte(s), math.MaxUint32)
	if !ok {
		return 0, fmt.Errorf("expected a count of ballots (a whole number from 0), got %.40q", cell)
	}
	return uint32(n), nil
}
