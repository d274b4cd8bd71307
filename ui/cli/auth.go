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
	name := c.asUser
	if name == "" {
		name = c.deps.Getenv("VOTEDESK_USER")
	}
	if name == "" {
		return app.Errorf(app.CodeForbidden, "sign in with --as USER (password from VOTEDESK_PASSWORD or a prompt)")
	}
	pw := c.deps.Getenv("VOTEDESK_PASSWORD")
	if pw == "" {
		var err error
		if pw, err = c.prompt(fmt.Sprintf("Password for %s: ", name)); err != nil {
			return err
		}
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
