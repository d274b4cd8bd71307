package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"text/tabwriter"

	"votedesk/app"
	"votedesk/app/dataio"
	"votedesk/tally"
	"votedesk/tally/cvr"
	"votedesk/tally/rctab"
	"votedesk/tally/report"
)

func init() {
	register(&command{path: "tally",
		usage: "tally [ELECTION] --rctab CONFIG.json --output DIR [--rule NAME=VALUE ...]\n" +
			"  votedesk tally --rctab CONFIG|FOLDER [--rctab ...] --output DIR [--rule NAME=VALUE ...] [--json]   (many contests, a folder each)\n" +
			"  votedesk tally --method M --cvr FILE|FOLDER " + cvrFileUsage + " [--seats N] [--rule NAME=VALUE ...] [--json]\n" +
			"  votedesk tally ELECTION [--method M] [--rule NAME=VALUE ...] [--json]",
		flags: withCVRFileFlags(map[string]flagKind{"rctab": valueFlag, "output": valueFlag, "method": valueFlag, "cvr": valueFlag,
			"seats": valueFlag, "rule": valueFlag}),
		run: tallyCommand})
}

// generatedBy names VoteDesk in the reports it writes.
const generatedBy = "VoteDesk"

func tallyCommand(c *call) error {
	if c.deps.Getenv("GOGC") == "" {
		// A count holds every ballot and the audit trail at once, and
		// allocates little beside them once they are read, so collecting
		// garbage at a fifth of the default growth costs no time that
		// shows, and keeps peak memory near what is live. Peak memory
		// follows where the last collections fall: at 50%, 6,000,000
		// ballots peaked at 577 to 650 MB from one build to the next, at
		// 20% at 485 to 538 MB, in the same 4.6 s (2026-11-27).
		debug.SetGCPercent(20)
	}
	switch {
	case c.args.given["rctab"]:
		return tallyRCTab(c)
	case c.args.given["cvr"]:
		return tallyCVR(c)
	case len(c.args.pos) == 1:
		return tallyElection(c)
	}
	return usagef("usage: votedesk tally [ELECTION] --rctab CONFIG --output DIR | --method M --cvr FILE | ELECTION")
}

// ruleSettings parses every --rule NAME=VALUE.
func ruleSettings(c *call) ([]tally.Setting, error) {
	var out []tally.Setting
	for _, arg := range c.args.all("rule") {
		s, err := tally.ParseRuleArg(arg)
		if err != nil {
			return nil, usagef("--rule %s: %v", arg, err)
		}
		out = append(out, s)
	}
	return out, nil
}

func tallyRCTab(c *call) error {
	const usage = "usage: votedesk tally [ELECTION] --rctab CONFIG.json --output DIR [--rule NAME=VALUE ...] | tally --rctab CONFIG|FOLDER [--rctab ...] --output DIR"
	if len(c.args.pos) > 1 || c.args.str("output") == "" || c.args.given["cvr"] || c.args.given["method"] {
		return usagef(usage)
	}
	settings, err := ruleSettings(c)
	if err != nil {
		return err
	}
	configs, out := c.args.all("rctab"), c.args.str("output")
	opts := []rctab.RunOption{rctab.WithRules(settings...), rctab.WithGeneratedBy(generatedBy)}
	if len(configs) > 1 || isDir(configs[0]) {
		if len(c.args.pos) > 0 {
			return usagef("an election is counted under one config: " + usage)
		}
		return tallyRCTabMany(c, configs, out, opts)
	}
	config := configs[0]
	if len(c.args.pos) == 0 {
		if err := rctab.RunConfig(c.ctx, config, out, opts...); err != nil {
			return &app.Error{Code: app.CodeInvalid, Message: err.Error(), Err: err}
		}
		return c.done("wrote the reports of %s to %s", config, out)
	}
	// A stored election's ballots, counted under the config's rules: the
	// same reports as counting the config's files, from what the election
	// holds.
	if err := c.open(); err != nil {
		return err
	}
	defer c.backend.Store.Close()
	if err := c.signIn(); err != nil {
		return err
	}
	in, err := c.backend.Service.CountInputWithIDs(c.ctx, c.actor, c.args.pos[0])
	if err != nil {
		return err
	}
	names := make([]string, len(in.Candidates))
	for i, cand := range in.Candidates {
		names[i] = cand.Name
	}
	opts = append(opts, rctab.WithStatus(in.Election.ResultsStanding(c.backend.Service.Now()).String()), rctab.WithNotes(in.Notes...))
	if err := rctab.RunBallots(config, out, names, in.Ballots, opts...); err != nil {
		return &app.Error{Code: app.CodeInvalid, Message: err.Error(), Err: err}
	}
	for _, n := range in.Notes {
		fmt.Fprintln(c.deps.Stderr, "note: "+n)
	}
	return c.done("wrote the reports of %q (%d ballots, log position %d) under %s to %s", in.Election.Name, in.Ballots.Total(), in.HeadSeq, config, out)
}

// isDir reports whether path is a folder.
func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

// tallyRCTabMany runs many contest configs (files, or every config in a
// folder) into a folder each under out, with one progress line and one
// table of what each decided.
func tallyRCTabMany(c *call, args []string, outRoot string, opts []rctab.RunOption) error {
	configs, err := dataio.ExpandConfigs(args)
	if err != nil {
		return err
	}
	p := c.progress()
	runs, err := rctab.RunConfigs(c.ctx, configs, outRoot, func(done, total int, config string) {
		p.show(fmt.Sprintf("contest %d of %d: %s", done+1, total, filepath.Base(config)))
	}, opts...)
	p.end()
	if err != nil {
		return &app.Error{Code: app.CodeInvalid, Message: tally.Message(err), Err: err}
	}
	type row struct {
		Config  string   `json:"config"`
		Output  string   `json:"output"`
		Contest string   `json:"contest,omitempty"`
		Winners []string `json:"winners,omitempty"`
		Ballots uint64   `json:"ballots,omitempty"`
		Rounds  int      `json:"rounds,omitempty"`
		Error   string   `json:"error,omitempty"`
	}
	rows := make([]row, len(runs))
	failed := 0
	for i, r := range runs {
		rows[i] = row{Config: r.Config, Output: r.Output, Contest: r.Outcome.Contest, Winners: r.Outcome.Winners, Ballots: r.Outcome.Ballots, Rounds: r.Outcome.Rounds}
		if r.Err != nil {
			failed++
			rows[i].Error = tally.Message(r.Err)
		}
	}
	err = c.out(rows, func(out io.Writer) {
		w := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
		fmt.Fprintln(w, "CONTEST\tWINNER(S)\tBALLOTS\tROUNDS\tREPORTS")
		for _, r := range rows {
			if r.Error != "" {
				fmt.Fprintf(w, "%s\tFAILED: %s\t\t\t\n", filepath.Base(r.Config), r.Error)
				continue
			}
			fmt.Fprintf(w, "%s\t%s\t%s\t%d\t%s\n", r.Contest, strings.Join(r.Winners, ", "), thousands(int(r.Ballots)), r.Rounds, r.Output)
		}
		w.Flush()
		fmt.Fprintf(out, "%d contest(s) counted, %d failed; reports in %s\n", len(runs)-failed, failed, outRoot)
	})
	if err != nil {
		return err
	}
	if failed == len(runs) {
		return &app.Error{Code: app.CodeInvalid, Message: fmt.Sprintf("all %d contests failed; no report was written", failed)}
	}
	if failed > 0 {
		return &partialError{fmt.Sprintf("%d of %d contests failed; the others' reports are written", failed, len(runs))}
	}
	return nil
}

func tallyCVR(c *call) error {
	if len(c.args.pos) != 0 || c.args.str("method") == "" {
		return usagef("usage: votedesk tally --method M --cvr FILE|FOLDER " + cvrFileUsage + " [--seats N] [--rule NAME=VALUE ...] [--json]")
	}
	method, err := tally.ParseMethod(c.args.str("method"))
	if err != nil {
		return usagef("%v", err)
	}
	settings, err := ruleSettings(c)
	if err != nil {
		return err
	}
	f, err := cvr.ReadFile(c.ctx, cvrSource(c, c.args.str("cvr")), cvr.Options{})
	if err != nil {
		return &app.Error{Code: app.CodeInvalid, Message: err.Error(), Err: err}
	}
	contest, rules := fileContest(f, c.args.str("cvr"))
	if s := c.args.str("seats"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			return usagef("--seats takes a number of seats, not %q", s)
		}
		rules.NumberOfWinners = n
	}
	for _, s := range settings {
		s.Apply(&rules)
	}
	res, err := tally.Tabulate(contest, &f.Ballots, method, rules)
	if err != nil {
		return &app.Error{Code: app.CodeInvalid, Message: fmt.Sprintf("%s: %v", c.args.str("cvr"), err), Err: err}
	}
	return c.writeResult(report.Header{GeneratedBy: generatedBy, Contest: contest.Name}, contest, rules, res)
}

func tallyElection(c *call) error {
	if err := c.open(); err != nil {
		return err
	}
	defer c.backend.Store.Close()
	if err := c.signIn(); err != nil {
		return err
	}
	rules, err := c.rules()
	if err != nil {
		return err
	}
	counted, _, err := c.backend.Service.CountStored(c.ctx, c.actor, c.args.pos[0], c.args.str("method"), rules, nil)
	if err != nil {
		return err
	}
	if !c.json {
		fmt.Fprintln(c.deps.Stdout, counted.Standing)
		fmt.Fprintf(c.deps.Stdout, "%d ballots, counted from log position %d (head %s)\n", counted.Ballots.Total(), counted.HeadSeq, counted.HeadHash)
	}
	return c.writeResult(report.Header{GeneratedBy: generatedBy, Contest: counted.Contest.Name, Status: counted.Standing.String()}, counted.Contest, counted.Rules, counted.Result)
}

// writeResult prints a count: RCTab's JSON or the ranking JSON with --json,
// tables otherwise.
func (c *call) writeResult(h report.Header, contest tally.Contest, rules tally.Rules, res tally.Result) error {
	if c.json {
		return report.EncodeJSON(c.deps.Stdout, h, contest, rules, res)
	}
	WriteResultText(c.deps.Stdout, contest, rules, res)
	return nil
}
