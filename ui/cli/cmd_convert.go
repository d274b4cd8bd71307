package cli

import (
	"io"

	"votedesk/app"
	"votedesk/tally/rctab"
)

func init() {
	register(&command{path: "convert",
		usage: "convert --rctab CONFIG.json --output FILE.csv   (every cast vote record of the config as RCTab's CVR-to-CSV conversion writes it; \"-\" for standard output)",
		flags: map[string]flagKind{"rctab": valueFlag, "output": valueFlag},
		run:   convertCommand})
}

// convertCommand writes an RCTab config's cast vote records as one CSV, as
// RCTab's "convert to CSV" does: a row per record with where it came from
// and a column per ranking.
func convertCommand(c *call) error {
	const usage = "convert --rctab CONFIG.json --output FILE.csv"
	if err := c.args.want(0, 0, usage); err != nil {
		return err
	}
	if len(c.args.all("rctab")) != 1 {
		return usagef("name one RCTab config with --rctab\nusage: votedesk %s", usage)
	}
	if err := c.wantOutput(usage); err != nil {
		return err
	}
	cfg, err := rctab.Load(c.args.str("rctab"))
	if err != nil {
		return &app.Error{Code: app.CodeInvalid, Message: err.Error(), Err: err}
	}
	where, err := c.writeOutput(0o644, func(w io.Writer) error {
		if err := cfg.WriteCVRCSV(c.ctx, w); err != nil {
			return &app.Error{Code: app.CodeInvalid, Message: err.Error(), Err: err}
		}
		return nil
	})
	if err != nil || where == "standard output" {
		return err
	}
	return c.done("wrote the cast vote records of %s to %s", c.args.str("rctab"), where)
}
