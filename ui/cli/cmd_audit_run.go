package cli

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"

	"votedesk/app"
	"votedesk/app/dataio"
	"votedesk/tally/raire"
	"votedesk/tally/rla"
)

func init() {
	auditFlag := map[string]flagKind{"audit": valueFlag}
	register(
		&command{path: "audit start",
			usage: "audit start ELECTION --manifest FILE.csv --seed DIGITS [--type comparison|polling] [--risk-limit 0.05]   (start a risk-limiting audit of a closed IRV election: RAIRE's assertions, the sample from the public seed, the first round's size)",
			flags: map[string]flagKind{"manifest": valueFlag, "seed": valueFlag, "type": valueFlag, "risk-limit": valueFlag},
			db:    true, auth: true, run: auditStart},
		&command{path: "audit manifest",
			usage: "audit manifest ELECTION --output FILE.csv   (the ballot manifest the cast vote records imply, by batch: a template to check against the paper)",
			flags: map[string]flagKind{"output": valueFlag}, db: true, auth: true, run: auditManifest},
		&command{path: "audit sample",
			usage: "audit sample ELECTION [--audit ID]   (the ballots drawn so far, where to find each, and how far the board is)",
			flags: auditFlag, db: true, auth: true, run: auditSample},
		&command{path: "audit record",
			usage: "audit record ELECTION DRAW --pass 1|2|settle RANKING... | --not-found [--audit ID]   (an audit board's reading of the paper ballot of draw DRAW: one argument per rank, A|B for two marks at a rank, \"\" for a skipped rank)",
			flags: map[string]flagKind{"audit": valueFlag, "pass": valueFlag, "not-found": boolFlag}, db: true, auth: true, run: auditRecord},
		&command{path: "audit status",
			usage: "audit status ELECTION [--audit ID]   (the risk measured per assertion, the discrepancies, and what comes next)",
			flags: auditFlag, db: true, auth: true, run: auditStatus},
		&command{path: "audit report",
			usage: "audit report ELECTION --format html|json --output FILE [--audit ID]   (the audit's report: assertions, elimination trees, seed, sample, discrepancies, risk per round, conclusion)",
			flags: map[string]flagKind{"audit": valueFlag, "format": valueFlag, "output": valueFlag}, db: true, auth: true, run: auditReport},
		&command{path: "audit next",
			usage: "audit next ELECTION [--audit ID] [--draws N]   (start the next round, of the size the measured risk asks for or of N draws; after an escalation to a full hand count, --draws N samples on instead while a round fits)",
			flags: map[string]flagKind{"audit": valueFlag, "draws": valueFlag}, db: true, auth: true, run: auditNext},
	)
}

func auditStart(c *call) error {
	const usage = "audit start ELECTION --manifest FILE.csv --seed DIGITS [--type comparison|polling] [--risk-limit 0.05]"
	if err := c.args.want(1, 1, usage); err != nil {
		return err
	}
	path := c.args.str("manifest")
	if path == "" || c.args.str("seed") == "" {
		return usagef("audit start needs --manifest FILE.csv and --seed DIGITS\nusage: votedesk %s", usage)
	}
	kind := rla.Comparison
	switch c.args.str("type") {
	case "", "comparison":
	case "polling":
		kind = rla.Polling
	default:
		return usagef("--type is comparison or polling, not %q", c.args.str("type"))
	}
	risk := 0.05
	if s := c.args.str("risk-limit"); s != "" {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || !(v > 0 && v < 1) {
			return usagef("--risk-limit takes a fraction between 0 and 1 (0.05 for 5%%), not %q", s)
		}
		risk = v
	}
	f, err := os.Open(path)
	if err != nil {
		return app.Errorf(app.CodeInvalid, "cannot read %s: %v", path, unwrapPathError(err))
	}
	defer f.Close()
	m, err := rla.ReadManifest(f)
	if err != nil {
		return app.Errorf(app.CodeInvalid, "%s: %s", path, app.ErrorMessage(err))
	}
	au, err := c.backend.Service.StartAudit(c.ctx, c.actor, c.args.pos[0], app.AuditSetup{Kind: kind, RiskLimit: risk, Seed: c.args.str("seed"), Manifest: m})
	if err != nil {
		return err
	}
	return c.out(auditStartJSON(au), func(w io.Writer) {
		fmt.Fprintf(w, "Started audit %s of %s: a %s audit at a %s risk limit, seed %s.\n", au.ID, au.Election, au.Kind, dataio.Percent(au.RiskLimit), au.Seed)
		fmt.Fprintf(w, "%s is the reported winner; %d assertions rule out every other winner:\n", au.Candidates[au.Winner], len(au.Assertions))
		for i, a := range au.Assertions {
			fmt.Fprintf(w, "%d. %s\n", i+1, a.Explain(au.Candidates))
		}
		fmt.Fprintf(w, "Round 1 draws %d ballots from %d: see them with `votedesk audit sample %s`.\n", au.FirstRound, au.Manifest.Total(), au.Election)
	})
}

func auditManifest(c *call) error {
	const usage = "audit manifest ELECTION --output FILE.csv"
	if err := c.args.want(1, 1, usage); err != nil {
		return err
	}
	if err := c.wantOutput(usage); err != nil {
		return err
	}
	m, err := c.backend.Service.AuditManifest(c.ctx, c.actor, c.args.pos[0])
	if err != nil {
		return err
	}
	where, err := c.writeOutput(0o644, m.WriteCSV)
	if err != nil {
		return err
	}
	return c.done("wrote the manifest of %d batches, %d ballots, to %s", len(m.Batches), m.Total(), where)
}

func auditSample(c *call) error {
	if err := c.args.want(1, 1, "audit sample ELECTION [--audit ID]"); err != nil {
		return err
	}
	st, err := c.backend.Service.AuditState(c.ctx, c.actor, c.args.pos[0], c.args.str("audit"))
	if err != nil {
		return err
	}
	return c.out(dataio.AuditReport(st, dataio.GeneratedBy, c.backend.Service.Now()), func(w io.Writer) {
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "DRAW\tCONTAINER\tTABULATOR\tBATCH\tPOSITION\tTICKET\tREADING")
		for i, d := range st.Draws {
			state := string(d.State)
			if d.Repeat {
				state = "drawn before: counts again"
			}
			fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%d\t%s\t%s\n", i+1, d.Batch.Container, d.Batch.Tabulator, d.Batch.Name, d.Draw.Position, d.Draw.Ticket, state)
		}
		tw.Flush()
	})
}

func auditRecord(c *call) error {
	const usage = "audit record ELECTION DRAW --pass 1|2|settle RANKING... | --not-found [--audit ID]"
	if err := c.args.want(2, -1, usage); err != nil {
		return err
	}
	pass := map[string]int{"1": 1, "2": 2, "settle": 0}
	p, ok := pass[c.args.str("pass")]
	if !ok {
		return usagef("--pass is 1 or 2 (the board members' entries) or settle, not %q\nusage: votedesk %s", c.args.str("pass"), usage)
	}
	notFound := c.args.flag("not-found")
	if notFound == (len(c.args.pos) > 2) {
		return usagef("give the ballot's marks (one argument per rank) or --not-found, not both\nusage: votedesk %s", usage)
	}
	draw, err := strconv.Atoi(c.args.pos[1])
	if err != nil || draw < 1 {
		return usagef("DRAW is a draw's number as `audit sample` lists it, not %q", c.args.pos[1])
	}
	election := c.args.pos[0]
	st, err := c.backend.Service.AuditState(c.ctx, c.actor, election, c.args.str("audit"))
	if err != nil {
		return err
	}
	if draw > len(st.Draws) {
		return app.Errorf(app.CodeInvalid, "audit %s has %d draws so far; there is no draw %d", st.Audit.ID, len(st.Draws), draw)
	}
	d := st.Draws[draw-1]
	if err := c.backend.Service.RecordAuditReading(c.ctx, c.actor, election, st.Audit.ID, d.Draw.Index, p, parseRanking(c.args.pos[2:]), notFound); err != nil {
		return err
	}
	after, err := c.backend.Service.AuditState(c.ctx, c.actor, election, st.Audit.ID)
	if err != nil {
		return err
	}
	return c.done("draw %d (batch %s, ballot %d): %s", draw, d.Batch.Name, d.Draw.Position, after.Draws[draw-1].State)
}

func auditStatus(c *call) error {
	if err := c.args.want(1, 1, "audit status ELECTION [--audit ID]"); err != nil {
		return err
	}
	st, err := c.backend.Service.AuditState(c.ctx, c.actor, c.args.pos[0], c.args.str("audit"))
	if err != nil {
		return err
	}
	return c.out(dataio.AuditReport(st, dataio.GeneratedBy, c.backend.Service.Now()), func(w io.Writer) { writeAuditStatus(w, st) })
}

func auditReport(c *call) error {
	const usage = "audit report ELECTION --format html|json --output FILE [--audit ID]"
	if err := c.args.want(1, 1, usage); err != nil {
		return err
	}
	format := c.args.str("format")
	if format != dataio.AuditHTML && format != dataio.AuditJSON {
		return usagef("--format takes html or json, not %q\nusage: votedesk %s", format, usage)
	}
	if err := c.wantOutput(usage); err != nil {
		return err
	}
	st, err := c.backend.Service.AuditState(c.ctx, c.actor, c.args.pos[0], c.args.str("audit"))
	if err != nil {
		return err
	}
	r := dataio.AuditReport(st, dataio.GeneratedBy, c.backend.Service.Now())
	where, err := c.writeOutput(0o644, func(w io.Writer) error { return dataio.WriteAuditReport(w, format, r) })
	if err != nil {
		return err
	}
	return c.done("wrote the report of audit %s to %s", st.Audit.ID, where)
}

func auditNext(c *call) error {
	if err := c.args.want(1, 1, "audit next ELECTION [--audit ID] [--draws N]"); err != nil {
		return err
	}
	n := 0
	if s := c.args.str("draws"); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil || n < 1 {
			return usagef("--draws takes a number of ballots to draw, at least 1, not %q", s)
		}
	}
	draws, err := c.backend.Service.NextAuditRound(c.ctx, c.actor, c.args.pos[0], c.args.str("audit"), n)
	if err != nil {
		return err
	}
	return c.done("the next round brings the sample to %d draws: see them with `votedesk audit sample %s`", draws, c.args.pos[0])
}

// writeAuditStatus says where an audit stands, in words.
func writeAuditStatus(w io.Writer, st app.AuditState) {
	au := st.Audit
	fmt.Fprintf(w, "Audit %s of %s: %s, risk limit %s, seed %s, %d ballots in the manifest.\n",
		au.ID, au.Election, au.Kind, dataio.Percent(au.RiskLimit), au.Seed, au.Manifest.Total())
	fmt.Fprintf(w, "Rounds (total draws): %s. Read and measured: %d of %d draws.\n", joinInts(st.Rounds), st.Measured, len(st.Draws))
	if st.Problem != "" {
		fmt.Fprintf(w, "The audit cannot go on: %s.\n", st.Problem)
		return
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	if au.Kind == rla.Comparison {
		fmt.Fprintln(tw, "ASSERTION\tMARGIN\tRISK\tCONFIRMED\t2-OVER\t1-OVER\t1-UNDER\t2-UNDER")
	} else {
		fmt.Fprintln(tw, "ASSERTION\tMARGIN\tRISK\tCONFIRMED\tFOR\tAGAINST\tNEITHER")
	}
	for _, a := range st.Status.Assertions {
		fmt.Fprintf(tw, "%s\t%.4f\t%.4f\t%s\t", shortAssertion(a.Assertion, au.Candidates), a.Margin, a.Risk, yesNo(a.Confirmed))
		if au.Kind == rla.Comparison {
			fmt.Fprintf(tw, "%d\t%d\t%d\t%d\n", a.O2, a.O1, a.U1, a.U2)
		} else {
			fmt.Fprintf(tw, "%d\t%d\t%d\n", a.For, a.Against, a.Neither)
		}
	}
	tw.Flush()
	fmt.Fprintln(w, dataio.AuditConclusion(st))
}

// shortAssertion names an assertion in a few words: "NEB Kiss > Wright",
// "NEN Kiss > Smith (continuing: Kiss, Smith, Wright)".
func shortAssertion(a raire.Assertion, names []string) string {
	s := fmt.Sprintf("%s %s > %s", a.Type, names[a.Winner], names[a.Loser])
	if len(a.Continuing) > 0 {
		cont := make([]string, len(a.Continuing))
		for i, c := range a.Continuing {
			cont[i] = names[c]
		}
		s += " (continuing: " + strings.Join(cont, ", ") + ")"
	}
	return s
}

func joinInts(xs []int) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.Itoa(x)
	}
	return strings.Join(parts, ", ")
}

type auditStartedJSON struct {
	Audit      string   `json:"audit"`
	Election   string   `json:"election"`
	Kind       string   `json:"kind"`
	RiskLimit  float64  `json:"risk_limit"`
	Seed       string   `json:"seed"`
	Winner     string   `json:"reported_winner"`
	Assertions []string `json:"assertions"`
	FirstRound int      `json:"first_round_draws"`
}

func auditStartJSON(au app.Audit) auditStartedJSON {
	j := auditStartedJSON{Audit: au.ID, Election: au.Election, Kind: string(au.Kind), RiskLimit: au.RiskLimit, Seed: au.Seed,
		Winner: au.Candidates[au.Winner], FirstRound: au.FirstRound}
	for _, a := range au.Assertions {
		j.Assertions = append(j.Assertions, a.Explain(au.Candidates))
	}
	return j
}
