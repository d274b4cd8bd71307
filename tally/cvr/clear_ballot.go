package cvr

import (
	"errors"
	"fmt"
	"strings"

	"votedesk/tally"
)

// Clear Ballot CSV columns before the choices, and the fields of a choice
// column's header "Choice_N_1:Contest:Rank:Vote rule:Choice:Party".
const (
	clearBallotBallotID   = 3
	clearBallotPrecinctID = 4
	clearBallotChoices    = 10

	choiceContest   = 1
	choiceRank      = 2
	choiceName      = 4
	choiceFieldsLen = 6
)

// readClearBallot reads a Clear Ballot CSV. Each column from the 11th on is
// one (candidate, rank) choice of one contest, named in its header; a 1 in
// it marks that candidate at that rank, a 0 leaves it unmarked. Only the
// choice columns of the source's contest are read. BallotID gives the
// ballot id and PrecinctID the precinct.
func readClearBallot(j *job) error {
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
		return j.at(1, 0, errors.New("the file is empty: expected a header row"))
	}
	if len(sc.fields) <= clearBallotChoices {
		return j.at(1, 0, fmt.Errorf("the header has %d columns; choice columns start at column %d", len(sc.fields), clearBallotChoices+1))
	}
	var choices []clearBallotChoice
	var names []string
	contest := j.src.ContestID
	seen := map[string]bool{}
	for c := clearBallotChoices; c < len(sc.fields); c++ {
		parts := strings.Split(string(sc.fields[c]), ":")
		if len(parts) != choiceFieldsLen {
			return j.at(1, c+1, fmt.Errorf("choice header %q has %d fields separated by ':', expected %d", sc.fields[c], len(parts), choiceFieldsLen))
		}
		if contest == "" {
			contest = parts[choiceContest]
		}
		if parts[choiceContest] != contest {
			if j.src.ContestID == "" {
				return j.at(1, c+1, fmt.Errorf("the file has contests %q and %q: the source must name one with contestId", contest, parts[choiceContest]))
			}
			continue
		}
		rank, err := parseRank([]byte(parts[choiceRank]))
		if err != nil {
			return j.at(1, c+1, fmt.Errorf("choice header %q: %w", sc.fields[c], err))
		}
		if j.opts.MaxRankings > 0 && int(rank) > j.opts.MaxRankings {
			return j.at(1, c+1, fmt.Errorf("rank %d is beyond the contest's %d allowed rankings", rank, j.opts.MaxRankings))
		}
		name := parts[choiceName]
		choices = append(choices, clearBallotChoice{index: c, rank: rank, name: name})
		if !seen[name] {
			seen[name] = true
			names = append(names, name)
		}
	}
	if len(choices) == 0 {
		return j.at(1, 0, fmt.Errorf("no choice column is for contest %q", contest))
	}
	j.declare(names)
	width := len(sc.fields)
	var marks []tally.Mark
	for sc.scan() {
		if sc.blank() {
			continue
		}
		row := sc.fields
		if len(row) != width {
			return j.at(sc.line, 0, fmt.Errorf("the row has %d fields, the header %d", len(row), width))
		}
		marks = marks[:0]
		for k := range choices {
			ch := &choices[k]
			switch v := trimSpace(row[ch.index]); string(v) {
			case "0", "":
				continue
			case "1":
			default:
				return j.at(sc.line, ch.index+1, fmt.Errorf("expected 0 or 1, got %q", v))
			}
			if !ch.resolved {
				r, err := j.resolve([]byte(ch.name))
				if err != nil {
					return j.at(sc.line, ch.index+1, err)
				}
				ch.skip, ch.cand, ch.resolved = r.skip, r.cand, true
			}
			if !ch.skip {
				marks = append(marks, tally.Mark{Rank: ch.rank, Candidate: ch.cand})
			}
		}
		if err := j.add(marks, row[clearBallotBallotID], 1, row[clearBallotPrecinctID]); err != nil {
			return j.at(sc.line, 0, err)
		}
	}
	if sc.err != nil {
		return j.at(sc.line, sc.col, sc.err)
	}
	return nil
}

// clearBallotChoice is one choice column of the contest being read.
type clearBallotChoice struct {
	index          int
	rank           uint16
	name           string
	cand           uint16
	skip, resolved bool
}
