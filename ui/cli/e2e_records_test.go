package cli_test

import (
	"strings"
	"testing"
	"time"
)

// TestCLIRecordsKept: an election with ballots is not deleted while it is
// launched or closed; its retention period is a setting; once finalized it
// is kept until then, archived off the list and shown again, its records
// intact throughout.
func TestCLIRecordsKept(t *testing.T) {
	c := newCLI(t)
	if r := c.run([]string{"VOTEDESK_PASSWORD=olga-password"}, "user", "add", "olga", "--email", "olga@example.org"); r.code != 0 {
		t.Fatalf("first user: %s", r.err)
	}
	c.signedIn("olga", "olga-password")
	c.ok("election", "create", "Mayor")
	c.ok("candidate", "add", "Mayor", "Ann", "Bob")
	c.ok("voter", "add", "Mayor", "v1")
	c.ok("election", "launch", "Mayor")
	c.ok("ballot", "cast", "Mayor", "--voter", "v1", "Ann")
	if msg := c.refused(1, "election", "delete", "Mayor"); !strings.Contains(msg, "records are kept") {
		t.Errorf("delete of a launched election with ballots: %q", msg)
	}
	c.refused(2, "election", "set", "Mayor", "--retain-months", "two years")
	c.refused(1, "election", "set", "Mayor", "--retain-months", "0")
	c.ok("election", "set", "Mayor", "--retain-months", "36")
	if out := c.ok("election", "show", "Mayor"); !strings.Contains(out, "36 months after finalizing") {
		t.Errorf("election show:\n%s", out)
	}
	c.ok("election", "close", "Mayor")
	if msg := c.refused(1, "election", "delete", "Mayor"); !strings.Contains(msg, "records are kept") {
		t.Errorf("delete of a closed election with ballots: %q", msg)
	}
	c.ok("election", "finalize", "Mayor")
	until := time.Now().AddDate(0, 36, 0).Format("2 January 2006")
	if msg := c.refused(1, "election", "delete", "Mayor"); !strings.Contains(msg, "kept until "+until) {
		t.Errorf("delete of a finalized election: %q, want kept until %s", msg, until)
	}
	c.ok("election", "archive", "Mayor")
	if out := c.ok("election", "list"); strings.Contains(out, "Mayor") {
		t.Errorf("an archived election is listed:\n%s", out)
	}
	if out := c.ok("election", "list", "--archived"); !strings.Contains(out, "Mayor") {
		t.Errorf("election list --archived:\n%s", out)
	}
	if out := c.ok("ballot", "list", "Mayor"); !strings.Contains(out, "Ann") {
		t.Errorf("the archived election's ballots:\n%s", out)
	}
	c.ok("election", "unarchive", "Mayor")
	if out := c.ok("election", "list"); !strings.Contains(out, "Mayor") {
		t.Errorf("an unarchived election is not listed:\n%s", out)
	}
}
