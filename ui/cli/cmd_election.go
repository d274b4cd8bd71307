package cli

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"votedesk/app"
)

type electionJSON struct {
	Name           string            `json:"name"`
	Description    string            `json:"description"`
	Owner          string            `json:"owner"`
	Secret         bool              `json:"secret_ballot"`
	NoVotingBefore *time.Time        `json:"no_voting_before,omitempty"`
	NoVotingAfter  *time.Time        `json:"no_voting_after,omitempty"`
	AllowEdit      bool              `json:"allow_edit"`
	AllowVote      bool              `json:"allow_vote"`
	AllowRecast    bool              `json:"allow_recast"`
	Status         string            `json:"status"`
	Phase          string            `json:"phase"`
	Version        int64             `json:"version"`
	Created        time.Time         `json:"created"`
	LastChanged    time.Time         `json:"last_changed"`
	Candidates     int64             `json:"candidates"`
	Voters         int64             `json:"voters"`
	Ballots        int64             `json:"ballots"`
	Conflicts      int64             `json:"conflicts"`
	Archived       bool              `json:"archived,omitempty"`
	RetainUntil    *time.Time        `json:"retain_until,omitempty"`
	Method         string            `json:"method,omitempty"`
	Rules          map[string]string `json:"rules,omitempty"`
}

func toElectionJSON(e app.Election, now time.Time) electionJSON {
	j := electionJSON{Name: e.Name, Description: e.Description, Owner: e.Owner, Secret: e.Secret,
		AllowEdit: e.AllowEdit, AllowVote: e.AllowVote, AllowRecast: e.AllowRecast, Status: string(e.Status),
		Phase: e.Phase(now), Version: e.Version, Created: e.Created, LastChanged: e.LastChanged,
		Candidates: e.Candidates, Voters: e.Voters, Ballots: e.Ballots, Conflicts: e.Conflicts, Method: e.Method, Rules: e.Rules}
	if !e.NoVotingBefore.IsZero() {
		j.NoVotingBefore = &e.NoVotingBefore
	}
	if !e.NoVotingAfter.IsZero() {
		j.NoVotingAfter = &e.NoVotingAfter
	}
	if until := e.RetainUntil(); !until.IsZero() {
		j.RetainUntil = &until
	}
	j.Archived = e.Archived
	return j
}

func electionRename(c *call) error {
	if err := c.args.want(2, 2, "election rename NAME NEW"); err != nil {
		return err
	}
	if err := c.backend.Service.RenameElection(c.ctx, c.actor, c.args.pos[0], c.args.pos[1]); err != nil {
		return err
	}
	return c.done("renamed %s to %s", c.args.pos[0], strings.TrimSpace(c.args.pos[1]))
}

// electionDelete deletes an election; a finalized one (the OWNER's, after
// its retention period) only after a backup of the whole database, kept
// beside it.
func electionDelete(c *call) error {
	if err := c.args.want(1, 1, "election delete NAME"); err != nil {
		return err
	}
	name := c.args.pos[0]
	// Checked, backed up and deleted: one election, even if a sync gives
	// its name to another in between.
	ctx, e, err := c.backend.Service.HoldElection(c.ctx, c.actor, name)
	if err != nil {
		return err
	}
	kept := ""
	if e.DeleteKeepsCopy() {
		if err := e.DeleteRefusal(c.role, c.backend.Service.Now()); err != nil {
			return err
		}
		path, err := c.databasePath()
		if err != nil {
			return err
		}
		kept = app.KeptName(path, "delete", c.backend.Service.Now())
		if _, err := c.backend.Store.Backup(c.ctx, kept); err != nil {
			return err
		}
	}
	if err := c.backend.Service.DeleteElection(ctx, c.actor, name); err != nil {
		return err
	}
	if kept != "" {
		return c.done("deleted %s; the database as it was is kept in %s", name, kept)
	}
	return c.done("deleted %s", name)
}

func init() {
	register(
		&command{path: "election create", usage: "election create NAME [--secret] [--description D]",
			flags: map[string]flagKind{"secret": boolFlag, "description": valueFlag}, db: true, auth: true, run: electionCreate},
		&command{path: "election list", usage: "election list [--archived]", flags: map[string]flagKind{"archived": boolFlag}, db: true, auth: true, run: electionList},
		&command{path: "election show", usage: "election show NAME", db: true, auth: true, run: electionShow},
		&command{path: "election set", usage: "election set NAME [--description D] [--no-voting-before RFC3339] [--no-voting-after RFC3339] [--allow-edit=BOOL] [--allow-recast=BOOL] [--secret=BOOL] [--method M] [--rule NAME=VALUE ...] [--retain-months N]",
			flags: map[string]flagKind{"description": valueFlag, "no-voting-before": valueFlag, "no-voting-after": valueFlag,
				"allow-edit": boolFlag, "allow-recast": boolFlag, "secret": boolFlag, "method": valueFlag, "rule": valueFlag, "retain-months": valueFlag},
			db: true, auth: true, run: electionSet},
		&command{path: "election launch", usage: "election launch NAME", db: true, auth: true, run: electionStep("launch", (*app.Service).LaunchElection, "launched %s")},
		&command{path: "election close", usage: "election close NAME   (close the polls: no more ballots; count, adjudicate, audit, then finalize)", db: true, auth: true, run: electionStep("close", (*app.Service).CloseElection, "closed the polls of %s")},
		&command{path: "election finalize", usage: "election finalize NAME   (certify: nothing in it changes any more)", db: true, auth: true, run: electionStep("finalize", (*app.Service).FinalizeElection, "finalized %s")},
		&command{path: "election archive", usage: "election archive NAME   (a finalized election leaves the list; its records stay)", db: true, auth: true, run: electionStep("archive", (*app.Service).ArchiveElection, "archived %s")},
		&command{path: "election unarchive", usage: "election unarchive NAME", db: true, auth: true, run: electionStep("unarchive", (*app.Service).RestoreElection, "%s is listed again")},
		&command{path: "election rename", usage: "election rename NAME NEW", db: true, auth: true, run: electionRename},
		&command{path: "election delete", usage: "election delete NAME   (drafts; elections without ballots; finalized ones after their retention period, OWNER only, with a backup first)", db: true, auth: true, run: electionDelete},
	)
}

func electionCreate(c *call) error {
	if err := c.args.want(1, 1, "election create NAME [--secret] [--description D]"); err != nil {
		return err
	}
	name := c.args.pos[0]
	if err := c.backend.Service.CreateElection(c.ctx, c.actor, name, c.args.str("description"), c.args.flag("secret")); err != nil {
		return err
	}
	return c.showElection(strings.TrimSpace(name), "created election %s\n")
}

func electionList(c *call) error {
	if err := c.args.want(0, 0, "election list [--archived]"); err != nil {
		return err
	}
	list := c.backend.Service.Elections
	if c.args.flag("archived") {
		list = c.backend.Service.ArchivedElections
	}
	es, err := list(c.ctx, c.actor)
	if err != nil {
		return err
	}
	now := c.backend.Service.Now()
	out := make([]electionJSON, len(es))
	for i, e := range es {
		out[i] = toElectionJSON(e, now)
	}
	return c.out(out, func(w io.Writer) {
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "NAME\tSTATUS\tCANDIDATES\tVOTERS\tBALLOTS\tOWNER\tLAST CHANGE")
		for _, e := range out {
			fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%s\t%s\n", e.Name, e.Phase, e.Candidates, e.Voters, e.Ballots, e.Owner, e.LastChanged.Local().Format("2006-01-02 15:04"))
		}
		tw.Flush()
	})
}

func electionShow(c *call) error {
	if err := c.args.want(1, 1, "election show NAME"); err != nil {
		return err
	}
	return c.showElection(c.args.pos[0], "")
}

func (c *call) showElection(name, headline string) error {
	e, err := c.backend.Service.Election(c.ctx, c.actor, name)
	if err != nil {
		return err
	}
	j := toElectionJSON(e, c.backend.Service.Now())
	return c.out(j, func(w io.Writer) {
		if headline != "" {
			fmt.Fprintf(w, headline, e.Name)
			return
		}
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		row := func(k, v string) { fmt.Fprintf(tw, "%s:\t%s\n", k, v) }
		row("Name", e.Name)
		row("Description", e.Description)
		row("Owner", e.Owner)
		row("Status", fmt.Sprintf("%s (%s)", j.Phase, e.Status))
		row("Secret ballot", yesNo(e.Secret))
		row("Voting window", window(e))
		row("Allow edit", yesNo(e.AllowEdit))
		row("Allow vote", yesNo(e.AllowVote))
		row("Allow re-cast", yesNo(e.AllowRecast))
		row("Candidates", fmt.Sprint(e.Candidates))
		row("Voters", fmt.Sprint(e.Voters))
		row("Ballots", fmt.Sprint(e.Ballots))
		row("Conflicts", fmt.Sprint(e.Conflicts))
		if e.Status == app.StatusFinalized {
			row("Records kept until", e.RetainUntil().Local().Format("2006-01-02"))
			row("Archived", yesNo(e.Archived))
		} else {
			row("Records kept", fmt.Sprintf("%d months after finalizing", e.RetentionMonths()))
		}
		if e.Method != "" || len(e.Rules) > 0 {
			row("Counting", strings.TrimSpace(e.Method+" "+strings.Join(e.RuleList(), " ")))
		}
		row("Version", fmt.Sprint(e.Version))
		row("Last change", e.LastChanged.Local().Format(time.RFC3339))
		tw.Flush()
	})
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func window(e app.Election) string {
	from, to := "any time", "no end"
	if !e.NoVotingBefore.IsZero() {
		from = e.NoVotingBefore.Local().Format(time.RFC3339)
	}
	if !e.NoVotingAfter.IsZero() {
		to = e.NoVotingAfter.Local().Format(time.RFC3339)
	}
	return from + " to " + to
}

func electionSet(c *call) error {
	if err := c.args.want(1, 1, "election set NAME [flags]"); err != nil {
		return err
	}
	ch := app.ElectionChanges{
		Description:    c.args.strPtr("description"),
		Secret:         c.args.boolPtr("secret"),
		NoVotingBefore: c.args.strPtr("no-voting-before"),
		NoVotingAfter:  c.args.strPtr("no-voting-after"),
		AllowEdit:      c.args.boolPtr("allow-edit"),
		AllowRecast:    c.args.boolPtr("allow-recast"),
		Method:         c.args.strPtr("method"),
	}
	if c.args.given["retain-months"] {
		n, err := strconv.Atoi(strings.TrimSpace(c.args.str("retain-months")))
		if err != nil {
			return usagef("--retain-months takes a whole number of months, not %q", c.args.str("retain-months"))
		}
		ch.RetainMonths = &n
	}
	rules, err := c.rules()
	if err != nil {
		return err
	}
	if rules != nil {
		ch.Rules = &rules
	}
	if ch == (app.ElectionChanges{}) {
		return usagef("election set needs at least one setting to change")
	}
	if err := c.backend.Service.UpdateElection(c.ctx, c.actor, c.args.pos[0], 0, ch); err != nil {
		return err
	}
	return c.showElection(c.args.pos[0], "updated election %s\n")
}

// rules reads the --rule NAME=VALUE pairs; it returns nil when none are
// given.
func (c *call) rules() (map[string]string, error) {
	if !c.args.given["rule"] {
		return nil, nil
	}
	list := c.args.all("rule")
	rules := make(map[string]string, len(list))
	for _, r := range list {
		k, v, ok := strings.Cut(r, "=")
		if !ok || strings.TrimSpace(k) == "" {
			return nil, usagef("--rule takes NAME=VALUE, not %q", r)
		}
		rules[strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
	return rules, nil
}

// electionStep builds a command that takes an election name and runs one
// lifecycle step.
func electionStep(verb string, step func(*app.Service, ctxT, string, string) error, done string) func(*call) error {
	return func(c *call) error {
		if err := c.args.want(1, 1, "election "+verb+" NAME"); err != nil {
			return err
		}
		if err := step(c.backend.Service, c.ctx, c.actor, c.args.pos[0]); err != nil {
			return err
		}
		return c.done(done, c.args.pos[0])
	}
}
