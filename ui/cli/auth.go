package cli

import (
	"bufio"
	"fmt"
	"os"
	"strings"

	"golang.org/x/term"

	"votedesk/app"
)

// signIn authenticates the user named by --as or VOTEDESK_USER, with the
// password from VOTEDESK_PASSWORD or a prompt.
func (c *call) signIn() error {
	name, pw, err := c.credentials()
	if err != nil {
		return err
	}
	u, err := c.backend.Service.SignIn(c.ctx, name, pw)
	if err != nil {
		return err
	}
	c.actor, c.role = u.Name, u.Role
	return nil
}

// prompt asks for a secret: without echo on a terminal, otherwise as one line
// of standard input.
func (c *call) prompt(question string) (string, error) {
	if f, ok := c.deps.Stdin.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		fmt.Fprint(c.deps.Stderr, question)
		b, err := term.ReadPassword(int(f.Fd()))
		fmt.Fprintln(c.deps.Stderr)
		if err != nil {
			return "", fmt.Errorf("read password: %w", err)
		}
		return string(b), nil
	}
	line, err := bufio.NewReader(c.deps.Stdin).ReadString('\n')
	if err != nil && line == "" {
		return "", app.Errorf(app.CodeInvalid, "no password given (set VOTEDESK_PASSWORD or type it when asked)")
	}
	return strings.TrimRight(line, "\r\n"), nil
}

// credentials are the user named by --as or VOTEDESK_USER and their
// password, from VOTEDESK_PASSWORD or a prompt.
func (c *call) credentials() (name, password string, err error) {
	name = c.asUser
	if name == "" {
		name = c.deps.Getenv("VOTEDESK_USER")
	}
	if name == "" {
		return "", "", app.Errorf(app.CodeForbidden, "sign in with --as USER (password from VOTEDESK_PASSWORD or a prompt)")
	}
	password = c.deps.Getenv("VOTEDESK_PASSWORD")
	if password == "" {
		if password, err = c.prompt(fmt.Sprintf("Password for %s: ", name)); err != nil {
			return "", "", err
		}
	}
	return name, password, nil
}

// backupGate lets through the users who may back up this database, for
// backups requested while this command holds it.
func (c *call) backupGate() func(user, password string) error {
	svc := c.backend.Service
	return func(user, password string) error {
		_, err := svc.AuthorizeBackup(c.ctx, user, password)
		return err
	}
}
