package cli_test

import (
	"bytes"
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
		{"compact"},
		{"import", "cvr", "Mayor", "ballots.csv"},
		{"import", "voters", "Mayor", "voters.csv"},
		{"election", "close", "Mayor"},
		{"election", "archive", "Mayor"},
		{"election", "delete", "Mayor"},
		{"conflicts", "resolve", "Mayor", "1", "--accept"},
		{"candidate", "add", "Mayor", "Kiss"},
		{"voter", "add", "Mayor", "ann"},
		{"user", "role", "ann", "ADMIN"},
		{"export", "results", "Mayor", "--output", out},
		{"export", "ballots", "Mayor", "--output", out},
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

// TestCLIBackupRestoreGates: backup and restore pass the same gate as in
// the desktop app: a backup takes AUDITOR or OWNER (it holds every secret),
// a restore the OWNER.
func TestCLIBackupRestoreGates(t *testing.T) {
	c, _ := secretWorld(t)
	for _, role := range []string{"ADMIN", "VOTER", "NO_ACCESS"} {
		name := strings.ToLower(strings.ReplaceAll(role, "_", ""))
		c.run([]string{"VOTEDESK_NEW_PASSWORD=" + name + "-password"}, "user", "add", name, "--email", name+"@example.org")
		c.ok("user", "role", name, role)
	}
	dir := t.TempDir()
	for _, tc := range []struct {
		user string
		ok   bool
	}{{"noaccess", false}, {"voter", false}, {"user", false}, {"observer", false}, {"admin", false}, {"auditor", true}, {"olga", true}} {
		dest := filepath.Join(dir, tc.user+".db")
		r := c.run([]string{"VOTEDESK_USER=" + tc.user, "VOTEDESK_PASSWORD=" + tc.user + "-password"}, "backup", dest)
		_, statErr := os.Stat(dest)
		if tc.ok != (r.code == 0) || tc.ok != (statErr == nil) {
			t.Errorf("backup as %s: exit %d %s (file made: %v)", tc.user, r.code, r.err, statErr == nil)
		}
		if !tc.ok && !strings.Contains(r.err, "may not back up") && !strings.Contains(r.err, "has no access") {
			t.Errorf("backup as %s: %q", tc.user, r.err)
		}
	}
	if r := c.run([]string{"VOTEDESK_USER=", "VOTEDESK_PASSWORD="}, "backup", filepath.Join(dir, "anon.db")); r.code == 0 {
		t.Error("a backup without signing in")
	}
	backup := filepath.Join(dir, "olga.db")
	ballots := func() int {
		var e struct{ Ballots int }
		decode(t, c.ok("election", "show", "S", "--json"), &e)
		return e.Ballots
	}
	before := ballots()
	c.ok("ballot", "cast", "S", "--voter", "p3", "A")
	for _, u := range []string{"noaccess", "voter", "observer", "user", "admin", "auditor"} {
		r := c.run([]string{"VOTEDESK_USER=" + u, "VOTEDESK_PASSWORD=" + u + "-password"}, "restore", backup)
		if r.code != 1 || !strings.Contains(r.err, "only the OWNER") && !strings.Contains(r.err, "has no access") {
			t.Errorf("restore as %s: exit %d %q", u, r.code, r.err)
		}
	}
	if ballots() != before+1 {
		t.Fatal("the refused restores changed the database")
	}
	// A damaged backup (cut short, or a page overwritten) is refused with
	// a message naming it, never a crash, and changes nothing.
	raw, err := os.ReadFile(backup)
	if err != nil {
		t.Fatal(err)
	}
	cut, scribbled := filepath.Join(dir, "cut.db"), filepath.Join(dir, "scribbled.db")
	os.WriteFile(cut, raw[:len(raw)/3], 0o600)
	bad := bytes.Clone(raw)
	ps := int(raw[24]) | int(raw[25])<<8 | int(raw[26])<<16 // the file's page size, from its header
	for i := ps * 2; i < len(bad) && i < ps*6; i++ {
		bad[i] = 0xA5
	}
	os.WriteFile(scribbled, bad, 0o600)
	for _, f := range []string{cut, scribbled} {
		r := c.run(nil, "restore", f)
		if r.code != 1 || !strings.Contains(r.err, f) || strings.Contains(r.err, "panic") {
			t.Errorf("restore of a damaged backup: exit %d %q", r.code, r.err)
		}
	}
	if ballots() != before+1 {
		t.Fatal("a refused restore of a damaged backup changed the database")
	}
	c.ok("restore", backup)
	if ballots() != before {
		t.Error("the OWNER's restore did not bring the backup back")
	}
	// A database made elsewhere, even with an OWNER of the same name, is
	// not this installation's: restoring it takes naming its OWNER.
	for _, owner := range []string{"mallory", "olga"} {
		other := newCLI(t)
		other.run([]string{"VOTEDESK_PASSWORD=x-password"}, "user", "add", owner, "--email", owner+"@example.org")
		stateBefore := c.ok("state-hash")
		dbBefore, _ := os.ReadFile(c.db)
		msg := c.refused(1, "restore", other.db)
		if !strings.Contains(msg, "another installation's database") || !strings.Contains(msg, "OWNER "+owner) || !strings.Contains(msg, "--owner NAME") {
			t.Errorf("restore of %s's database: %q", owner, msg)
		}
		if r := c.run(nil, "restore", other.db, "--owner", "someone"); r.code != 1 {
			t.Errorf("restore confirmed with the wrong OWNER: exit %d", r.code)
		}
		if dbAfter, _ := os.ReadFile(c.db); c.ok("state-hash") != stateBefore || !bytes.Equal(dbBefore, dbAfter) {
			t.Fatalf("a refused restore of %s's database changed this one", owner)
		}
	}
	other := newCLI(t)
	other.run([]string{"VOTEDESK_PASSWORD=x-password"}, "user", "add", "mallory", "--email", "mallory@example.org")
	c.ok("restore", other.db, "--owner", "mallory")
	if r := c.run(nil, "election", "list"); r.code == 0 {
		t.Error("olga still signs in after restoring mallory's database")
	}
}
