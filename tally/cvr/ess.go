package cvr

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/xuri/excelize/v2"

	"votedesk/tally"
)

// readESS reads an ES&S cast vote record export: a spreadsheet (xlsx),
// streaming the first sheet row by row, or the same sheet saved as CSV, as
// counties publish it. From firstVoteRowIndex on, each row is a cast vote
// record; the columns from firstVoteColumnIndex on (to the last vote
// column, when the layout names one) are its rankings, first choice first,
// each naming a candidate (several joined by overvoteDelimiter for an
// overvote), the overvoteLabel, the skippedRankLabel or the
// undeclaredWriteInLabel. A blank ranking cell is a skipped rank, or an
// undeclared write-in with treatBlankAsUndeclaredWriteIn.
// Options.MaxRankings, when set, is the last ranking column read. Rows with
// no values at all are skipped. The id, precinct, batch and count columns
// are never ranking columns; a count column weights its record.
func readESS(j *job) error {
	if err := j.ctx.Err(); err != nil {
		return err
	}
	zipped, err := isZip(j.src.FilePath)
	if err != nil {
		return err
	}
	if !zipped {
		return readESSCSV(j)
	}
	r := essRows{j: j}
	return withFirstSheet(j.src.FilePath, func(rows *excelize.Rows, lastRow int) error {
		j.total = int64(lastRow)
		row := 0
		for rows.Next() {
			row++
			cells, err := rows.Columns()
			if err != nil {
				return &ParseError{File: j.file, Row: row, Err: err}
			}
			j.done = int64(row)
			if row < int(j.src.FirstVoteRowIndex) {
				continue
			}
			if err := r.record(cells, func(col int, err error) error {
				return &ParseError{File: j.file, Row: row, Column: col + 1, Err: err}
			}); err != nil {
				return err
			}
		}
		if err := rows.Error(); err != nil {
			return &ParseError{File: j.file, Row: row, Err: err}
		}
		if row == 0 {
			return fmt.Errorf("the first sheet has no rows: the file is empty or damaged")
		}
		if row < lastRow {
			return &ParseError{File: j.file, Row: row, Err: fmt.Errorf("the sheet ends at row %d, but its dimension says it reaches row %d: the file may be damaged", row, lastRow)}
		}
		return nil
	})
}

// readESSCSV reads an ES&S export saved as CSV: the rows readESS reads,
// by line.
func readESSCSV(j *job) error {
	f, err := j.open()
	if err != nil {
		return err
	}
	defer f.Close()
	sc := newCSVScanner(j.counting(f))
	r := essRows{j: j}
	var cells []string
	for sc.scan() {
		if sc.line < int(j.src.FirstVoteRowIndex) {
			continue
		}
		cells = cells[:0]
		for _, f := range sc.fields {
			cells = append(cells, string(f))
		}
		line := sc.line
		if err := r.record(cells, func(col int, err error) error { return j.at(line, col+1, err) }); err != nil {
			return err
		}
	}
	if sc.err != nil {
		return j.at(sc.line, sc.col, sc.err)
	}
	if sc.line == 0 {
		return j.at(1, 0, errors.New("the file is empty"))
	}
	return nil
}

// isZip reports whether the file at path is a zip archive (an xlsx
// workbook) rather than text.
func isZip(path string) (bool, error) {
	f, _, err := openRegular(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	head := make([]byte, 4)
	n, err := io.ReadFull(f, head)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return false, fmt.Errorf("cannot read: %w", err)
	}
	return bytes.HasPrefix(head[:n], []byte("PK\x03\x04")), nil
}

// withFirstSheet opens the workbook at path, guarded against zip bombs,
// and hands fn the rows of its first sheet and the last row its dimension
// names (0 when it names none). A workbook that excelize cannot follow is
// reported as malformed, not left to panic.
func withFirstSheet(path string, fn func(rows *excelize.Rows, lastRow int) error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the xlsx file is malformed: %v", r)
		}
	}()
	f, fi, err := openRegular(path)
	if err != nil {
		return err
	}
	defer f.Close()
	limit := xlsxLimit(fi.Size())
	// The sizes the archive declares are checked before excelize unpacks
	// anything (archive/zip refuses an entry that inflates past its
	// declared size, so they cannot understate it).
	if unzipped, err := unzippedSize(f, fi.Size()); err != nil {
		return fmt.Errorf("cannot open the xlsx file: %w", err)
	} else if unzipped > uint64(limit) {
		return fmt.Errorf("the xlsx file would decompress to more than %d MiB (%d times its size, or %d GiB at most): it is refused as a zip bomb", limit>>20, MaxXLSXRatio, MaxXLSXBytes>>30)
	}
	book, err := excelize.OpenReader(f, excelize.Options{UnzipSizeLimit: limit, UnzipXMLSizeLimit: min(limit, excelize.StreamChunkSize)})
	if err != nil {
		return fmt.Errorf("cannot open the xlsx file: %w", err)
	}
	defer book.Close()
	sheets := book.GetSheetList()
	if len(sheets) == 0 {
		return fmt.Errorf("the workbook has no sheet")
	}
	lastRow := sheetRows(book, sheets[0])
	rows, err := book.Rows(sheets[0])
	if err != nil {
		return fmt.Errorf("cannot read sheet %q: %w", sheets[0], err)
	}
	defer rows.Close()
	return fn(rows, lastRow)
}

// xlsxLimit is how many bytes a spreadsheet of size bytes may decompress to.
func xlsxLimit(size int64) int64 {
	return min(max(size*MaxXLSXRatio, minXLSXBytes), MaxXLSXBytes)
}

// unzippedSize is the total size the zip archive f (of size bytes)
// declares its entries inflate to; f is left at its start.
func unzippedSize(f *os.File, size int64) (uint64, error) {
	z, err := zip.NewReader(f, size)
	if err != nil {
		return 0, err
	}
	var total uint64
	for _, e := range z.File {
		total += e.UncompressedSize64
	}
	_, err = f.Seek(0, io.SeekStart)
	return total, err
}

// sheetRows returns the last row of a sheet's used range, or 0 if the sheet
// does not say.
func sheetRows(book *excelize.File, sheet string) int {
	dim, err := book.GetSheetDimension(sheet)
	if err != nil {
		return 0
	}
	_, last, ok := strings.Cut(dim, ":")
	if !ok {
		last = dim
	}
	_, r, err := excelize.CellNameToCoordinates(last)
	if err != nil {
		return 0
	}
	return r
}

// essRows turns spreadsheet rows into ballots.
type essRows struct {
	j     *job
	marks []tally.Mark
	uwi   *uint16
}

// record reads one cast vote record row; at places an error in a column
// (0-based) of the row.
func (r *essRows) record(cells []string, at func(col int, err error) error) error {
	j := r.j
	blank := true
	for _, c := range cells {
		if strings.TrimSpace(c) != "" {
			blank = false
			break
		}
	}
	if blank {
		j.stats.Skipped++
		return nil
	}
	idCol, precinctCol, batchCol, countCol := j.src.IDColumnIndex.col(), j.src.PrecinctColumnIndex.col(), j.src.BatchColumnIndex.col(), j.src.CountColumnIndex.col()
	first := j.src.FirstVoteColumnIndex.col()
	last := len(cells) - 1
	if j.src.LastVoteColumnIndex > 0 {
		last = j.src.LastVoteColumnIndex.col()
	}
	if j.opts.MaxRankings > 0 {
		limit := first + j.opts.MaxRankings - 1
		if j.src.TreatBlankAsUndeclaredWriteIn || last > limit {
			last = limit
		}
	}
	r.marks = r.marks[:0]
	for c := first; c <= last; c++ {
		if c == idCol || c == precinctCol || c == batchCol || c == countCol {
			continue
		}
		rank := c - first + 1
		if rank > 0xFFFF {
			return at(c, fmt.Errorf("rank %d is beyond 65535", rank))
		}
		cell := ""
		if c < len(cells) {
			cell = strings.TrimSpace(cells[c])
		}
		if cell == "" {
			if j.src.TreatBlankAsUndeclaredWriteIn {
				u, err := r.undeclaredWriteIn()
				if err != nil {
					return at(c, err)
				}
				r.marks = append(r.marks, tally.Mark{Rank: uint16(rank), Candidate: u})
			}
			continue
		}
		parts := []string{cell}
		if j.src.inferred {
			// Laid out by its header: names on several lines or joined by
			// "|" (as RCTab's test sheets write an overvote) are several.
			cell = strings.ReplaceAll(cell, "|", j.src.OvervoteDelimiter)
		}
		if d := j.src.OvervoteDelimiter; d != "" {
			parts = strings.Split(cell, d)
		}
		for _, name := range parts {
			name = strings.TrimSpace(name)
			if name == "" {
				return at(c, fmt.Errorf("empty name between the overvote delimiters in %q", cell))
			}
			res, err := j.resolve([]byte(name))
			if err != nil {
				return at(c, err)
			}
			if !res.skip {
				r.marks = append(r.marks, tally.Mark{Rank: uint16(rank), Candidate: res.cand})
			}
		}
	}
	var id string
	if idCol >= 0 {
		if idCol < len(cells) {
			id = strings.TrimSpace(cells[idCol])
		}
		if id == "" {
			return at(idCol, fmt.Errorf("the cast vote record id is missing"))
		}
	}
	var precinct string
	if precinctCol >= 0 && precinctCol < len(cells) {
		precinct = strings.TrimSpace(cells[precinctCol])
	}
	count := uint32(1)
	if countCol >= 0 {
		var cell string
		if countCol < len(cells) {
			cell = strings.TrimSpace(cells[countCol])
		}
		n, err := parseCount(cell)
		if err != nil {
			return at(countCol, err)
		}
		if n == 0 {
			j.stats.Skipped++
			return nil
		}
		if n != 1 && idCol >= 0 {
			return at(countCol, fmt.Errorf("a record with an id stands for one ballot, but its count is %d", n))
		}
		count = n
	}
	if err := j.add(r.marks, []byte(id), count, []byte(precinct)); err != nil {
		return at(-1, err)
	}
	if batchCol >= 0 {
		var batch string
		if batchCol < len(cells) {
			batch = strings.TrimSpace(cells[batchCol])
		}
		j.out.setBatch([]byte(batch))
	}
	return nil
}

// undeclaredWriteIn returns the contest's undeclared write-in candidate.
func (r *essRows) undeclaredWriteIn() (uint16, error) {
	if r.uwi == nil {
		c, err := r.j.candidate(UndeclaredWriteIn)
		if err != nil {
			return 0, fmt.Errorf("blank cells count as undeclared write-ins, but the contest has no %q candidate", UndeclaredWriteIn)
		}
		r.uwi = &c
	}
	return *r.uwi, nil
}
