package cli_test

import (
	"bytes"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"
)

var joinCodeRE = regexp.MustCompile(`^[A-HJ-NP-Z]{3}-[A-HJ-NP-Z]{3}-[0-9]{5}$`)

// kioskPlace sets up, through the CLI, a draft election "Mayor 2026" run by
// the owner olga, and a VOTER vera.
func kioskPlace(t *testing.T) *cliRun {
	t.Helper()
	c := newCLI(t)
	if r := c.run([]string{"VOTEDESK_PASSWORD=owner-password"}, "user", "add", "olga", "--email", "olga@example.org"); r.code != 0 {
		t.Fatalf("user add: %s", r.err)
	}
	c.signedIn("olga", "owner-password")
	c.run([]string{"VOTEDESK_NEW_PASSWORD=voter-password"}, "user", "add", "vera", "--email", "vera@example.org")
	c.ok("user", "role", "vera", "VOTER")
	c.ok("election", "create", "Mayor 2026", "--secret")
	c.ok("candidate", "add", "Mayor 2026", "Kiss", "Wright", "Montroll")
	c.ok("voter", "add", "Mayor 2026", "ann", "bob")
	return c
}

func TestCLIKiosk(t *testing.T) {
	c := kioskPlace(t)
	c.env = append(c.env, "VOTEDESK_KIOSK_PASSCODE=kiosk-passcode")
	if msg := c.refused(1, "kiosk", "Mayor 2026"); !strings.Contains(msg, "not launched yet") {
		t.Errorf("kiosk for a draft: %q", msg)
	}
	c.ok("election", "launch", "Mayor 2026")
	code := strings.TrimSpace(c.ok("kiosk", "Mayor 2026", "--join-code"))
	if !joinCodeRE.MatchString(code) {
		t.Fatalf("kiosk --join-code printed %q", code)
	}
	var byCode struct {
		Election string `json:"election"`
		JoinCode string `json:"join_code"`
	}
	decode(t, c.ok("kiosk", strings.ToLower(code), "--join-code", "--json"), &byCode)
	if byCode.Election != "Mayor 2026" || byCode.JoinCode != code {
		t.Errorf("kiosk CODE --join-code --json = %+v", byCode)
	}

	t.Run("Refused", func(t *testing.T) {
		for _, tc := range []struct {
			env  []string
			args []string
			says string
		}{
			{nil, []string{"kiosk", "Nope"}, "no election named"},
			{nil, []string{"kiosk", "ZZZ-ZZZ-00000"}, "no election has the join code"},
			{[]string{"VOTEDESK_KIOSK_PASSCODE=12345"}, []string{"kiosk", code}, "at least 6 characters"},
			{[]string{"VOTEDESK_KIOSK_PASSCODE="}, []string{"kiosk", code}, "no officer passcode given"},
			{[]string{"VOTEDESK_USER=vera", "VOTEDESK_PASSWORD=voter-password"}, []string{"kiosk", code}, "USE_APPLICATION"},
		} {
			saved := c.env
			c.env = append(append([]string{}, c.env...), tc.env...)
			if msg := c.refused(1, tc.args...); !strings.Contains(msg, tc.says) {
				t.Errorf("votedesk %v: %q, want %q", tc.args, msg, tc.says)
			}
			c.env = saved
		}
		c.refused(2, "kiosk")
		c.refused(2, "kiosk", "Mayor 2026", "extra")
		c.refused(2, "kiosk", "Mayor 2026", "--return-after", "soon")
		if msg := c.refused(2, "kiosk", "Mayor 2026", "--text-size", "5"); !strings.Contains(msg, "from 1 (the smallest) to 4") {
			t.Errorf("--text-size 5: %q", msg)
		}
	})
}

// TestCLIKioskWindow starts `votedesk kiosk JOINCODE` on a headless X
// server and finds its window covering the whole screen, then ends the
// process (closing the window itself needs the passcode).
func TestCLIKioskWindow(t *testing.T) {
	if _, err := exec.LookPath("Xvfb"); err != nil {
		t.Skip("needs Xvfb")
	}
	if _, err := exec.LookPath("xwininfo"); err != nil {
		t.Skip("needs xwininfo")
	}
	c := kioskPlace(t)
	c.ok("election", "launch", "Mayor 2026")
	code := strings.TrimSpace(c.ok("kiosk", "Mayor 2026", "--join-code"))

	display := startXvfb(t)

	cmd := exec.Command(binary, "--db", c.db, "kiosk", code, "--return-after", "10s", "--text-size", "3", "--high-contrast")
	cmd.Env = append(os.Environ(), append(c.env, "DISPLAY="+display, "VOTEDESK_KIOSK_PASSCODE=kiosk-passcode", "HOME="+t.TempDir())...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()

	sizeRE := regexp.MustCompile(`"VoteDesk kiosk".*?\s(\d+)x(\d+)\+`)
	deadline := time.Now().Add(30 * time.Second)
	for {
		out, _ := exec.Command("xwininfo", "-display", display, "-root", "-tree").Output()
		if m := sizeRE.FindStringSubmatch(string(out)); m != nil && m[1] == "1280" && m[2] == "800" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no full-screen kiosk window within 30 s; windows:\n%s\nstderr: %s", out, stderr.String())
		}
		time.Sleep(200 * time.Millisecond)
	}
	if !strings.Contains(stderr.String(), `Kiosk for "Mayor 2026" (join code `+code+`)`) {
		t.Errorf("stderr = %q", stderr.String())
	}
}
