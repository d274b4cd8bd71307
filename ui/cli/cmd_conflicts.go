package cli

import (
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"

	"votedesk/app"
)

func init() {
	register(
		&command{path: "conflicts", usage: "conflicts [ELECTION]   (what sync found for officials to decide, and rejected commands)",
			db: true, auth: true, run: conflictsList},
		&command{path: "conflicts resolve", usage: "conflicts resolve ELECTION|- SEQ --accept|--dismiss [--reason TEXT]   (- for a conflict outside the elections)",
			flags: map[string]flagKind{"accept": boolFlag, "dismiss": boolFlag, "reason": valueFlag}, db: true, auth: true, run: conflictsResolve},
	)
}

type conflictJSON struct {
	Election     string        `json:"election"`
	Seq          uint64        `json:"seq"`
	Kind         string        `json:"kind"`
	EventID      string        `json:"event_id"`
	Actor        string        `json:"actor"`
	Voter        string        `json:"voter,omitempty"`
	Confirmation string        `json:"confirmation,omitempty"`
	Rankings     []rankingJSON `json:"rankings,omitempty"`
	SetAside     string        `json:"set_aside_confirmation,omitempty"`
	SetAsideRank []rankingJSON `json:"set_aside_rankings,omitempty"`
	Detail       string        `json:"detail"`
	Resolved     bool          `json:"resolved"`
	Resolution   string        `json:"resolution,omitempty"`
	ResolvedBy   string        `json:"resolved_by,omitempty"`
	Reason       string        `json:"reason,omitempty"`
}

type rejectedJSON struct {
	Seq      uint64 `json:"seq"`
	EventID  string `json:"event_id"`
	Type     string `json:"type"`
	Actor    string `json:"actor"`
	Election string `json:"election,omitempty"`
	Code     string `json:"code"`
	Reason   string `json:"reason"`
}

// conflictsAndRejections lists the conflicts (of one election, or all) and
// the rejected commands, as the signed-in user may see them.
func (c *call) conflictsAndRejections(election string) ([]conflictJSON, []rejectedJSON, error) {
	ks, err := c.backend.Service.Conflicts(c.ctx, c.actor, election)
	if err != nil {
		return nil, nil, err
	}
	rs, err := c.backend.Service.Rejections(c.ctx, c.actor)
	if err != nil {
		return nil, nil, err
	}
	conflicts := make([]conflictJSON, len(ks))
	for i, k := range ks {
		conflicts[i] = conflictJSON{Election: k.Election, Seq: k.Seq, Kind: k.Kind, EventID: k.EventID, Actor: k.Actor, Voter: k.Voter,
			Confirmation: k.Confirmation, Detail: k.Detail, Resolved: k.Resolved, Resolution: k.Resolution, ResolvedBy: k.ResolvedBy, Reason: k.ResolutionReason}
		for _, r := range k.Rankings {
			conflicts[i].Rankings = append(conflicts[i].Rankings, rankingJSON{Candidate: r.Candidate, Rank: r.Rank})
		}
		conflicts[i].SetAside = k.SetAside
		for _, r := range k.SetAsideRankings {
			conflicts[i].SetAsideRank = append(conflicts[i].SetAsideRank, rankingJSON{Candidate: r.Candidate, Rank: r.Rank})
		}
	}
	rejected := make([]rejectedJSON, len(rs))
	for i, r := range rs {
		rejected[i] = rejectedJSON{Seq: r.Seq, EventID: r.EventID, Type: string(r.Type), Actor: r.Actor, Election: r.Election, Code: string(r.Code), Reason: r.Reason}
	}
	return conflicts, rejected, nil
}

func conflictsList(c *call) error {
	if err := c.args.want(0, 1, "conflicts [ELECTION]"); err != nil {
		return err
	}
	election := ""
	if len(c.args.pos) == 1 {
		election = c.args.pos[0]
	}
	conflicts, rejected, err := c.conflictsAndRejections(election)
	if err != nil {
		return err
	}
	return c.out(map[string]any{"conflicts": conflicts, "rejected": rejected}, func(w io.Writer) {
		if len(conflicts) == 0 {
			fmt.Fprintln(w, "no conflicts")
		}
		printConflicts(w, conflicts)
		if len(rejected) > 0 {
			fmt.Fprintf(w, "rejected commands: %d\n", len(rejected))
			printRejected(w, rejected)
		}
	})
}

func printConflicts(w io.Writer, conflicts []conflictJSON) {
	if len(conflicts) == 0 {
		return
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "  ELECTION\tSEQ\tKIND\tSTATE\tDETAIL")
	for _, k := range conflicts {
		state := "open"
		if k.Resolved {
			state = k.Resolution + " by " + k.ResolvedBy
		}
		fmt.Fprintf(tw, "  %s\t%d\t%s\t%s\t%s\n", k.Election, k.Seq, k.Kind, state, k.Detail)
	}
	tw.Flush()
}

func printRejected(w io.Writer, rejected []rejectedJSON) {
	if len(rejected) == 0 {
		return
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "  SEQ\tTYPE\tACTOR\tREASON")
	for _, r := range rejected {
		fmt.Fprintf(tw, "  %d\t%s\t%s\t%s\n", r.Seq, r.Type, r.Actor, r.Reason)
	}
	tw.Flush()
}

func conflictsResolve(c *call) error {
	if err := c.args.want(2, 2, "conflicts resolve ELECTION|- SEQ --accept|--dismiss [--reason TEXT]"); err != nil {
		return err
	}
	seq, err := strconv.ParseUint(c.args.pos[1], 10, 64)
	if err != nil {
		return usagef("SEQ is the conflict's sequence number (see `votedesk conflicts`), not %q", c.args.pos[1])
	}
	accept, dismiss := c.args.flag("accept"), c.args.flag("dismiss")
	if accept == dismiss {
		return usagef("say --accept (count the later ballot, record the refused ballot, merge the elections) or --dismiss (leave things as they are)")
	}
	election := c.args.pos[0]
	if election == "-" {
		election = ""
	}
	k, err := c.backend.Service.DecideConflict(c.ctx, c.actor, app.Conflict{Election: election, Seq: seq}, accept, c.args.str("reason"))
	if err != nil {
		return err
	}
	// Say which conflict it was: a sync in between (sync --watch) can
	// give conflicts other numbers than the list showed.
	what := k.Kind
	if k.Voter != "" {
		what += " of " + k.Voter
	}
	return c.done("conflict %d of %s (%s) %s", seq, c.args.pos[0], what, map[bool]string{true: "accepted", false: "dismissed"}[accept])
}
