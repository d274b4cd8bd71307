package cli

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"golang.org/x/term"

	"votedesk/app"
)

func init() {
	register(&command{path: "kiosk",
		usage: "kiosk ELECTION [--return-after 20s] [--text-size 1-4] [--high-contrast]   (ELECTION: its name or join code; the officer passcode comes from VOTEDESK_KIOSK_PASSCODE or a prompt)\n" +
			"  votedesk kiosk ELECTION --join-code   (print the election's join code)",
		flags: map[string]flagKind{"join-code": boolFlag, "return-after": valueFlag, "text-size": valueFlag, "high-contrast": boolFlag}, db: true, auth: true, run: kioskCmd})
}

// KioskStart is what `votedesk kiosk` hands to the kiosk window once the
// official is signed in, the election may have a kiosk and the passcode is
// hashed.
type KioskStart struct {
	Service      *app.Service
	Official     string
	Election     string
	PasscodeHash string
	// ReturnAfter is how long the receipt shows (0: the kiosk's default).
	ReturnAfter time.Duration
	// TextSize is the text size every voter starts with, from 0 (the
	// smallest of the kiosk's four).
	TextSize int
	// HighContrast starts every voter in high contrast.
	HighContrast bool
	// Sync is the device's cloud sync (nil when this build has none): the
	// kiosk shows what is pending and officials can sync from its menu.
	Sync app.Syncer
}

type joinCodeJSON struct {
	Election string `json:"election"`
	JoinCode string `json:"join_code"`
}

// kioskCmd starts a kiosk for a launched election, or prints an election's
// join code.
func kioskCmd(c *call) error {
	if err := c.args.want(1, 1, "kiosk ELECTION [--join-code]"); err != nil {
		return err
	}
	svc := c.backend.Service
	if c.args.flag("join-code") {
		e, err := svc.FindElection(c.ctx, c.actor, c.args.pos[0])
		if err != nil {
			return err
		}
		code := app.JoinCode(e)
		return c.out(joinCodeJSON{Election: e.Name, JoinCode: code}, func(w io.Writer) { fmt.Fprintln(w, code) })
	}
	var returnAfter time.Duration
	if v := c.args.str("return-after"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < time.Second || d > time.Hour {
			return usagef("--return-after takes a duration from 1s to 1h, like 20s, not %q", v)
		}
		returnAfter = d
	}
	textSize := 0
	if v := c.args.str("text-size"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 4 {
			return usagef("--text-size takes a size from 1 (the smallest) to 4, not %q", v)
		}
		textSize = n - 1
	}
	e, _, err := svc.KioskElection(c.ctx, c.actor, c.args.pos[0])
	if err != nil {
		return err
	}
	passcode := c.deps.Getenv("VOTEDESK_KIOSK_PASSCODE")
	if passcode == "" {
		if passcode, err = c.promptPasscode(); err != nil {
			return err
		}
	}
	if err := app.CheckPasscode(passcode); err != nil {
		return err
	}
	hash, err := app.HashSecret(passcode)
	if err != nil {
		return err
	}
	if c.deps.Kiosk == nil {
		return app.Errorf(app.CodeUnavailable, "this build of votedesk has no kiosk window")
	}
	if stop, err := c.backend.Store.ServeControl(c.backupGate()); err == nil {
		defer stop()
	}
	fmt.Fprintf(c.deps.Stderr, "Kiosk for %q (join code %s), casting as %s. Officials leave it with the passcode.\n", e.Name, app.JoinCode(e), c.actor)
	var syncer app.Syncer
	if c.backend.Cloud != nil {
		syncer = c.backend.Cloud(app.CloudOptions{})
	}
	return c.deps.Kiosk(KioskStart{Service: svc, Official: c.actor, Election: e.Name, PasscodeHash: hash, Sync: syncer,
		ReturnAfter: returnAfter, TextSize: textSize, HighContrast: c.args.flag("high-contrast")})
}

// promptPasscode asks for a new officer passcode: twice, without echo, on a
// terminal; otherwise as one line of standard input.
func (c *call) promptPasscode() (string, error) {
	if f, ok := c.deps.Stdin.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		read := func(q string) (string, error) {
			fmt.Fprint(c.deps.Stderr, q)
			b, err := term.ReadPassword(int(f.Fd()))
			fmt.Fprintln(c.deps.Stderr)
			if err != nil {
				return "", fmt.Errorf("read passcode: %w", err)
			}
			return string(b), nil
		}
		p, err := read("Officer passcode for this kiosk: ")
		if err != nil {
			return "", err
		}
		again, err := read("The passcode again: ")
		if err != nil {
			return "", err
		}
		if p != again {
			return "", app.Errorf(app.CodeInvalid, "the two passcodes differ")
		}
		return p, nil
	}
	line, err := bufio.NewReader(c.deps.Stdin).ReadString('\n')
	if err != nil && line == "" {
		return "", app.Errorf(app.CodeInvalid, "no officer passcode given (set VOTEDESK_KIOSK_PASSCODE or type it when asked)")
	}
	return strings.TrimRight(line, "\r\n"), nil
}
