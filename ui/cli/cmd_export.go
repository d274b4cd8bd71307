package cli

import (
	"io"
	"os"

	"votedesk/app"
	"votedesk/app/dataio"
)

func init() {
	register(
		&command{path: "export results",
			usage: "export results ELECTION --format json|csv|html|pdf --output FILE [--method M] [--rule NAME=VALUE ...]",
			flags: map[string]flagKind{"format": valueFlag, "output": valueFlag, "method": valueFlag, "rule": valueFlag},
			db:    true, auth: true, run: exportResults},
		&command{path: "export ballots",
			usage: "export ballots ELECTION --format cdf|csv --output FILE   (cast vote records in confirmation-code order, no voters)",
			flags: map[string]flagKind{"format": valueFlag, "output": valueFlag},
			db:    true, auth: true, run: exportBallots},
		&command{path: "export log",
			usage: "export log --output FILE   (JSON Lines, as your role may see the log)",
			flags: map[string]flagKind{"output": valueFlag},
			db:    true, auth: true, run: exportLog},
	)
}

// writeOutput writes --output atomically through write ("-" is standard
// output); nothing is left behind when write fails.
func (c *call) writeOutput(perm os.FileMode, write func(io.Writer) error) (string, error) {
	path := c.args.str("output")
	if path == "-" {
		return "standard output", write(c.deps.Stdout)
	}
	return path, dataio.WriteFileAtomic(path, perm, write)
}

// wantOutput checks that --output is given.
func (c *call) wantOutput(usage string) error {
	if c.args.str("output") == "" {
		return usagef("--output FILE is required (\"-\" for standard output)\nusage: votedesk %s", usage)
	}
	return nil
}

func exportResults(c *call) error {
	const usage = "export results ELECTION --format json|csv|html|pdf --output FILE [--method M] [--rule NAME=VALUE ...]"
	if err := c.args.want(1, 1, usage); err != nil {
		return err
	}
	format := c.args.str("format")
	switch format {
	case dataio.ResultsJSON, dataio.ResultsCSV, dataio.ResultsHTML:
	case dataio.ResultsPDF:
		return app.Errorf(app.CodeInvalid, "%s", dataio.NoPDF)
	default:
		return usagef("--format takes json, csv, html or pdf, not %q\nusage: votedesk %s", format, usage)
	}
	if err := c.wantOutput(usage); err != nil {
		return err
	}
	rules, err := c.rules()
	if err != nil {
		return err
	}
	election := c.args.pos[0]
	res, err := dataio.CountResults(c.ctx, c.backend.Service, c.actor, election, c.args.str("method"), rules)
	if err != nil {
		return err
	}
	where, err := c.writeOutput(0o644, func(w io.Writer) error { return res.Write(w, format, c.backend.Service) })
	if err != nil || where == "standard output" {
		return err
	}
	return c.done("wrote the %s results of %q (%s, %s ballots, log event %d) to %s",
		format, election, res.Method, thousands(int(res.Ballots.Total())), res.HeadSeq, where)
}

func exportBallots(c *call) error {
	const usage = "export ballots ELECTION --format cdf|csv --output FILE"
	if err := c.args.want(1, 1, usage); err != nil {
		return err
	}
	format := c.args.str("format")
	if format != dataio.BallotsCDF && format != dataio.BallotsCSV {
		return usagef("--format takes cdf or csv, not %q\nusage: votedesk %s", format, usage)
	}
	if err := c.wantOutput(usage); err != nil {
		return err
	}
	election := c.args.pos[0]
	names, set, err := dataio.ElectionBallots(c.ctx, c.backend.Service, c.actor, election)
	if err != nil {
		return err
	}
	where, err := c.writeOutput(0o600, func(w io.Writer) error {
		return dataio.WriteBallots(w, format, election, names, set, c.backend.Service.Now())
	})
	if err != nil || where == "standard output" {
		return err
	}
	return c.done("wrote %s ballots of %q to %s", thousands(set.Len()), election, where)
}

func exportLog(c *call) error {
	if err := c.args.want(0, 0, "export log --output FILE"); err != nil {
		return err
	}
	if err := c.wantOutput("export log --output FILE"); err != nil {
		return err
	}
	n := 0
	where, err := c.writeOutput(0o600, func(w io.Writer) error {
		var err error
		n, err = dataio.ExportLog(c.ctx, c.backend.Service, c.actor, w)
		return err
	})
	if err != nil || where == "standard output" {
		return err
	}
	return c.done("wrote %s events to %s", thousands(n), where)
}
