package cvr

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"votedesk/tally"
)

// readGenericCSV reads RCTab's generic CSV: row 1 names the candidates in the
// columns from firstVoteColumnIndex on, and each cast vote record row gives,
// in a candidate's column, the rank the voter gave that candidate (blank for
// none). Rows before firstVoteRowIndex are skipped. The id, precinct and
// batch columns are never candidate columns. A column named like the
// undeclaredWriteInLabel holds the undeclared write-in's ranks.
func readGenericCSV(j *job) error {
	f, err := j.open()
	if err != nil {
		return err
	}
	defer f.Close()
	sc := newCSVScanner(j.counting(f))
	if !sc.scan() {
		if sc.err != nil {
			return j.at(1, sc.col, sc.err)
		}
		return j.at(1, 0, errors.New("the file is empty: expected a header row naming the candidates"))
	}
	idCol, precinctCol, batchCol := j.src.IDColumnIndex.col(), j.src.PrecinctColumnIndex.col(), j.src.BatchColumnIndex.col()
	first := j.src.FirstVoteColumnIndex.col()
	var cols []genericColumn
	var names []string
	for c := first; c < len(sc.fields); c++ {
		if c == idCol || c == precinctCol || c == batchCol {
			continue
		}
		name := strings.TrimSpace(string(sc.fields[c]))
		if name == "" {
			return j.at(1, c+1, errors.New("the header names no candidate for this column"))
		}
		cols = append(cols, genericColumn{index: c, name: name})
		names = append(names, name)
	}
	if len(cols) == 0 {
		return j.at(1, 0, fmt.Errorf("no candidate columns from column %d on", first+1))
	}
	if len(cols) > tally.MaxCandidates {
		return j.at(1, 0, fmt.Errorf("the header names %d candidate columns, more than the %d a contest may have", len(cols), tally.MaxCandidates))
	}
	j.declare(names)
	g := genericLayout{cols: cols, width: len(sc.fields), id: idCol, precinct: precinctCol, batch: batchCol}
	for skip := int(j.src.FirstVoteRowIndex) - 2; skip > 0; skip-- {
		if !sc.scan() {
			break
		}
	}
	// A quote in the rows already read ahead (a megabyte) means quoted
	// fields, which only the sequential read can follow, so stretches
	// are not even tried.
	if !bytes.Contains(sc.lines.ahead(), []byte{'"'}) && j.readParallel(f, sc.lines.used, names, genericRows(&g)) {
		return nil
	}
	var marks []tally.Mark
	for sc.scan() {
		if sc.blank() {
			continue
		}
		var err error
		if marks, err = j.genericRow(sc, &g, marks[:0]); err != nil {
			return err
		}
		for i := range marks {
			col := &g.cols[marks[i].Candidate]
			if !col.resolved {
				r, err := j.resolve([]byte(col.name))
				if err != nil {
					return j.at(sc.line, col.index+1, err)
				}
				if r.skip {
					return j.at(sc.line, col.index+1, fmt.Errorf("column %q is the skipped-rank label, not a candidate", col.name))
				}
				col.cand, col.resolved = r.cand, true
			}
			marks[i].Candidate = col.cand
		}
		if err := j.addRow(sc, &g, marks); err != nil {
			return err
		}
		if j.stats.Records == 1024 {
			j.reserveRest(sc.lines.used)
		}
	}
	if sc.err != nil {
		return j.at(sc.line, sc.col, sc.err)
	}
	return nil
}

// genericRows reads a generic CSV's rows in the stretches of a parallel
// read: the columns are a stretch's candidates, numbered by their place in
// g.cols, and a column is first met where it first holds a rank.
func genericRows(g *genericLayout) rowReader {
	return func(s *stretch, sc *csvScanner) error {
		marks, err := s.job.genericRow(sc, g, s.marks[:0])
		if err != nil {
			return err
		}
		s.marks = marks
		first := s.first
		for _, m := range marks {
			if first[m.Candidate].ballot < 0 {
				s.use(m.Candidate, int(m.Candidate))
			}
		}
		return s.job.addRow(sc, g, marks)
	}
}

// genericLayout is where a generic CSV keeps what: its candidate columns,
// the header's width, and the id, precinct and batch columns (-1 for none).
type genericLayout struct {
	cols                []genericColumn
	width               int
	id, precinct, batch int
}

// genericRow appends to marks those of the scanner's current row (not a
// blank one), each naming its column's position in g.cols as the
// candidate.
func (j *job) genericRow(sc *csvScanner, g *genericLayout, marks []tally.Mark) ([]tally.Mark, error) {
	row := sc.fields
	if len(row) > g.width {
		return nil, j.at(sc.line, g.width+1, fmt.Errorf("the row has %d fields, the header %d", len(row), g.width))
	}
	for k := range g.cols {
		col := &g.cols[k]
		if col.index >= len(row) {
			break
		}
		cell := trimSpace(row[col.index])
		if len(cell) == 0 {
			continue
		}
		rank, err := parseRank(cell)
		if err != nil {
			return nil, j.at(sc.line, col.index+1, err)
		}
		marks = append(marks, tally.Mark{Rank: rank, Candidate: uint16(k)})
	}
	return marks, nil
}

// addRow adds the ballot of the scanner's current row.
func (j *job) addRow(sc *csvScanner, g *genericLayout, marks []tally.Mark) error {
	row := sc.fields
	if err := j.add(marks, field(row, g.id), 1, field(row, g.precinct)); err != nil {
		return j.at(sc.line, 0, err)
	}
	if g.batch >= 0 {
		j.out.setBatch(trimSpace(field(row, g.batch)))
	}
	return nil
}

// genericColumn is one candidate column of a generic CSV; the candidate is
// resolved when the column first holds a rank, so a candidate nobody ranked
// need not be known to the contest (as in RCTab).
type genericColumn struct {
	index    int
	name     string
	cand     uint16
	resolved bool
}

// field returns column c of a row, or nil when c is -1 or past the row's end.
func field(row [][]byte, c int) []byte {
	if c < 0 || c >= len(row) {
		return nil
	}
	return trimSpace(row[c])
}

// reserveRest makes room for the records a text file still holds, guessed
// from how many records and marks the bytes used so far held, so a big file
// is not copied again and again as the set grows.
func (j *job) reserveRest(used int64) {
	if used <= 0 || j.total <= used || j.stats.Records == 0 {
		return
	}
	n := float64(j.stats.Records) * float64(j.total-used) / float64(used) * 1.05
	k := float64(len(j.out.set.Marks)) / float64(j.stats.Records) * 1.05
	j.out.reserve(int(n)+1, int(k)+1)
}
