package cli_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// onTerminal runs the binary with args (quoted for a shell) on a terminal,
// through script(1), with env added, and returns what it wrote there.
func onTerminal(t *testing.T, env []string, args string) string {
	t.Helper()
	script, err := exec.LookPath("script") // util-linux, in every Debian
	if err != nil {
		t.Skip("no script(1) to run the command on a terminal:", err)
	}
	cmd := exec.Command(script, "-qec", "'"+binary+"' "+args, "/dev/null")
	cmd.Env = append(append(os.Environ(), "HOME="+t.TempDir(), "VOTEDESK_DB="), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s on a terminal: %v\n%q", args, err, out)
	}
	return string(out)
}

// TestCLIVerifyShowsProgressOnATerminal: verify, which takes tens of
// seconds on a state's database, shows on a terminal which step it is in
// and how far (the hash chain, the replay, the comparison), one line
// rewritten in place and cleared before the verdict; piped, it shows
// nothing but the verdict.
func TestCLIVerifyShowsProgressOnATerminal(t *testing.T) {
	c := newCLI(t)
	c.run([]string{"VOTEDESK_PASSWORD=olga-password"}, "user", "add", "olga", "--email", "olga@example.org")
	c.signedIn("olga", "olga-password")
	c.ok("election", "create", "E")
	c.ok("candidate", "add", "E", "Ada", "Ben")

	piped := c.run(nil, "verify")
	if piped.code != 0 || strings.Contains(piped.err, "\r") || strings.Contains(piped.err, "checking") {
		t.Errorf("verify piped: exit %d, standard error %q", piped.code, piped.err)
	}

	text := onTerminal(t, c.env, "--db '"+c.db+"' verify")
	for _, want := range []string{
		"checking the hash chain: 3 of 3 events (100%)",
		"replaying the log into a rebuild of the projection: 3 of 3 events (100%)",
		"comparing the projection with the rebuild",
		"\r\x1b[Kverified: 3 events", // the progress line cleared before the verdict
	} {
		if !strings.Contains(text, want) {
			t.Errorf("verify on a terminal wrote no %q:\n%q", want, text)
		}
	}
}

// TestCLIRestoreShowsProgressOnATerminal: a restore checks the backup
// (tens of seconds for a state's database) with the verify's progress line
// on a terminal, cleared before what was restored is said.
func TestCLIRestoreShowsProgressOnATerminal(t *testing.T) {
	c := newCLI(t)
	c.run([]string{"VOTEDESK_PASSWORD=olga-password"}, "user", "add", "olga", "--email", "olga@example.org")
	c.signedIn("olga", "olga-password")
	c.ok("election", "create", "E")
	backup := filepath.Join(t.TempDir(), "backup.db")
	c.ok("backup", backup)

	// Restored on a new machine: where there is no database yet.
	fresh := filepath.Join(t.TempDir(), "fresh.db")
	text := onTerminal(t, nil, "--db '"+fresh+"' restore '"+backup+"'")
	for _, want := range []string{
		"checking the backup, checking the hash chain: 2 of 2 events (100%)",
		"checking the backup, replaying the log into a rebuild of the projection",
		"\r\x1b[Krestored 2 events into " + fresh,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("restore on a terminal wrote no %q:\n%q", want, text)
		}
	}
}
