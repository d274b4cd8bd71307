package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCLIMissingDatabase: a mistyped --db never starts an empty database.
// Every command family on a path where there is no database says so and
// makes nothing; the first run (the first user) still makes one.
func TestCLIMissingDatabase(t *testing.T) {
	dir := t.TempDir()
	c := newCLI(t)
	c.db = filepath.Join(dir, "votse.db") // a typo of votes.db
	c.signedIn("olga", "olga-password")
	out := filepath.Join(dir, "out.txt")
	for _, args := range [][]string{
		{"election", "list"},
		{"election", "create", "Mayor"},
		{"candidate", "list", "Mayor"},
		{"voter", "list", "Mayor"},
		{"ballot", "list", "Mayor"},
		{"ballot", "cast", "Mayor", "--voter", "ann", "Kiss"},
		{"tally", "Mayor"},
		{"log"},
		{"counts"},
		{"conflicts"},
		{"state-hash"},
		{"sync", "status"},
		{"verify"},
		{"backup", out},
		{"export", "log", "--output", out},
		{"user", "list"},
		{"kiosk", "Mayor", "--join-code"},
	} {
		r := c.run(nil, args...)
		if r.code != 1 || !strings.Contains(r.err, "no VoteDesk database at "+c.db) {
			t.Errorf("votedesk %s on a missing database: exit %d, %q", strings.Join(args, " "), r.code, r.err)
		}
		if _, err := os.Stat(c.db); err == nil {
			t.Fatalf("votedesk %s made a database at the mistyped path", strings.Join(args, " "))
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a command on a missing database wrote its output file")
	}
	// The first run still makes a database.
	if r := c.run([]string{"VOTEDESK_USER=", "VOTEDESK_PASSWORD=olga-password"}, "user", "add", "olga", "--email", "olga@example.org"); r.code != 0 {
		t.Fatalf("first user add: exit %d: %s", r.code, r.err)
	}
	c.ok("election", "list")
}
