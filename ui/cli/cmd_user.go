package cli

import (
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"votedesk/app"
)

type userJSON struct {
	Name    string    `json:"name"`
	Email   string    `json:"email"`
	Role    string    `json:"role"`
	Created time.Time `json:"created"`
}

func init() {
	register(
		&command{path: "user add", usage: "user add NAME --email E   (password from VOTEDESK_NEW_PASSWORD or a prompt)",
			flags: map[string]flagKind{"email": valueFlag}, db: true, run: userAdd},
		&command{path: "user list", usage: "user list", db: true, auth: true, run: userList},
		&command{path: "user show", usage: "user show NAME|EMAIL", db: true, auth: true, run: userShow},
		&command{path: "counts", usage: "counts   (users and elections, from METADATA/COUNTS)", db: true, auth: true, run: counts},
		&command{path: "user role", usage: "user role NAME ROLE", db: true, auth: true, run: userRole},
		&command{path: "user remove", usage: "user remove NAME", db: true, auth: true, run: userRemove},
		&command{path: "user password", usage: "user password NAME   (new password from VOTEDESK_NEW_PASSWORD or a prompt)", db: true, auth: true, run: userPassword},
		&command{path: "user rename", usage: "user rename NAME NEW_NAME", db: true, auth: true, run: userRename},
		&command{path: "user email", usage: "user email NAME EMAIL", db: true, auth: true, run: userEmail},
		&command{path: "user transfer-owner", usage: "user transfer-owner NAME", db: true, auth: true, run: userTransfer},
	)
}

// newPassword reads the password of a user being added or changed.
func (c *call) newPassword(name string, bootstrap bool) (string, error) {
	if pw := c.deps.Getenv("VOTEDESK_NEW_PASSWORD"); pw != "" {
		return pw, nil
	}
	if pw := c.deps.Getenv("VOTEDESK_PASSWORD"); bootstrap && pw != "" {
		return pw, nil
	}
	return c.prompt(fmt.Sprintf("New password for %s: ", name))
}

func userAdd(c *call) error {
	if err := c.args.want(1, 1, "user add NAME --email E"); err != nil {
		return err
	}
	if c.args.str("email") == "" {
		return usagef("user add needs --email E")
	}
	hasUsers, err := c.backend.Service.HasUsers(c.ctx)
	if err != nil {
		return err
	}
	if hasUsers {
		if err := c.signIn(); err != nil {
			return err
		}
	}
	name := c.args.pos[0]
	pw, err := c.newPassword(name, !hasUsers)
	if err != nil {
		return err
	}
	if err := c.backend.Service.RegisterUser(c.ctx, c.actor, name, c.args.str("email"), pw); err != nil {
		return err
	}
	u, err := c.backend.Service.SignIn(c.ctx, name, pw)
	if err != nil {
		return err
	}
	return c.out(toUserJSON(u), func(w io.Writer) { fmt.Fprintf(w, "added %s (%s) as %s\n", u.Name, u.Email, u.Role) })
}

func toUserJSON(u app.User) userJSON {
	return userJSON{Name: u.Name, Email: u.Email, Role: u.Role.String(), Created: u.Created}
}

func userList(c *call) error {
	if err := c.args.want(0, 0, "user list"); err != nil {
		return err
	}
	users, err := c.backend.Service.Users(c.ctx, c.actor)
	if err != nil {
		return err
	}
	out := make([]userJSON, len(users))
	for i, u := range users {
		out[i] = toUserJSON(u)
	}
	return c.out(out, func(w io.Writer) {
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "NAME\tEMAIL\tROLE")
		for _, u := range users {
			fmt.Fprintf(tw, "%s\t%s\t%s\n", u.Name, u.Email, u.Role)
		}
		tw.Flush()
	})
}

func userRole(c *call) error {
	if err := c.args.want(2, 2, "user role NAME ROLE"); err != nil {
		return err
	}
	role, err := app.ParseRole(c.args.pos[1])
	if err != nil {
		return usagef("%s", app.ErrorMessage(err))
	}
	if err := c.backend.Service.SetRole(c.ctx, c.actor, c.args.pos[0], role); err != nil {
		return err
	}
	return c.done("%s is now %s", c.args.pos[0], role)
}

func userRemove(c *call) error {
	if err := c.args.want(1, 1, "user remove NAME"); err != nil {
		return err
	}
	if err := c.backend.Service.RemoveUser(c.ctx, c.actor, c.args.pos[0]); err != nil {
		return err
	}
	return c.done("removed user %s", c.args.pos[0])
}

func userPassword(c *call) error {
	if err := c.args.want(1, 1, "user password NAME"); err != nil {
		return err
	}
	pw, err := c.newPassword(c.args.pos[0], false)
	if err != nil {
		return err
	}
	if err := c.backend.Service.ChangePassword(c.ctx, c.actor, c.args.pos[0], pw); err != nil {
		return err
	}
	return c.done("changed the password of %s", c.args.pos[0])
}

func userRename(c *call) error {
	if err := c.args.want(2, 2, "user rename NAME NEW_NAME"); err != nil {
		return err
	}
	if err := c.backend.Service.RenameUser(c.ctx, c.actor, c.args.pos[0], c.args.pos[1]); err != nil {
		return err
	}
	return c.done("renamed user %s to %s", c.args.pos[0], c.args.pos[1])
}

func userEmail(c *call) error {
	if err := c.args.want(2, 2, "user email NAME EMAIL"); err != nil {
		return err
	}
	if err := c.backend.Service.ChangeEmail(c.ctx, c.actor, c.args.pos[0], c.args.pos[1]); err != nil {
		return err
	}
	return c.done("changed the email of %s", c.args.pos[0])
}

func userTransfer(c *call) error {
	if err := c.args.want(1, 1, "user transfer-owner NAME"); err != nil {
		return err
	}
	if err := c.backend.Service.TransferOwnership(c.ctx, c.actor, c.args.pos[0]); err != nil {
		return err
	}
	return c.done("%s is now the OWNER; %s is an AUDITOR", c.args.pos[0], c.actor)
}

// done reports a completed change: {"ok":true,"message":...} with --json.
func (c *call) done(format string, a ...any) error {
	msg := fmt.Sprintf(format, a...)
	return c.out(map[string]any{"ok": true, "message": msg}, func(w io.Writer) { fmt.Fprintln(w, msg) })
}

func userShow(c *call) error {
	if err := c.args.want(1, 1, "user show NAME|EMAIL"); err != nil {
		return err
	}
	u, err := c.backend.Service.User(c.ctx, c.actor, c.args.pos[0])
	if err != nil {
		return err
	}
	return c.out(toUserJSON(u), func(w io.Writer) { fmt.Fprintf(w, "%s <%s> %s\n", u.Name, u.Email, u.Role) })
}

func counts(c *call) error {
	if err := c.args.want(0, 0, "counts"); err != nil {
		return err
	}
	n, err := c.backend.Service.Counts(c.ctx, c.actor)
	if err != nil {
		return err
	}
	return c.out(map[string]int64{"users": n.Users, "elections": n.Elections}, func(w io.Writer) {
		fmt.Fprintf(w, "%d users, %d elections\n", n.Users, n.Elections)
	})
}
