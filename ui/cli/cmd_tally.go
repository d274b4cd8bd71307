package cli

import (
	"fmt"
	"runtime/debug"
	"slices"
	"strconv"

	"votedesk/app"
	"votedesk/tally"
	"votedesk/tally/cvr"
	"votedesk/tally/rctab"
	"votedesk/tally/report"
)

func init() {
	register(&command{path: "tally",
		usage: "tally --rctab CONFIG.json --output DIR [--rule NAME=VALUE ...]\n" +
			"  votedesk tally --method M --cvr FILE [--format F] [--seats N] [--rule NAME=VALUE ...] [--json]\n" +
			"  votedesk tally ELECTION [--method M] [--rule NAME=VALUE ...] [--json]",
		flags: map[string]flagKind{"rctab": valueFlag, "output": valueFlag, "method": valueFlag, "cvr": valueFlag,
			"format": valueFlag, "seats": valueFlag, "rule": valueFlag},
		run: tallyCommand})
}

// generatedBy names VoteDesk in the reports it writes.
const generatedBy = "VoteDesk"

func tallyCommand(c *call) error {
	if c.deps.Getenv("GOGC") == "" {
		// A count holds every ballot and the audit trail at once; collecting
		// garbage at half the default growth keeps peak memory for a million
		// ballots near 250 MB for a few percent of time.
		debug.SetGCPercent(50)
	}
	switch {
	case c.args.given["rctab"]:
		return tallyRCTab(c)
	case c.args.given["cvr"]:
		return tallyCVR(c)
	case len(c.args.pos) == 1:
		return tallyElection(c)
	}
	return usagef("usage: votedesk tally --rctab CONFIG --output DIR | --method M --cvr FILE | ELECTION")
}

// ruleSettings parses every --rule NAME=VALUE.
func ruleSettings(c *call) ([]rctab.Setting, error) {
	var out []rctab.Setting
	for _, arg := range c.args.all("rule") {
		s, err := rctab.ParseRuleArg(arg)
		if err != nil {
			return nil, usagef("--rule %s: %v", arg, err)
		}
		out = append(out, s)
	}
	return out, nil
}

func tallyRCTab(c *call) error {
	if len(c.args.pos) != 0 || c.args.str("output") == "" || c.args.given["cvr"] || c.args.given["method"] {
		return usagef("usage: votedesk tally --rctab CONFIG.json --output DIR [--rule NAME=VALUE ...]")
	}
	settings, err := ruleSettings(c)
	if err != nil {
		return err
	}
	out := c.args.str("output")
	if err := rctab.RunConfig(c.ctx, c.args.str("rctab"), out, rctab.WithRules(settings...), rctab.WithGeneratedBy(generatedBy)); err != nil {
		return &app.Error{Code: app.CodeInvalid, Message: err.Error(), Err: err}
	}
	return c.done("wrote the reports of %s to %s", c.args.str("rctab"), out)
}

func tallyCVR(c *call) error {
	if len(c.args.pos) != 0 || c.args.str("method") == "" {
		return usagef("usage: votedesk tally --method M --cvr FILE [--format F] [--seats N] [--rule NAME=VALUE ...] [--json]")
	}
	method, err := tally.ParseMethod(c.args.str("method"))
	if err != nil {
		return usagef("%v", err)
	}
	settings, err := ruleSettings(c)
	if err != nil {
		return err
	}
	f, err := cvr.ReadFile(c.ctx, cvr.Source{Provider: cvr.Format(c.args.str("format")), FilePath: c.args.str("cvr")}, cvr.Options{})
	if err != nil {
		return &app.Error{Code: app.CodeInvalid, Message: err.Error(), Err: err}
	}
	contest := tally.Contest{Name: f.Title, Candidates: make([]tally.Candidate, len(f.Candidates))}
	if contest.Name == "" {
		contest.Name = c.args.str("cvr")
	}
	for i, n := range f.Candidates {
		contest.Candidates[i] = tally.Candidate{Name: n, Excluded: slices.Contains(f.Withdrawn, n), UndeclaredWriteIn: n == cvr.UndeclaredWriteIn}
	}
	rules := tally.DefaultRules()
	if f.Seats > 1 {
		rules.NumberOfWinners = f.Seats
	}
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
	return c.writeResult(contest, rules, res)
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
		fmt.Fprintf(c.deps.Stdout, "%d ballots, counted from log position %d (head %s)\n", counted.Ballots.Total(), counted.HeadSeq, counted.HeadHash)
	}
	return c.writeResult(counted.Contest, counted.Rules, counted.Result)
}

// writeResult prints a count: RCTab's JSON or the ranking JSON with --json,
// tables otherwise.
func (c *call) writeResult(contest tally.Contest, rules tally.Rules, res tally.Result) error {
	if c.json {
		return report.EncodeJSON(c.deps.Stdout, report.Header{GeneratedBy: generatedBy, Contest: contest.Name}, contest, rules, res)
	}
	writeResultText(c.deps.Stdout, contest, res)
	return nil
}
