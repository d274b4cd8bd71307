package cli

import (
	"maps"
	"slices"

	"votedesk/tally"
	"votedesk/tally/cvr"
)

// cvrFileUsage is how a command that reads a cast vote record file named
// on the command line (not by an RCTab config) is told how to read it.
const cvrFileUsage = "[--format F] [--contest ID] [--skipped-label L] [--overvote-label L] [--write-in-label L]"

// cvrFileFlags are the flags of cvrFileUsage.
var cvrFileFlags = map[string]flagKind{"format": valueFlag, "contest": valueFlag,
	"skipped-label": valueFlag, "overvote-label": valueFlag, "write-in-label": valueFlag}

// cvrFileFlagGiven reports whether any of cvrFileFlags is given.
func cvrFileFlagGiven(c *call) bool {
	for f := range cvrFileFlags {
		if c.args.given[f] {
			return true
		}
	}
	return false
}

// withCVRFileFlags returns a command's own flags with cvrFileFlags.
func withCVRFileFlags(own map[string]flagKind) map[string]flagKind {
	out := maps.Clone(own)
	maps.Copy(out, cvrFileFlags)
	return out
}

// cvrSource is the source the command line names for the file at path:
// its format (detected when not given), its contest, and the words its
// ranking cells use for a skipped rank, an overvote and an undeclared
// write-in (RCTab's skippedRankLabel, overvoteLabel and
// undeclaredWriteInLabel; an ES&S export's own are taken when not given).
func cvrSource(c *call, path string) cvr.Source {
	format := c.args.str("format")
	if f := canonicalFormat(format); f != "" {
		format = f
	}
	return cvr.Source{Provider: cvr.Format(format), FilePath: path, ContestID: c.args.str("contest"),
		SkippedRankLabel: c.args.str("skipped-label"), OvervoteLabel: c.args.str("overvote-label"),
		UndeclaredWriteInLabel: c.args.str("write-in-label")}
}

// fileContest is the contest of a file counted alone, named by its title
// or else by name: its candidates (those a BLT file withdraws excluded,
// the undeclared write-in marked), and the default rules with the file's
// seats. Such a file says how many ranking positions its ballots had only
// by its marks, so where voters used more positions than there are
// declared candidates (three ranks for two candidates and a write-in, in
// Oakland), those are allowed; a --rule still decides.
func fileContest(f *cvr.File, name string) (tally.Contest, tally.Rules) {
	contest := tally.Contest{Name: f.Title, Candidates: make([]tally.Candidate, len(f.Candidates))}
	if contest.Name == "" {
		contest.Name = name
	}
	for i, n := range f.Candidates {
		contest.Candidates[i] = tally.Candidate{Name: n, Excluded: slices.Contains(f.Withdrawn, n), UndeclaredWriteIn: n == cvr.UndeclaredWriteIn}
	}
	rules := tally.DefaultRules()
	if f.Seats > 1 {
		rules.NumberOfWinners = f.Seats
	}
	if p := f.Ballots.Positions(); p > contest.DeclaredCount() {
		rules.MaxRankingsAllowed = p
	}
	return contest, rules
}
