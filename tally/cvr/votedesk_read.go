package cvr

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"

	"votedesk/tally"
)

// votedeskCandidatesPrefix starts the optional first line of a VoteDesk CSV
// that lists the contest's candidates.
const votedeskCandidatesPrefix = "# candidates:"

// VoteDeskOvervote is the cell of a VoteDesk CSV that marks a rank overvoted
// without naming the candidates (tally.Overvote), unless the source names
// another overvote label. It is the stored form of such a mark too
// (app.OvervoteLabel): no VoteDesk name starts with '#'.
const VoteDeskOvervote = "#overvote"

// readVoteDesk reads VoteDesk's ranked-ballot CSV:
//
//	# candidates: Alice,Bob,"Smith, Carol"
//	ballot_id,rank_1,rank_2,rank_3
//	b-0001,Bob,Alice,
//	b-0002,Alice|Bob,,"Smith, Carol"
//
// The candidates line is optional; when present every name in a cell must be
// on it. A cell names the candidate at that rank: empty is no mark, and
// names joined by | are marked at the same rank (a tie, or an overvote);
// VoteDeskOvervote is an overvote whose candidates are not named.
func readVoteDesk(j *job) error {
	if j.src.OvervoteLabel == "" {
		j.src.OvervoteLabel = VoteDeskOvervote
	}
	f, err := j.open()
	if err != nil {
		return err
	}
	defer f.Close()
	sc := newCSVScanner(j.counting(f))
	sc.prefix = []byte(votedeskCandidatesPrefix)
	if !sc.scan() {
		if sc.err != nil {
			return j.at(1, sc.col, sc.err)
		}
		return j.at(1, 0, errors.New("the file is empty: expected the header ballot_id,rank_1,… rank_n"))
	}
	if sc.prefixed {
		names := make([]string, 0, len(sc.fields))
		j.declared = make(map[string]bool, len(sc.fields))
		for c, f := range sc.fields {
			name := string(unescapeCell(trimSpace(f)))
			if name == "" {
				return j.at(1, c+1, errors.New("empty candidate name in the candidates line"))
			}
			if j.declared[name] {
				return j.at(1, c+1, fmt.Errorf("candidate %q is listed twice", name))
			}
			j.declared[name] = true
			names = append(names, name)
		}
		j.declare(names)
		if !sc.scan() {
			if sc.err != nil {
				return j.at(sc.line, sc.col, sc.err)
			}
			return j.at(1, 0, errors.New("expected the header ballot_id,rank_1,... after the candidates line"))
		}
	}
	if err := checkVoteDeskHeader(sc.fields); err != nil {
		var ce columnError
		errors.As(err, &ce)
		return j.at(sc.line, ce.col, ce.err)
	}
	width := len(sc.fields)
	// A quote in the rows already read ahead (a megabyte) means quoted
	// fields, which only the sequential read can follow, so stretches
	// are not even tried.
	if !bytes.Contains(sc.lines.ahead(), []byte{'"'}) && j.readParallel(f, sc.lines.used, nil, votedeskRows(j.src, width)) {
		return nil
	}
	var marks []tally.Mark
	for sc.scan() {
		if sc.blank() {
			continue
		}
		var err error
		marks, err = votedeskMarks(sc.fields, width, marks[:0], func(name []byte, _ int) (uint16, bool, error) {
			r, err := j.resolve(name)
			return r.cand, !r.skip, err
		})
		if err != nil {
			var ce columnError
			errors.As(err, &ce)
			return j.at(sc.line, ce.col, ce.err)
		}
		if err := j.add(marks, unescapeCell(sc.fields[0]), 1, nil); err != nil {
			return j.at(sc.line, 0, err)
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

// votedeskMarks appends to marks those of a VoteDesk CSV row: each name in
// a rank cell, in order, becomes a mark at that rank of the candidate
// cand(name, place among the row's names) gives, unless keep is false (the
// skipped-rank label). An error is a columnError (0: the whole row).
func votedeskMarks(row [][]byte, width int, marks []tally.Mark, cand func(name []byte, pos int) (c uint16, keep bool, err error)) ([]tally.Mark, error) {
	if len(row) != width {
		return nil, columnError{0, fmt.Errorf("the row has %d fields, the header %d", len(row), width)}
	}
	pos := 0
	for c := 1; c < len(row); c++ {
		cell := unescapeCell(trimSpace(row[c]))
		if len(cell) == 0 {
			continue
		}
		rank, whole := uint16(c), cell
		for {
			name, rest, tied := bytes.Cut(cell, []byte{'|'})
			name = trimSpace(name)
			if len(name) == 0 {
				return nil, columnError{c + 1, fmt.Errorf("empty name in the tie %q", whole)}
			}
			k, keep, err := cand(name, pos)
			if err != nil {
				return nil, columnError{c + 1, err}
			}
			pos++
			if keep {
				marks = append(marks, tally.Mark{Rank: rank, Candidate: k})
			}
			if !tied {
				break
			}
			cell = rest
		}
	}
	return marks, nil
}

// votedeskRows reads a VoteDesk CSV's rows in the stretches of a parallel
// read: each stretch numbers the names as it meets them, but for the
// labels, which it reads as resolving does (labels.read), so that adding
// the ballot checks an overvote as the sequential read does.
func votedeskRows(src Source, width int) rowReader {
	labels := src.labels()
	return func(s *stretch, sc *csvScanner) error {
		marks, err := votedeskMarks(sc.fields, width, s.marks[:0], func(name []byte, pos int) (uint16, bool, error) {
			if r, ok := labels.read(name); ok {
				return r.cand, !r.skip, nil
			}
			k, ok := s.note(name, pos)
			if !ok {
				return 0, false, errTooManyNames
			}
			return k, true, nil
		})
		if err != nil {
			return err
		}
		s.marks = marks
		return s.job.add(marks, unescapeCell(sc.fields[0]), 1, nil)
	}
}

// errTooManyNames stops a stretch that met more names than a contest may
// have candidates (the sequential read says which).
var errTooManyNames = errors.New("more names than a contest may have candidates")

// checkVoteDeskHeader checks the header ballot_id,rank_1,...,rank_n.
func checkVoteDeskHeader(h [][]byte) error {
	if string(trimSpace(h[0])) != "ballot_id" {
		return columnError{1, fmt.Errorf("expected the header ballot_id,rank_1,..., got %q first", h[0])}
	}
	if len(h) < 2 {
		return columnError{0, errors.New("the header has no rank_1 column")}
	}
	if len(h)-1 > 0xFFFF {
		return columnError{0, fmt.Errorf("the header has %d rank columns, more than 65535", len(h)-1)}
	}
	for c := 1; c < len(h); c++ {
		if want := "rank_" + strconv.Itoa(c); string(trimSpace(h[c])) != want {
			return columnError{c + 1, fmt.Errorf("expected %q, got %q", want, h[c])}
		}
	}
	return nil
}

// columnError is an error about one column of a line.
type columnError struct {
	col int
	err error
}

func (e columnError) Error() string { return e.err.Error() }
