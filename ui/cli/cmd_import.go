package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"golang.org/x/term"

	"votedesk/app"
	"votedesk/app/dataio"
	"votedesk/tally"
	"votedesk/tally/cvr"
	"votedesk/tally/rctab"
	"votedesk/tally/report"
)

func init() {
	register(
		&command{path: "import cvr",
			usage: "import cvr ELECTION FILE... " + cvrFileUsage + " [--alias NAME=CANDIDATE ...]\n" +
				"  votedesk import cvr ELECTION --rctab CONFIG.json   (the config's files, read as RCTab reads them)\n" +
				"  (cast vote records, all or nothing; FILE may be a Dominion or Hart export folder; F = " + dataio.FormatList + "; detected when not given)",
			flags: withCVRFileFlags(map[string]flagKind{"alias": valueFlag, "rctab": valueFlag}),
			db:    true, auth: true, run: importCVR},
		&command{path: "import contests",
			usage: "import contests CONFIG.json|FOLDER...   (a draft election per RCTab contest config, with its candidates, method, rules and cast vote records; a folder means every config in it; each contest all or nothing)",
			db:    true, auth: true, run: importContests},
		&command{path: "import voters",
			usage: "import voters ELECTION FILE [--dry-run] [--skip-invalid]   (one name per line, or CSV with a name column, or first, middle, last name and suffix columns, and optional email, id columns)",
			flags: map[string]flagKind{"dry-run": boolFlag, "skip-invalid": boolFlag},
			db:    true, auth: true, run: importVoters},
	)
}

func importCVR(c *call) error {
	const usage = "import cvr ELECTION FILE... " + cvrFileUsage + " [--alias NAME=CANDIDATE ...] | import cvr ELECTION --rctab CONFIG.json"
	min := 2
	if c.args.given["rctab"] {
		min = 1
	}
	if err := c.args.want(min, -1, usage); err != nil {
		return err
	}
	election := c.args.pos[0]
	format := cvr.Format(c.args.str("format"))
	if format != "" && cvr.Format(canonicalFormat(string(format))) == "" {
		return usagef("--format takes one of %s, not %q", dataio.FormatList, format)
	}
	aliases := map[string]string{}
	var sources []cvr.Source
	var contest *dataio.ContestReading
	if path := c.args.str("rctab"); path != "" {
		if len(c.args.pos) > 1 || cvrFileFlagGiven(c) {
			return usagef("with --rctab the config names the files, their format, contest and labels: import cvr ELECTION --rctab CONFIG.json")
		}
		cfg, err := rctab.Load(path)
		if err != nil {
			return &app.Error{Code: app.CodeInvalid, Message: tally.Message(err), Err: err}
		}
		rules, err := cfg.Rules()
		if err != nil {
			return &app.Error{Code: app.CodeInvalid, Message: tally.Message(err), Err: err}
		}
		sources = append(sources, cfg.CVRFileSources...)
		contest = &dataio.ContestReading{RecordID: rctab.RecordID}
		contest.Candidates, contest.Read = cfg.Reader(rules)
		for _, cand := range cfg.Contest().Candidates {
			contest.Names = append(contest.Names, cand.Name)
		}
	}
	for _, f := range c.args.pos[1:] {
		sources = append(sources, cvrSource(c, f))
	}
	for _, a := range c.args.all("alias") {
		name, cand, err := dataio.ParseAlias(a)
		if err != nil {
			return usagef("--alias: %v", err)
		}
		if contest == nil {
			aliases[name] = cand
			continue
		}
		// With --rctab, --alias CONTEST=CANDIDATE stores the config's
		// candidate CONTEST as the election's CANDIDATE.
		i := slices.Index(contest.Names, name)
		if i < 0 {
			return usagef("--alias %s: the config has no candidate %q", a, name)
		}
		contest.Names[i] = cand
	}
	p := c.progress()
	var progress func(dataio.Progress)
	if p.w != nil {
		progress = p.report
	}
	im, err := dataio.ImportCVRs(c.ctx, c.backend.Service, c.actor, election, sources,
		dataio.CVROptions{Aliases: aliases, Contest: contest, Progress: progress})
	p.end()
	if err != nil {
		return err
	}
	return c.out(im, func(w io.Writer) {
		fmt.Fprintf(w, "imported %s ballots into %q from %d file(s):\n", thousands(im.Ballots), election, len(im.Files))
		for _, f := range im.Files {
			var notes []string
			if f.Undervotes > 0 {
				notes = append(notes, fmt.Sprintf("%s with no rankings", thousands(f.Undervotes)))
			}
			if f.Skipped > 0 {
				notes = append(notes, fmt.Sprintf("%s without this contest skipped", thousands(f.Skipped)))
			}
			if f.Repeated > 0 {
				notes = append(notes, fmt.Sprintf("%s rank a candidate twice (kept as cast)", thousands(f.Repeated)))
			}
			if f.WithoutIDs > 0 {
				notes = append(notes, fmt.Sprintf("%s without ids, given %s/N from the file's SHA-256", thousands(f.WithoutIDs), f.FileID))
			}
			what := string(f.Format)
			if f.Contest != "" {
				what += ", contest " + f.Contest
			}
			line := fmt.Sprintf("  %s (%s): %s records", f.Name, what, thousands(f.Records))
			if f.Ballots != f.Records {
				line += fmt.Sprintf(", %s ballots", thousands(f.Ballots))
			}
			if len(notes) > 0 {
				line += "; " + strings.Join(notes, "; ")
			}
			fmt.Fprintln(w, line)
		}
		if len(im.Matches) > 0 {
			fmt.Fprintln(w, "names matched other than exactly:")
			for _, m := range im.Matches {
				fmt.Fprintf(w, "  %q -> %q (%s)\n", m.InFile, m.Candidate, m.How)
			}
		}
	})
}

// importContests makes an election per RCTab contest config and imports its
// ballots, with one progress line and one table of what each did.
func importContests(c *call) error {
	const usage = "import contests CONFIG.json|FOLDER..."
	if err := c.args.want(1, -1, usage); err != nil {
		return err
	}
	configs, err := dataio.ExpandConfigs(c.args.pos)
	if err != nil {
		return err
	}
	p := c.progress()
	results := dataio.ImportContests(c.ctx, c.backend.Service, c.actor, configs, func(pr dataio.ContestsProgress) {
		line := fmt.Sprintf("contest %d of %d: %s", pr.Contest+1, pr.Contests, filepath.Base(pr.Config))
		if pr.Total > 0 {
			line += fmt.Sprintf(" (%s %d%%)", pr.Stage, 100*pr.Done/pr.Total)
		}
		p.show(line)
	})
	p.end()
	failed := 0
	for _, r := range results {
		if r.Err != nil {
			failed++
		}
	}
	err = c.out(results, func(out io.Writer) {
		w := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
		fmt.Fprintln(w, "CONFIG\tELECTION\tBALLOTS")
		for _, r := range results {
			if r.Err != nil {
				fmt.Fprintf(w, "%s\tFAILED: %s\t\n", filepath.Base(r.Config), r.Error)
				continue
			}
			fmt.Fprintf(w, "%s\t%s\t%s\n", filepath.Base(r.Config), r.Election, thousands(r.Import.Ballots))
		}
		w.Flush()
		fmt.Fprintf(out, "%d contest(s) imported, %d failed\n", len(results)-failed, failed)
	})
	if err != nil {
		return err
	}
	if failed == len(results) {
		msg := fmt.Sprintf("all %d contests failed; nothing was imported", failed)
		if failed == 1 {
			msg = "the contest failed; nothing was imported"
		}
		return &app.Error{Code: app.CodeInvalid, Message: msg}
	}
	if failed > 0 {
		return &partialError{fmt.Sprintf("%d of %d contests failed; the others were imported", failed, len(results))}
	}
	return nil
}

// canonicalFormat returns the format named s (any letter case), or "".
func canonicalFormat(s string) string {
	if s == "" {
		return ""
	}
	for _, f := range []cvr.Format{cvr.FormatCDF, cvr.FormatGenericCSV, cvr.FormatClearBallot, cvr.FormatESS, cvr.FormatDominion, cvr.FormatHart, cvr.FormatBallotImage, cvr.FormatBLT, cvr.FormatPrefLib, cvr.FormatVoteDesk} {
		if strings.EqualFold(s, string(f)) {
			return string(f)
		}
	}
	return ""
}

func importVoters(c *call) error {
	if err := c.args.want(2, 2, "import voters ELECTION FILE [--dry-run] [--skip-invalid]"); err != nil {
		return err
	}
	election, path := c.args.pos[0], c.args.pos[1]
	f, err := os.Open(path)
	if err != nil {
		return app.Errorf(app.CodeInvalid, "cannot read %s: %v", path, unwrapPathError(err))
	}
	defer f.Close()
	book, err := dataio.ReadPollBook(f)
	if err != nil {
		return &app.Error{Code: app.ErrorCode(err), Message: path + ": " + app.ErrorMessage(err), Err: err}
	}
	opts := dataio.PollBookOptions{DryRun: c.args.flag("dry-run"), SkipInvalid: c.args.flag("skip-invalid")}
	res, err := dataio.ImportPollBook(c.ctx, c.backend.Service, c.actor, election, book, opts)
	if err != nil {
		return err
	}
	return c.out(res, func(w io.Writer) {
		verb := "added"
		if res.DryRun {
			verb = "dry run: would add"
		}
		fmt.Fprintf(w, "%s %s voter(s) to the poll book of %q; %d skipped, %d invalid\n", verb, thousands(len(res.Added)), election, len(res.Skipped), len(res.Invalid))
		for _, r := range res.Skipped {
			fmt.Fprintf(w, "  skipped line %d: %s\n", r.Line, r.Reason)
		}
		for _, r := range res.Invalid {
			fmt.Fprintf(w, "  invalid line %d: %s\n", r.Line, r.Reason)
		}
	})
}

// unwrapPathError drops the path an *os.PathError repeats.
func unwrapPathError(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}

// thousands writes n with its digits grouped in threes.
func thousands(n int) string { return report.Thousands(strconv.Itoa(n)) }

// progressLine shows an import's progress on standard error when it is a
// terminal, one line rewritten in place; elsewhere it shows nothing.
type progressLine struct {
	w    io.Writer
	last string
}

func (c *call) progress() *progressLine {
	f, ok := c.deps.Stderr.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return &progressLine{}
	}
	return &progressLine{w: f}
}

// report is the dataio progress callback.
func (p *progressLine) report(pr dataio.Progress) {
	if pr.Total <= 0 {
		return
	}
	pct := 100 * pr.Done / pr.Total
	var s string
	if pr.Stage == dataio.StageRead {
		s = fmt.Sprintf("reading %s: %d%%", pr.File, pct)
	} else {
		s = fmt.Sprintf("recording ballots: %s of %s (%d%%)", thousands(int(pr.Done)), thousands(int(pr.Total)), pct)
	}
	p.show(s)
}

// show rewrites the line with s.
func (p *progressLine) show(s string) {
	if p.w != nil && s != p.last {
		fmt.Fprintf(p.w, "\r\033[K%s", s)
		p.last = s
	}
}

// end clears the progress line.
func (p *progressLine) end() {
	if p.w != nil && p.last != "" {
		fmt.Fprint(p.w, "\r\033[K")
	}
}
