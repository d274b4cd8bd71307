package cvr

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"votedesk/tally"
)

// WriteVoteDesk writes ballots as a VoteDesk ranked-ballot CSV (see
// FormatVoteDesk): the candidates line, the header with as many rank
// columns as the deepest ranking, and one row per ballot, in which marks at
// one rank are joined by |. A ballot counted n times is written n times.
// Names must be non-empty and unique, without | or surrounding spaces, and
// not VoteDeskOvervote, the cell of an explicit overvote (tally.Overvote).
// Skipped ranks are empty cells and a candidate ranked again is written
// again: the file is the ballots as cast.
func WriteVoteDesk(w io.Writer, candidates []string, set *tally.BallotSet) error {
	if err := checkVoteDeskNames(candidates); err != nil {
		return err
	}
	ranks := 1
	for _, m := range set.Marks {
		ranks = max(ranks, int(m.Rank))
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	line := []byte(votedeskCandidatesPrefix + " ")
	for i, n := range candidates {
		if i > 0 {
			line = append(line, ',')
		}
		line = appendCSVField(line, spreadsheetSafe(n))
	}
	line = append(line, "\nballot_id"...)
	for r := 1; r <= ranks; r++ {
		line = append(append(line, ",rank_"...), strconv.Itoa(r)...)
	}
	line = append(line, '\n')
	bw.Write(line) // bufio.Writer errors are sticky: Flush reports them
	var row []byte
	for i := range set.Len() {
		marks, count := set.Ballot(i)
		var err error
		if row, err = appendVoteDeskRow(row[:0], set.ID(i), marks, ranks, candidates); err != nil {
			return errorf("write VoteDesk CSV: ballot %d: %w", i+1, err)
		}
		for range count {
			bw.Write(row)
		}
	}
	if err := bw.Flush(); err != nil {
		return errorf("write VoteDesk CSV: %w", err)
	}
	return nil
}

// appendVoteDeskRow appends one ballot's row.
func appendVoteDeskRow(line []byte, id string, marks []tally.Mark, ranks int, names []string) ([]byte, error) {
	line = appendCSVField(line, spreadsheetSafe(id))
	k := 0
	var cell strings.Builder
	for r := 1; r <= ranks; r++ {
		line = append(line, ',')
		cell.Reset()
		for ; k < len(marks) && int(marks[k].Rank) == r; k++ {
			c := marks[k].Candidate
			name := VoteDeskOvervote
			if c != tally.Overvote {
				if int(c) >= len(names) {
					return nil, fmt.Errorf("candidate %d has no name", c)
				}
				name = names[c]
			}
			if cell.Len() > 0 {
				cell.WriteByte('|')
			}
			cell.WriteString(name)
		}
		line = appendCSVField(line, spreadsheetSafe(cell.String()))
	}
	return append(line, '\n'), nil
}

// checkVoteDeskNames checks that names can be written and read back.
func checkVoteDeskNames(names []string) error {
	seen := make(map[string]bool, len(names))
	for _, n := range names {
		switch {
		case n == "":
			return errorf("write VoteDesk CSV: a candidate has an empty name")
		case strings.Contains(n, "|"):
			return errorf("write VoteDesk CSV: candidate name %q contains |, which joins tied names", n)
		case strings.TrimSpace(n) != n:
			return errorf("write VoteDesk CSV: candidate name %q has spaces around it", n)
		case seen[n]:
			return errorf("write VoteDesk CSV: candidate name %q appears twice", n)
		case n == VoteDeskOvervote:
			return errorf("write VoteDesk CSV: candidate name %q is the overvote cell", n)
		}
		seen[n] = true
	}
	return nil
}

// spreadsheetSafe keeps a cell from being taken for a formula when the file
// is opened in a spreadsheet (OWASP's advice on CSV injection): a cell that
// starts with = + - @ a tab or a carriage return gets a leading apostrophe,
// and so does one that starts with an apostrophe, so that reading drops
// exactly one (unescapeCell) and every name comes back as written.
func spreadsheetSafe(s string) string {
	if s != "" && strings.IndexByte("=+-@\t\r'", s[0]) >= 0 {
		return "'" + s
	}
	return s
}

// unescapeCell undoes spreadsheetSafe.
func unescapeCell(b []byte) []byte {
	if len(b) > 0 && b[0] == '\'' {
		return b[1:]
	}
	return b
}

// appendCSVField appends a CSV field, quoted when it holds a comma, quote,
// line break or surrounding space.
func appendCSVField(b []byte, s string) []byte {
	if !strings.ContainsAny(s, ",\"\r\n") && strings.TrimSpace(s) == s {
		return append(b, s...)
	}
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		if s[i] == '"' {
			b = append(b, '"')
		}
		b = append(b, s[i])
	}
	return append(b, '"')
}
