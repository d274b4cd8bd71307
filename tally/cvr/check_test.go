package cvr

import (
	"context"
	"errors"
	"testing"

	"votedesk/tally"
)

// TestReadCheck checks that Options.Check sees every record with its id and
// marks, and that its refusal names the record's line and leaves the set
// untouched.
func TestReadCheck(t *testing.T) {
	path := writeTemp(t, "ballots.csv", "ballot_id,rank_1,rank_2\nb1,A,B\nb2,B,\nb1,A,\n")
	var ids []string
	seen := map[string]bool{}
	opts := Options{Check: func(id []byte, marks []tally.Mark, count uint32) error {
		ids = append(ids, string(id))
		if count != 1 || len(marks) == 0 {
			t.Errorf("record %q: count %d, marks %v", id, count, marks)
		}
		if seen[string(id)] {
			return errors.New("ballot id repeated")
		}
		seen[string(id)] = true
		return nil
	}}
	set := newSet()
	_, err := Read(context.Background(), Source{Provider: FormatVoteDesk, FilePath: path}, IndexCandidates("A", "B"), set, opts)
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Line != 4 || pe.File != "ballots.csv" || err.Error() != "ballots.csv: line 4: ballot id repeated" {
		t.Fatalf("err = %v, want a ParseError on line 4", err)
	}
	if len(ids) != 3 || ids[2] != "b1" {
		t.Errorf("Check saw %q", ids)
	}
	if set.Len() != 0 {
		t.Errorf("a refused read added %d ballots", set.Len())
	}
}
