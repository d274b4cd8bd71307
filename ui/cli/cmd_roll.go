package cli

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"votedesk/app"
)

func init() {
	register(
		&command{path: "candidate add", usage: "candidate add ELECTION NAME...", db: true, auth: true, run: candidateAdd},
		&command{path: "candidate remove", usage: "candidate remove ELECTION NAME...", db: true, auth: true, run: candidateRemove},
		&command{path: "candidate list", usage: "candidate list ELECTION", db: true, auth: true, run: candidateList},
		&command{path: "voter add", usage: "voter add ELECTION NAME...", db: true, auth: true, run: voterAdd},
		&command{path: "voter remove", usage: "voter remove ELECTION NAME...", db: true, auth: true, run: voterRemove},
		&command{path: "voter list", usage: "voter list ELECTION", db: true, auth: true, run: voterList},
		&command{path: "voter check", usage: "voter check ELECTION NAME", db: true, auth: true, run: voterCheck},
		&command{path: "voter link", usage: "voter link ELECTION VOTER USER   (the account USER may cast VOTER's ballot as a VOTER)", db: true, auth: true, run: voterLink},
		&command{path: "voter unlink", usage: "voter unlink ELECTION VOTER", db: true, auth: true, run: voterUnlink},
	)
}

func candidateAdd(c *call) error {
	if err := c.args.want(2, -1, "candidate add ELECTION NAME..."); err != nil {
		return err
	}
	e, names := c.args.pos[0], c.args.pos[1:]
	if err := c.backend.Service.AddCandidates(c.ctx, c.actor, e, names...); err != nil {
		return err
	}
	return c.done("added %d candidate(s) to %s", len(names), e)
}

func candidateRemove(c *call) error {
	if err := c.args.want(2, -1, "candidate remove ELECTION NAME..."); err != nil {
		return err
	}
	e, names := c.args.pos[0], c.args.pos[1:]
	if err := c.backend.Service.RemoveCandidates(c.ctx, c.actor, e, names...); err != nil {
		return err
	}
	return c.done("removed %d candidate(s) from %s", len(names), e)
}

func candidateList(c *call) error {
	if err := c.args.want(1, 1, "candidate list ELECTION"); err != nil {
		return err
	}
	cands, err := c.backend.Service.Candidates(c.ctx, c.actor, c.args.pos[0])
	if err != nil {
		return err
	}
	names := make([]string, len(cands))
	for i, x := range cands {
		names[i] = x.Name
	}
	return c.out(names, func(w io.Writer) {
		for i, n := range names {
			fmt.Fprintf(w, "%d. %s\n", i+1, n)
		}
	})
}

func voterAdd(c *call) error {
	if err := c.args.want(2, -1, "voter add ELECTION NAME..."); err != nil {
		return err
	}
	e := c.args.pos[0]
	entries := make([]app.VoterEntry, 0, len(c.args.pos)-1)
	for _, n := range c.args.pos[1:] {
		entries = append(entries, app.VoterEntry{Name: n})
	}
	if err := c.backend.Service.AddVoters(c.ctx, c.actor, e, entries...); err != nil {
		return err
	}
	return c.done("added %d voter(s) to the poll book of %s", len(entries), e)
}

func voterRemove(c *call) error {
	if err := c.args.want(2, -1, "voter remove ELECTION NAME..."); err != nil {
		return err
	}
	e, names := c.args.pos[0], c.args.pos[1:]
	if err := c.backend.Service.RemoveVoters(c.ctx, c.actor, e, names...); err != nil {
		return err
	}
	return c.done("removed %d voter(s) from the poll book of %s", len(names), e)
}

type voterJSON struct {
	Name  string `json:"name"`
	Email string `json:"email,omitempty"`
	Voted bool   `json:"voted"`
}

func voterList(c *call) error {
	if err := c.args.want(1, 1, "voter list ELECTION"); err != nil {
		return err
	}
	voters, err := c.backend.Service.Voters(c.ctx, c.actor, c.args.pos[0])
	if err != nil {
		return err
	}
	out := make([]voterJSON, len(voters))
	for i, v := range voters {
		out[i] = voterJSON{Name: v.Name, Email: v.Email, Voted: v.Voted}
	}
	return c.out(out, func(w io.Writer) {
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "NAME\tEMAIL\tVOTED")
		for _, v := range out {
			fmt.Fprintf(tw, "%s\t%s\t%s\n", v.Name, v.Email, yesNo(v.Voted))
		}
		tw.Flush()
	})
}

func voterCheck(c *call) error {
	if err := c.args.want(2, 2, "voter check ELECTION NAME"); err != nil {
		return err
	}
	el, err := c.backend.Service.CheckVoter(c.ctx, c.actor, c.args.pos[0], c.args.pos[1])
	if err != nil {
		return err
	}
	return c.out(map[string]bool{"eligible": el.Eligible, "voted": el.Voted}, func(w io.Writer) {
		var b strings.Builder
		if el.Eligible {
			b.WriteString("eligible")
		} else {
			b.WriteString("not in the poll book")
		}
		if el.Voted {
			b.WriteString(", has voted")
		}
		fmt.Fprintln(w, b.String())
	})
}

func voterLink(c *call) error {
	if err := c.args.want(3, 3, "voter link ELECTION VOTER USER"); err != nil {
		return err
	}
	if err := c.backend.Service.LinkVoter(c.ctx, c.actor, c.args.pos[0], c.args.pos[1], c.args.pos[2]); err != nil {
		return err
	}
	return c.done("%s may now cast the ballot of %s in %s", c.args.pos[2], c.args.pos[1], c.args.pos[0])
}

func voterUnlink(c *call) error {
	if err := c.args.want(2, 2, "voter unlink ELECTION VOTER"); err != nil {
		return err
	}
	if err := c.backend.Service.LinkVoter(c.ctx, c.actor, c.args.pos[0], c.args.pos[1], ""); err != nil {
		return err
	}
	return c.done("no account is linked to %s in %s any more", c.args.pos[1], c.args.pos[0])
}
