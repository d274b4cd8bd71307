package cli

import (
	"fmt"
	"os"
	"strconv"

	"votedesk/app"
	"votedesk/tally"
	"votedesk/tally/cvr"
	"votedesk/tally/raire"
)

func init() {
	register(&command{path: "audit assertions",
		usage: "audit assertions --raire IN.json | --cvr FILE|FOLDER " + cvrFileUsage + " [--type comparison|polling] [--risk-limit 0.05]   (RAIRE's assertions for a risk-limiting audit of a single-winner IRV contest: with --raire, RAIRE's input format in and its output format on standard output; with --cvr, each assertion in plain words, or RAIRE's output with --json)",
		flags: withCVRFileFlags(map[string]flagKind{"raire": valueFlag, "cvr": valueFlag, "type": valueFlag, "risk-limit": valueFlag}),
		run:   auditAssertions})
}

const auditAssertionsUsage = "audit assertions --raire IN.json | --cvr FILE|FOLDER " + cvrFileUsage + " [--type comparison|polling] [--risk-limit 0.05]"

// auditAssertions computes RAIRE's assertions. With --raire it is a
// contract other tools rely on: RAIRE's input format in, RAIRE's output
// format out ({"metadata", "solution": {"Ok": ...}} or {"Err": ...}), the
// error also named on standard error with exit status 1.
func auditAssertions(c *call) error {
	if err := c.args.want(0, 0, auditAssertionsUsage); err != nil {
		return err
	}
	in, file := c.args.str("raire"), c.args.str("cvr")
	if (in == "") == (file == "") {
		return usagef("name the contest with --raire IN.json or --cvr FILE\nusage: votedesk %s", auditAssertionsUsage)
	}
	if in != "" {
		return raireContract(c, in)
	}
	contest, votes, ballots, err := readAuditContest(c, file)
	if err != nil {
		return err
	}
	audit, err := auditKind(c, ballots)
	if err != nil {
		return err
	}
	rc := raire.Contest{Candidates: contest.Names(), NumCandidates: len(contest.Candidates), Votes: votes, Audit: audit}
	sol, err := raire.Assertions(rc, raire.Options{})
	if c.json {
		if werr := raire.WriteSolution(c.deps.Stdout, nil, sol, err); werr != nil {
			return werr
		}
	}
	if err != nil {
		return &app.Error{Code: app.CodeInvalid, Message: fmt.Sprintf("%s: no set of assertions can audit this contest: %v", file, err), Err: err}
	}
	if c.json {
		return nil
	}
	w := c.deps.Stdout
	fmt.Fprintf(w, "%s: %s wins; %d assertions rule out every other winner.\n", contest.Name, contest.Candidates[sol.Winner].Name, len(sol.Assertions))
	fmt.Fprintf(w, "The hardest has a margin of %d of %d ballots and difficulty %.4g (%s).\n", sol.Margin, ballots, sol.Difficulty, difficultyMeaning(audit.Type))
	for i, a := range sol.Assertions {
		fmt.Fprintf(w, "%d. %s\n", i+1, a.Explain(rc.Candidates))
	}
	return nil
}

// raireContract reads RAIRE's input format from path ("-" for standard
// input) and writes RAIRE's output format.
func raireContract(c *call, path string) error {
	f := os.Stdin
	if path != "-" {
		var err error
		if f, err = os.Open(path); err != nil {
			return app.Errorf(app.CodeInvalid, "cannot read %s: %v", path, unwrapPathError(err))
		}
		defer f.Close()
	}
	rc, err := raire.ReadContest(f)
	var sol *raire.Solution
	if err == nil {
		sol, err = raire.Assertions(rc, raire.Options{})
	}
	if werr := raire.WriteSolution(c.deps.Stdout, rc.Metadata, sol, err); werr != nil {
		return werr
	}
	if err != nil {
		return &app.Error{Code: app.CodeInvalid, Message: fmt.Sprintf("%s: %v", path, err), Err: err}
	}
	return nil
}

// readAuditContest reads a cast vote record file into RAIRE's votes.
func readAuditContest(c *call, path string) (tally.Contest, []raire.Vote, uint64, error) {
	f, err := cvr.ReadFile(c.ctx, cvrSource(c, path), cvr.Options{})
	if err != nil {
		return tally.Contest{}, nil, 0, &app.Error{Code: app.CodeInvalid, Message: tally.Message(err), Err: err}
	}
	contest, rules := fileContest(f, path)
	if len(contest.Candidates) > raire.MaxCandidates {
		return contest, nil, 0, &app.Error{Code: app.CodeInvalid, Message: fmt.Sprintf("%s has %d candidates; RAIRE audits at most %d", path, len(contest.Candidates), raire.MaxCandidates)}
	}
	votes, err := raire.FromBallots(contest, rules, &f.Ballots)
	if err != nil {
		return contest, nil, 0, &app.Error{Code: app.CodeInvalid, Message: fmt.Sprintf("%s: %v", path, err), Err: err}
	}
	return contest, votes, uint64(f.Ballots.Total()), nil
}

// auditKind is the audit --type and --risk-limit ask for: a ballot-level
// comparison audit (OneOnMargin) by default, or ballot polling (BRAVO).
func auditKind(c *call, ballots uint64) (raire.Audit, error) {
	risk := 0.05
	if s := c.args.str("risk-limit"); s != "" {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || v <= 0 || v >= 1 {
			return raire.Audit{}, usagef("--risk-limit takes a fraction between 0 and 1 (0.05 for 5%%), not %q", s)
		}
		risk = v
	}
	switch c.args.str("type") {
	case "", "comparison":
		return raire.Audit{Type: raire.OneOnMargin, TotalAuditableBallots: ballots}, nil
	case "polling":
		return raire.Audit{Type: raire.BRAVO, TotalAuditableBallots: ballots, Confidence: risk}, nil
	}
	return raire.Audit{}, usagef("--type is comparison or polling, not %q", c.args.str("type"))
}

// difficultyMeaning says what a difficulty of the audit type measures.
func difficultyMeaning(t raire.AuditType) string {
	if t == raire.BRAVO {
		return "the expected number of ballots a ballot-polling audit samples"
	}
	return "ballots per unit of margin: a comparison audit's sample grows with it"
}
