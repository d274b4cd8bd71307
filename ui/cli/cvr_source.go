package cli

import (
	"maps"

	"votedesk/tally/cvr"
)

// cvrFileUsage is how a command that reads a cast vote record file named
// on the command line (not by an RCTab config) is told how to read it.
const cvrFileUsage = "[--format F] [--contest ID] [--skipped-label L] [--overvote-label L] [--write-in-label L]"

// cvrFileFlags are the flags of cvrFileUsage.
var cvrFileFlags = map[string]flagKind{"format": valueFlag, "contest": valueFlag,
	"skipped-label": valueFlag, "overvote-label": valueFlag, "write-in-label": valueFlag}

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
