package cvr

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"votedesk/tally"
)

// TestBLTMarks reads each construct of a ballot line as OpenSTV and
// ChoicePlus write them: "-" a skipped rank, "a=b" two candidates at one
// rank, "-=-" an overvote whose candidates the count did not record (the
// token that made 28 of 32 real US BLT files unreadable), "3=-" an overvote
// with one known candidate, a ballot id in parentheses, comments.
func TestBLTMarks(t *testing.T) {
	for _, tc := range []struct{ line, want string }{
		{"1 1 -=- 2 0", "A * B"},
		{"1 1 - 2 0", "A - B"},
		{"1 - - 3 0", "- - C"},
		{"1 1=2 3 0", "A=B C"},
		{"1 2=1=2 0", "B=A"},
		{"1 3=- 1 0", "* A"},
		{"1 -=-=- 0", "*"},
		{"1 -=- -=- 0", "* *"},
		{"1 1 1 1 0", "A A A"}, // repeated rankings are kept for the rules to judge
		{"(b-7) 1 2 0", "B"},
		{"1 2 0 # a comment", "B"},
		{"1 0", ""},
	} {
		t.Run(tc.line, func(t *testing.T) {
			path := writeTemp(t, "e.blt", "3 1\n"+tc.line+"\n0\n\"A\"\n\"B\"\n\"C\"\n\"Title\"\n")
			f, err := ReadFile(context.Background(), Source{FilePath: path}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if got := render(&f.Ballots, 0, f.Candidates); got != tc.want {
				t.Errorf("%q reads as %q, want %q", tc.line, got, tc.want)
			}
			if f.Format != FormatBLT || f.Title != "Title" || f.Seats != 1 {
				t.Errorf("format %s, title %q, seats %d", f.Format, f.Title, f.Seats)
			}
		})
	}
}

// TestBLTOvervoteCounts counts "-=-" under RCTab's overvote rules: skipping
// to the next rank counts the ballot for B; exhausting at the overvote
// leaves it inactive.
func TestBLTOvervoteCounts(t *testing.T) {
	path := writeTemp(t, "e.blt", "3 1\n2 1 0\n2 2 0\n1 3 -=- 2 0\n0\n\"A\"\n\"B\"\n\"C\"\n")
	f, err := ReadFile(context.Background(), Source{FilePath: path}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	contest := tally.Contest{Name: "t"}
	for _, n := range f.Candidates {
		contest.Candidates = append(contest.Candidates, tally.Candidate{Name: n})
	}
	for _, tc := range []struct {
		rule   tally.OvervoteRule
		winner string
	}{{tally.AlwaysSkipToNextRank, "B"}, {tally.ExhaustImmediately, ""}} {
		rules := tally.DefaultRules()
		rules.OvervoteRule = tc.rule
		rules.TiebreakMode = tally.Random
		rules.RandomSeed = 1
		res, err := tally.Tabulate(contest, &f.Ballots, tally.IRV, rules)
		if err != nil {
			t.Fatalf("%s: %v", tc.rule, err)
		}
		if tc.winner != "" && (len(res.Winners) != 1 || f.Candidates[res.Winners[0]] != tc.winner) {
			t.Errorf("%s: winners %v, want %s", tc.rule, res.Winners, tc.winner)
		}
		if over := res.Passes[0].Rounds[len(res.Passes[0].Rounds)-1].Inactive.Overvotes; over.IsZero() != (tc.winner != "") {
			t.Errorf("%s: %s ballots inactive by overvote at the end", tc.rule, over)
		}
	}
}

// TestBLTHeaderAndWithdrawn reads the header's seats and the withdrawn
// candidates line (negated numbers), which the count then excludes.
func TestBLTHeaderAndWithdrawn(t *testing.T) {
	path := writeTemp(t, "e.blt", "# a comment first\n4 2\n-2 -4\n1 1 2 3 0\n3 2 1 0\n0\n\"Ann\"\n\"Bob\"\n\"Cy\"\n\"Di\"\n\"Board\"\n")
	f, err := ReadFile(context.Background(), Source{FilePath: path}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if f.Seats != 2 || !slices.Equal(f.Withdrawn, []string{"Bob", "Di"}) || f.Title != "Board" || f.Ballots.Total() != 4 {
		t.Errorf("seats %d, withdrawn %q, title %q, %d ballots", f.Seats, f.Withdrawn, f.Title, f.Ballots.Total())
	}
}

// TestBLTRefusals names the file and line of every malformed construct.
func TestBLTRefusals(t *testing.T) {
	for _, tc := range []struct{ file, want string }{
		{"3 1\n1 4 0\n0\n\"A\"\n\"B\"\n\"C\"\n", "e.blt: line 2: rank 1: expected a candidate number from 1 to 3"},
		{"3 1\n1 1=-2 0\n0\n\"A\"\n\"B\"\n\"C\"\n", "line 2: rank 1"},
		{"3 1\n1 1== 0\n0\n\"A\"\n\"B\"\n\"C\"\n", "line 2: rank 1"},
		{"3 1\n1 1 2\n0\n\"A\"\n\"B\"\n\"C\"\n", "line 2: a ballot line must end with 0"},
		{"3 1\n0 1 0\n0\n\"A\"\n\"B\"\n\"C\"\n", "line 2: ballot weight must be a whole number from 1"},
		{"3 1\n-4\n1 1 0\n0\n\"A\"\n\"B\"\n\"C\"\n", "line 2: withdrawn candidates are written -1 to -3"},
		{"3\n", "line 1: expected the numbers of candidates and seats"},
		{"3 1\n1 1 0\n0\n\"A\"\n\"B\"\n", "the file names 2 of its 3 candidates"},
		{"3 1\n1 1 0\n", "the file ends before the end-of-ballots line 0"},
		{"2 1\n4294967295 1 0\n4294967295 2 0\n0\n\"A\"\n\"B\"\n", "line 2: the file holds more than 1000000000 ballots"},
	} {
		path := writeTemp(t, "e.blt", tc.file)
		_, err := ReadFile(context.Background(), Source{Provider: FormatBLT, FilePath: path}, Options{})
		var pe *ParseError
		if !errors.As(err, &pe) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want a ParseError with %q", tc.file, err, tc.want)
		}
	}
}
