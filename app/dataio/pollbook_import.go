package dataio

import (
	"context"
	"fmt"
	"strings"

	"votedesk/app"
)

// PollBookImport is what importing a poll-book file did, or would do in a
// dry run: the entries added, the rows skipped (already in the poll book,
// or repeated in the file) and the invalid rows, each with its line.
type PollBookImport struct {
	DryRun  bool            `json:"dry_run"`
	Added   []PollBookEntry `json:"added"`
	Skipped []PollBookRow   `json:"skipped"`
	Invalid []PollBookRow   `json:"invalid"`
}

// PollBookOptions tune a poll-book import.
type PollBookOptions struct {
	// DryRun checks everything the import would (rights, the election's
	// state, each entry) and writes nothing.
	DryRun bool
	// SkipInvalid imports the valid entries of a file that has invalid
	// rows; without it such a file is refused.
	SkipInvalid bool
}

// ImportPollBook adds a poll-book file's new entries to an election's poll
// book in one change; entries already there, and rows repeating an earlier
// one, are skipped. A file with invalid rows is refused, naming them, unless
// opts.SkipInvalid; a dry run reports them instead.
func ImportPollBook(ctx context.Context, svc *app.Service, actor, election string, f *PollBookFile, opts PollBookOptions) (*PollBookImport, error) {
	ctx, _, err := svc.HoldElection(ctx, actor, election) // checked and added to one election
	if err != nil {
		return nil, err
	}
	voters, err := svc.Voters(ctx, actor, election)
	if err != nil {
		return nil, err
	}
	listed := make(map[string]bool, len(voters))
	for _, v := range voters {
		listed[v.Name] = true
	}
	if len(f.Invalid) > 0 && !opts.SkipInvalid && !opts.DryRun {
		return nil, invalidRows(f.Invalid)
	}
	out := &PollBookImport{DryRun: opts.DryRun, Invalid: f.Invalid}
	var add []app.VoterEntry
	for _, e := range f.Entries {
		if listed[e.Name] {
			out.Skipped = append(out.Skipped, PollBookRow{Line: e.Line, Text: e.Name, Reason: fmt.Sprintf("%q is already in the poll book", e.Name)})
			continue
		}
		out.Added = append(out.Added, e)
		add = append(add, e.VoterEntry)
	}
	out.Skipped = mergeRows(out.Skipped, f.Repeated)
	if len(add) == 0 {
		return out, nil
	}
	if opts.DryRun {
		err = svc.CheckVoters(ctx, actor, election, add...)
	} else {
		err = svc.AddVoters(ctx, actor, election, add...)
	}
	if err != nil {
		return nil, err
	}
	return out, nil
}

// mergeRows merges two lists of rows sorted by line.
func mergeRows(a, b []PollBookRow) []PollBookRow {
	out := make([]PollBookRow, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		if a[0].Line <= b[0].Line {
			out, a = append(out, a[0]), a[1:]
		} else {
			out, b = append(out, b[0]), b[1:]
		}
	}
	return append(append(out, a...), b...)
}

// invalidRows is the refusal of a file with invalid rows, naming the first.
func invalidRows(rows []PollBookRow) error {
	const shown = 5
	var b strings.Builder
	fmt.Fprintf(&b, "%d row(s) of the poll-book file are invalid, so nothing was imported (fix them, or skip invalid rows):", len(rows))
	for _, r := range rows[:min(shown, len(rows))] {
		fmt.Fprintf(&b, "\n  line %d: %s", r.Line, r.Reason)
	}
	if len(rows) > shown {
		fmt.Fprintf(&b, "\n  and %d more", len(rows)-shown)
	}
	return app.Errorf(app.CodeInvalid, "%s", b.String())
}
