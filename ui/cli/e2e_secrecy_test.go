package cli_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// The observer's view of an open secret election, as an adversary with
// time reads it: everything every command shows a role below AUDITOR
// (lists, counts, the log, exports, sync status, in JSON where there is
// JSON), read before and after more ballots arrive. Two worlds differ only
// in how one voter ranked; what a role below AUDITOR sees must be the same
// in both, up to values that are random in every run (codes, hashes, keys,
// times). AUDITOR is the control: it must see the difference, or the test
// could not fail.

// observerRoles are the roles that must learn only turnout.
var observerRoles = []string{"OBSERVER", "VOTER", "USER", "ADMIN"}

// snapshot is everything one role sees, surface by surface.
type snapshot map[string]string

// look runs every read command as user and records what it shows.
func look(c *cliRun, user string) snapshot {
	c.t.Helper()
	env := []string{"VOTEDESK_USER=" + user, "VOTEDESK_PASSWORD=" + user + "-password"}
	s := snapshot{}
	for _, args := range [][]string{
		{"election", "show", "S", "--json"},
		{"election", "list", "--json"},
		{"voter", "list", "S", "--json"},
		{"candidate", "list", "S", "--json"},
		{"ballot", "list", "S", "--json"},
		{"tally", "S", "--json"},
		{"log", "--json"},
		{"conflicts", "--json"},
		{"counts"},
		{"sync", "status", "--json"},
	} {
		r := c.run(env, args...)
		s[strings.Join(args, " ")] = c.masked(fmt.Sprintf("exit %d\n%s\n%s", r.code, r.out, r.err))
	}
	dir := c.t.TempDir()
	for _, args := range [][]string{
		{"export", "log"},
		{"export", "ballots", "S", "--format", "csv"},
		{"export", "ballots", "S", "--format", "cdf"},
		{"export", "results", "S", "--format", "json"},
		{"export", "results", "S", "--format", "html"},
	} {
		out := filepath.Join(dir, strings.Join(args, "-"))
		r := c.run(env, append(args, "--output", out)...)
		body, _ := os.ReadFile(out)
		shown := strings.ReplaceAll(fmt.Sprintf("exit %d\n%s\n%s\n%s", r.code, r.out, r.err, body), out, "FILE")
		s[strings.Join(args, " ")] = c.masked(shown)
	}
	return s
}

// lookBoth is look in two worlds at once (separate databases), as the
// machine's cores allow.
func lookBoth(x, y *cliRun, user string) (snapshot, snapshot) {
	var ys snapshot
	done := make(chan struct{})
	go func() {
		defer close(done)
		ys = look(y, user)
	}()
	xs := look(x, user)
	<-done
	return xs, ys
}

// masked replaces each of c.mask (values that differ between two worlds
// by construction, such as their cloud tables' names) in s.
func (c *cliRun) masked(s string) string {
	for _, m := range c.mask {
		s = strings.ReplaceAll(s, m, "<mask>")
	}
	return s
}

// randomTokens are values that differ from run to run whatever happens:
// confirmation codes and other UUIDs, hashes, commitments and nonces, event
// ids (device key + sequence), keys and signatures, and times.
var randomTokens = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}` +
	`|\b[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}\b` +
	`|[0-9a-f]{16}-[0-9]{10}` +
	`|[0-9a-f]{32,}` +
	`|[A-Za-z0-9_-]{40,}` +
	`|\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)` +
	`|\d{4}-\d\d-\d\d \d\d:\d\d(:\d\d)?` +
	`|\d+(\.\d+)?(ms|µs|s)\b`)

// normalize names each distinct random value by the order it first
// appears, so equal values stay equal: a value derived from a ranking that
// repeats where a ranking repeats is still seen.
func normalize(s snapshot) snapshot {
	out := snapshot{}
	for k, v := range s {
		seen := map[string]string{}
		out[k] = randomTokens.ReplaceAllStringFunc(v, func(tok string) string {
			if n, ok := seen[tok]; ok {
				return n
			}
			seen[tok] = fmt.Sprintf("<r%d>", len(seen)+1)
			return seen[tok]
		})
	}
	return out
}

// diff names the surfaces on which two snapshots differ.
func diff(a, b snapshot) []string {
	var d []string
	for k := range a {
		if a[k] != b[k] {
			d = append(d, fmt.Sprintf("%s:\n--- one world\n%s\n--- the other\n%s", k, a[k], b[k]))
		}
	}
	return d
}

// secretWorld sets up an open secret election S with two ballots cast and
// users of every role, and returns it with what each role saw.
func secretWorld(t *testing.T) (*cliRun, map[string]snapshot) {
	c := newCLI(t)
	if r := c.run([]string{"VOTEDESK_PASSWORD=olga-password"}, "user", "add", "olga", "--email", "olga@example.org"); r.code != 0 {
		t.Fatalf("first user: %s", r.err)
	}
	c.signedIn("olga", "olga-password")
	roles := append([]string{"AUDITOR"}, observerRoles...)
	for _, role := range roles {
		name := strings.ToLower(role)
		c.run([]string{"VOTEDESK_NEW_PASSWORD=" + name + "-password"}, "user", "add", name, "--email", name+"@example.org")
		if role != "USER" {
			c.ok("user", "role", name, role)
		}
	}
	c.ok("election", "create", "S", "--secret")
	c.ok("candidate", "add", "S", "A", "B", "C")
	c.ok("voter", "add", "S", "p1", "p2", "p3", "p4", "p5", "p6", "p7")
	c.ok("election", "launch", "S")
	c.ok("ballot", "cast", "S", "--voter", "p1", "A", "B")
	c.ok("ballot", "cast", "S", "--voter", "p2", "B", "C")
	before := map[string]snapshot{}
	for _, role := range observerRoles {
		before[role] = look(c, strings.ToLower(role))
	}
	return c, before
}

// castBy casts two ballots the way a source brings them: the CLI casts
// them for p3 and p4, paper entry for p5 and p6, an import has no voters;
// by sync, another device casts the second for p7 (the poll book's last
// voter) and this one pulls it from the cloud.
func castBy(t *testing.T, c *cliRun, source string, p3, p4 []string) {
	switch source {
	case "cli":
		c.ok(append([]string{"ballot", "cast", "S", "--voter", "p3"}, p3...)...)
		c.ok(append([]string{"ballot", "cast", "S", "--voter", "p4"}, p4...)...)
	case "paper": // keyed in from paper, one CSV line per ballot
		in := "p5," + strings.Join(p3, ",") + "\np6," + strings.Join(p4, ",") + "\n"
		if r := c.runStdin(in, "ballot", "cast", "S", "--stdin"); r.code != 0 {
			t.Fatalf("paper entry: exit %d: %s", r.code, r.err)
		}
	case "import": // cast vote records from a voting system, no voters
		blt := "3 1\n"
		for _, r := range [][]string{p3, p4} {
			blt += "1"
			for _, n := range r {
				blt += " " + fmt.Sprint(1+strings.Index("ABC", n))
			}
			blt += " 0\n"
		}
		blt += "0\n\"A\"\n\"B\"\n\"C\"\n\"S\"\n"
		f := filepath.Join(t.TempDir(), "batch.blt")
		if err := os.WriteFile(f, []byte(blt), 0o600); err != nil {
			t.Fatal(err)
		}
		c.ok("import", "cvr", "S", f, "--format", "blt")
	case "sync": // cast on another device, offline, and brought by sync
		prefix := fmt.Sprintf("obs%019d_", time.Now().UnixNano())
		c.mask = append(c.mask, prefix)
		cloud := []string{"--endpoint", ddbEndpoint, "--table-prefix", prefix}
		withAWS := append(append([]string{}, awsEnv...), c.env...)
		for _, args := range [][]string{append([]string{"cloud", "init"}, cloud...), append([]string{"sync"}, cloud...)} {
			if r := c.run(withAWS, args...); r.code != 0 {
				t.Fatalf("votedesk %s: %s", strings.Join(args, " "), r.err)
			}
		}
		peer := newSyncCLI(t)
		peer.ok(append([]string{"sync"}, cloud...)...)
		peer.signedInSync("olga", "olga-password")
		peer.ok(append([]string{"ballot", "cast", "S", "--voter", "p7"}, p4...)...)
		peer.ok("sync")
		var before, after struct{ Ballots int }
		decode(t, c.ok("election", "show", "S", "--json"), &before)
		if r := c.run(withAWS, "sync"); r.code != 0 {
			t.Fatalf("sync: %s", r.err)
		}
		if decode(t, c.ok("election", "show", "S", "--json"), &after); after.Ballots != before.Ballots+1 {
			t.Fatalf("sync brought %d ballots, want 1", after.Ballots-before.Ballots)
		}
	}
}

func TestObserverLearnsOnlyTurnout(t *testing.T) {
	// World X: each source brings two ballots ranked alike. World Y: the
	// second is ranked otherwise. The sources follow one another in both.
	x, xBefore := secretWorld(t)
	y, yBefore := secretWorld(t)
	for _, role := range observerRoles {
		if d := diff(normalize(xBefore[role]), normalize(yBefore[role])); len(d) > 0 {
			t.Fatalf("%s: the two worlds differ before the ballots that tell them apart:\n%s", role, strings.Join(d, "\n"))
		}
	}
	for _, source := range []string{"cli", "paper", "import", "sync"} {
		castBy(t, x, source, []string{"C", "B"}, []string{"C", "B"})
		castBy(t, y, source, []string{"C", "B"}, []string{"A", "B"})
		for _, role := range observerRoles {
			xs, ys := lookBoth(x, y, strings.ToLower(role))
			xa, ya := normalize(xs), normalize(ys)
			for _, d := range diff(xa, ya) {
				t.Errorf("after %s ballots, %s learns how a voter ranked from %s", source, role, d)
			}
			// The counts and the ballots stay withheld while the polls are
			// open: the same answer before and after.
			b := normalize(xBefore[role])
			for _, surface := range []string{"ballot list S --json", "tally S --json", "export ballots S --format csv", "export results S --format json"} {
				if b[surface] != xa[surface] {
					t.Errorf("after %s ballots, %s sees %q change:\n%s\n---\n%s", source, role, surface, b[surface], xa[surface])
				}
			}
		}
	}
	// The control: an AUDITOR sees the contents, so the worlds differ.
	if xs, ys := lookBoth(x, y, "auditor"); len(diff(normalize(xs), normalize(ys))) == 0 {
		t.Error("AUDITOR sees no difference between the worlds: the test cannot see what it looks for")
	}
}

// TestCLIExportNeverReplacesTheDatabase: issue 17's one wrong word, with
// the real binary: every export named at the database is refused and the
// database is byte for byte what it was.
func TestCLIExportNeverReplacesTheDatabase(t *testing.T) {
	c, _ := secretWorld(t)
	c.ok("election", "close", "S")
	// Sign-ins keep bookkeeping in the file, so its bytes may change; its
	// contents and its kind must not.
	before, err := os.ReadFile(c.db)
	if err != nil {
		t.Fatal(err)
	}
	hash := c.ok("state-hash")
	for _, args := range [][]string{
		{"export", "log", "--output", c.db},
		{"export", "ballots", "S", "--format", "csv", "--output", c.db},
		{"export", "results", "S", "--format", "json", "--output", c.db},
		{"export", "results", "S", "--format", "html", "--output", filepath.Dir(c.db)},
	} {
		msg := c.refused(1, args...)
		if !strings.Contains(msg, "nothing was written") {
			t.Errorf("votedesk %s: %q", strings.Join(args, " "), msg)
		}
	}
	if c.ok("state-hash") != hash {
		t.Error("the database's contents changed")
	}
	if fi, err := os.Stat(c.db); err != nil || fi.Size() < int64(len(before)) || !isBolt(c.db) {
		t.Errorf("the database file was replaced: %v", err)
	}
}

// isBolt reports whether path is still a bbolt database.
func isBolt(path string) bool {
	b, err := os.ReadFile(path)
	return err == nil && len(b) > 20 && b[16] == 0xED && b[17] == 0xDA && b[18] == 0x0C && b[19] == 0xED
}
