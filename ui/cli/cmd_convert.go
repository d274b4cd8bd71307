package cli

import (
	"io"
	"path/filepath"
	"strings"
	"time"

	"votedesk/app"
	"votedesk/tally/rctab"
)

func init() {
	register(&command{path: "convert",
		usage: "convert --rctab CONFIG.json --output FILE [--format csv|cdf]   (every cast vote record of the config as RCTab's conversions write it: one CSV, or a NIST CDF JSON report; the format follows the file's extension, .json for CDF, unless --format names it; \"-\" for standard output)",
		flags: map[string]flagKind{"rctab": valueFlag, "output": valueFlag, "format": valueFlag},
		run:   convertCommand})
}

// convertCommand writes an RCTab config's cast vote records as one CSV, as
// RCTab's "convert to CSV" does (a row per record with where it came from
// and a column per ranking), or as a CDF JSON report, as its "convert to
// CDF" does.
func convertCommand(c *call) error {
	const usage = "convert --rctab CONFIG.json --output FILE [--format csv|cdf]"
	if err := c.args.want(0, 0, usage); err != nil {
		return err
	}
	if len(c.args.all("rctab")) != 1 {
		return usagef("name one RCTab config with --rctab\nusage: votedesk %s", usage)
	}
	if err := c.wantOutput(usage); err != nil {
		return err
	}
	format := strings.ToLower(c.args.str("format"))
	switch {
	case format == "" && strings.EqualFold(filepath.Ext(c.args.str("output")), ".json"):
		format = "cdf"
	case format == "":
		format = "csv"
	case format != "csv" && format != "cdf":
		return usagef("--format %q: choose csv or cdf\nusage: votedesk %s", c.args.str("format"), usage)
	}
	cfg, err := rctab.Load(c.args.str("rctab"))
	if err != nil {
		return &app.Error{Code: app.CodeInvalid, Message: err.Error(), Err: err}
	}
	where, err := c.writeOutput(0o644, func(w io.Writer) error {
		write := func(w io.Writer) error { return cfg.WriteCVRCSV(c.ctx, w) }
		if format == "cdf" {
			write = func(w io.Writer) error { return cfg.WriteCDFJSON(c.ctx, w, time.Time{}) }
		}
		if err := write(w); err != nil {
			return &app.Error{Code: app.CodeInvalid, Message: err.Error(), Err: err}
		}
		return nil
	})
	if err != nil || where == "standard output" {
		return err
	}
	return c.done("wrote the cast vote records of %s to %s", c.args.str("rctab"), where)
}
