package cli_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestCLIVerifyShowsProgressOnATerminal: verify, which takes tens of
// seconds on a state's database, shows on a terminal which step it is in
// and how far (the hash chain, the replay, the comparison), one line
// rewritten in place and cleared before the verdict; piped, it shows
// nothing but the verdict.
func TestCLIVerifyShowsProgressOnATerminal(t *testing.T) {
	script, err := exec.LookPath("script") // util-linux, in every Debian
	if err != nil {
		t.Skip("no script(1) to run the command on a terminal:", err)
	}
	c := newCLI(t)
	c.run([]string{"VOTEDESK_PASSWORD=olga-password"}, "user", "add", "olga", "--email", "olga@example.org")
	c.signedIn("olga", "olga-password")
	c.ok("election", "create", "E")
	c.ok("candidate", "add", "E", "Ada", "Ben")

	piped := c.run(nil, "verify")
	if piped.code != 0 || strings.Contains(piped.err, "\r") || strings.Contains(piped.err, "checking") {
		t.Errorf("verify piped: exit %d, standard error %q", piped.code, piped.err)
	}

	cmd := exec.Command(script, "-qec", "'"+binary+"' --db '"+c.db+"' verify", "/dev/null")
	cmd.Env = append(append(os.Environ(), "HOME="+t.TempDir(), "VOTEDESK_DB="), c.env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("verify on a terminal: %v\n%q", err, out)
	}
	text := string(out)
	for _, want := range []string{
		"checking the hash chain: 3 of 3 events (100%)",
		"replaying the log into a rebuild of the projection: 3 of 3 events (100%)",
		"comparing the projection with the rebuild",
		"\r\x1b[K",
		"verified: 3 events",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("verify on a terminal wrote no %q:\n%q", want, text)
		}
	}
	if !strings.Contains(text, "\r\x1b[Kverified:") {
		t.Errorf("the progress line was not cleared before the verdict:\n%q", text)
	}
}
