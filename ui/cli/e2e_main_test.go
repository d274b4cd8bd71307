package cli_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"votedesk/localstore"
	"votedesk/sync/ddblocal"
)

// binary is the votedesk executable built once for the CLI tests.
var binary string

// ddbEndpoint is the DynamoDB Local the sync commands talk to.
var ddbEndpoint string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "votedesk-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "votedesk")
	build := exec.Command("go", "build", "-tags", "migrated_fynedo", "-o", binary, "votedesk")
	build.Stdout, build.Stderr = os.Stdout, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "build votedesk:", err)
		os.Exit(1)
	}
	code := ddblocal.RunTests(m.Run, &ddbEndpoint)
	os.RemoveAll(dir)
	os.Exit(code)
}

// cliRun runs the real binary against one database.
type cliRun struct {
	t   *testing.T
	db  string
	env []string
	// dir is the working folder of the commands ("" = the test's).
	dir string
	// mask are values a look at the database hides (cliRun.masked).
	mask []string
}

func newCLI(t *testing.T) *cliRun {
	return &cliRun{t: t, db: filepath.Join(t.TempDir(), "votedesk.db")}
}

type result struct {
	out, err string
	code     int
}

// run runs votedesk with --db and the given extra environment.
func (c *cliRun) run(env []string, args ...string) result {
	c.t.Helper()
	return c.runWith(env, "", args...)
}

// runStdin runs votedesk with --db and stdin.
func (c *cliRun) runStdin(stdin string, args ...string) result {
	c.t.Helper()
	return c.runWith(nil, stdin, args...)
}

func (c *cliRun) runWith(env []string, stdin string, args ...string) result {
	c.t.Helper()
	cmd := exec.Command(binary, append([]string{"--db", c.db}, args...)...)
	cmd.Dir = c.dir
	cmd.Env = append(append(os.Environ(), "HOME="+c.t.TempDir(), "VOTEDESK_DB=", "VOTEDESK_USER=", "VOTEDESK_PASSWORD=", "VOTEDESK_NEW_PASSWORD="), append(c.env, env...)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	cmd.Stdin = strings.NewReader(stdin)
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		c.t.Fatalf("run votedesk %v: %v", args, err)
	}
	return result{out.String(), errb.String(), code}
}

// ok runs a command that must succeed and returns its output.
func (c *cliRun) ok(args ...string) string {
	c.t.Helper()
	r := c.run(nil, args...)
	if r.code != 0 {
		c.t.Fatalf("votedesk %s: exit %d\n%s%s", strings.Join(args, " "), r.code, r.out, r.err)
	}
	return r.out
}

// refused runs a command that must fail with exit status code, writing
// nothing, and returns its message.
func (c *cliRun) refused(code int, args ...string) string {
	c.t.Helper()
	before := c.logLength()
	r := c.run(nil, args...)
	if r.code != code {
		c.t.Fatalf("votedesk %s: exit %d, want %d\n%s%s", strings.Join(args, " "), r.code, code, r.out, r.err)
	}
	if r.err == "" {
		c.t.Errorf("votedesk %s printed no message", strings.Join(args, " "))
	}
	if after := c.logLength(); after != before {
		c.t.Errorf("votedesk %s was refused but the log grew from %d to %d events", strings.Join(args, " "), before, after)
	}
	return r.err
}

func (c *cliRun) logLength() int {
	if _, err := os.Stat(c.db); err != nil {
		return 0
	}
	r := c.run(nil, "log", "--json")
	if r.code != 0 {
		return -1
	}
	return strings.Count(r.out, "\n")
}

// signedIn makes later commands run as the given user.
func (c *cliRun) signedIn(user, password string) {
	c.env = []string{"VOTEDESK_USER=" + user, "VOTEDESK_PASSWORD=" + password}
}

// codeRE is a confirmation code as the CLI prints it (app/confirmation.go).
var codeRE = regexp.MustCompile(`^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$`)

func TestCLIContract(t *testing.T) {
	c := newCLI(t)
	r := c.run([]string{"VOTEDESK_PASSWORD=owner-password"}, "user", "add", "olga", "--email", "olga@example.org")
	if r.code != 0 || !strings.Contains(r.out, "as OWNER") {
		t.Fatalf("first user add: exit %d: %s%s", r.code, r.out, r.err)
	}
	c.signedIn("olga", "owner-password")
	r = c.run([]string{"VOTEDESK_NEW_PASSWORD=clerk-password"}, "user", "add", "carl", "--email", "carl@example.org")
	if r.code != 0 || !strings.Contains(r.out, "as USER") {
		t.Fatalf("second user add: exit %d: %s%s", r.code, r.out, r.err)
	}
	c.ok("user", "role", "carl", "ADMIN")
	var users []struct{ Name, Email, Role string }
	decode(t, c.ok("user", "list", "--json"), &users)
	if len(users) != 2 || users[0].Name != "carl" || users[0].Role != "ADMIN" || users[1].Role != "OWNER" {
		t.Errorf("user list = %+v", users)
	}

	if got := c.ok("user", "show", "CARL@example.org"); !strings.Contains(got, "carl <carl@example.org> ADMIN") {
		t.Errorf("user show by email = %q", got)
	}
	c.ok("election", "create", "Mayor 2026", "--description", "City mayor")
	if got := c.ok("counts"); got != "2 users, 1 elections\n" {
		t.Errorf("counts = %q", got)
	}
	c.ok("election", "set", "Mayor 2026", "--no-voting-before", "2020-01-01T00:00:00Z", "--allow-edit=true", "--secret=false")
	c.ok("candidate", "add", "Mayor 2026", "Kiss", "Wright", "Montroll", "Smith")
	c.ok("candidate", "remove", "Mayor 2026", "Smith")
	if got := c.ok("candidate", "list", "Mayor 2026", "--json"); !strings.Contains(got, `"Kiss"`) || strings.Contains(got, "Smith") {
		t.Errorf("candidate list = %s", got)
	}
	c.ok("voter", "add", "Mayor 2026", "ann", "bob", "cy")
	c.ok("voter", "remove", "Mayor 2026", "cy")
	var show struct {
		Name, Status string
		Candidates   int
		Voters       int
		Secret       bool `json:"secret_ballot"`
	}
	decode(t, c.ok("election", "show", "Mayor 2026", "--json"), &show)
	if show.Status != "draft" || show.Candidates != 3 || show.Voters != 2 || show.Secret {
		t.Errorf("election show = %+v", show)
	}
	c.ok("election", "launch", "Mayor 2026")
	code := strings.TrimSpace(c.ok("ballot", "cast", "Mayor 2026", "--voter", "ann", "Kiss", "Wright|Montroll"))
	if !codeRE.MatchString(code) {
		t.Errorf("ballot cast printed %q, want a confirmation code", code)
	}
	var ballots []struct {
		Confirmation string
		Voter        string
		Rankings     []struct {
			Candidate string
			Rank      int
		}
	}
	decode(t, c.ok("ballot", "list", "Mayor 2026", "--json"), &ballots)
	if len(ballots) != 1 || ballots[0].Confirmation != code || len(ballots[0].Rankings) != 3 || ballots[0].Rankings[2].Rank != 2 {
		t.Errorf("ballot list = %+v", ballots)
	}
	if list := c.ok("election", "list"); !strings.Contains(list, "Mayor 2026") || !strings.Contains(list, "open") {
		t.Errorf("election list = %s", list)
	}
	log := c.ok("log", "--since", "3", "--json")
	if strings.Count(log, "\n") < 5 || !strings.HasPrefix(log, `{"seq":3,`) {
		t.Errorf("log --since 3 = %s", log)
	}

	t.Run("RefusedExitsOne", func(t *testing.T) {
		for _, args := range [][]string{
			{"ballot", "cast", "Mayor 2026", "--voter", "ann", "Kiss"},
			{"ballot", "cast", "Mayor 2026", "--voter", "zed", "Kiss"},
			{"ballot", "cast", "Mayor 2026", "--voter", "bob", "Nobody"},
			{"ballot", "cast", "Mayor 2026", "--voter", "bob", "Kiss", "Kiss"},
			{"candidate", "add", "Mayor 2026", "Late"},
			{"election", "create", "Mayor 2026"},
			{"election", "finalize", "Nope"},
			{"user", "role", "olga", "USER"},
		} {
			msg := c.refused(1, args...)
			if strings.Contains(msg, "panic") || strings.Count(msg, "\n") > 2 {
				t.Errorf("votedesk %v: message %q is not one plain line", args, msg)
			}
		}
	})
	t.Run("UsageExitsTwo", func(t *testing.T) {
		for _, args := range [][]string{
			{"frobnicate"},
			{"ballot", "cast", "Mayor 2026", "Kiss"},
			{"election", "create"},
			{"election", "set", "Mayor 2026", "--allow-edit=maybe"},
			{"election", "list", "--colour"},
			{"log", "--since", "ten"},
			{"user", "role", "carl", "KING"},
		} {
			c.refused(2, args...)
		}
	})
	t.Run("ErrWrongPassword", func(t *testing.T) {
		r := c.run([]string{"VOTEDESK_PASSWORD=wrong"}, "election", "list")
		if r.code != 1 || !strings.Contains(r.err, "wrong name or password") {
			t.Errorf("wrong password: exit %d, %s", r.code, r.err)
		}
	})
	t.Run("ErrNotSignedIn", func(t *testing.T) {
		saved := c.env
		c.env = nil
		defer func() { c.env = saved }()
		r := c.run(nil, "election", "list")
		if r.code != 1 || !strings.Contains(r.err, "--as USER") {
			t.Errorf("no sign-in: exit %d, %s", r.code, r.err)
		}
		r = c.run([]string{"VOTEDESK_PASSWORD=clerk-password"}, "--as", "carl", "election", "list")
		if r.code != 0 {
			t.Errorf("--as carl: exit %d, %s", r.code, r.err)
		}
	})
	c.ok("election", "close", "Mayor 2026")
	if r := c.run(nil, "ballot", "cast", "Mayor 2026", "--voter", "bob", "Kiss"); r.code != 1 || !strings.Contains(r.err, "polls") {
		t.Errorf("cast after the polls closed: exit %d, %s", r.code, r.err)
	}
	c.ok("election", "finalize", "Mayor 2026")
	if r := c.run(nil, "election", "delete", "Mayor 2026"); r.code != 1 || !strings.Contains(r.err, "records") {
		t.Errorf("delete a finalized election: exit %d, %s", r.code, r.err)
	}
	c.ok("election", "archive", "Mayor 2026")
	if out := c.ok("election", "list"); strings.Contains(out, "Mayor 2026") {
		t.Errorf("an archived election is listed:\n%s", out)
	}
	if out := c.ok("election", "list", "--archived"); !strings.Contains(out, "Mayor 2026") {
		t.Errorf("election list --archived:\n%s", out)
	}
}

func TestCLISecondOpenFailsFast(t *testing.T) {
	c := newCLI(t)
	st, err := localstore.Open(c.db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	begin := time.Now()
	r := c.run([]string{"VOTEDESK_PASSWORD=whatever1"}, "user", "add", "x", "--email", "x@example.org")
	if took := time.Since(begin); took > 3*time.Second {
		t.Errorf("second open took %v", took)
	}
	if r.code != 1 || !strings.Contains(r.err, "already open by another VoteDesk") {
		t.Errorf("second open: exit %d, %q", r.code, r.err)
	}
}

func decode(t *testing.T, s string, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(s), v); err != nil {
		t.Fatalf("decode %q: %v", s, err)
	}
}

// TestCLIHelp: `votedesk COMMAND --help`, `-h` and `votedesk help COMMAND`
// print that command's usage and flags, not the whole list; a group's help
// lists its commands; help needs no database; an unknown command's help is
// a usage error.
func TestCLIHelp(t *testing.T) {
	c := newCLI(t)
	for _, args := range [][]string{{"tally", "--help"}, {"help", "tally"}, {"tally", "-h"}, {"tally", "Mayor", "--help"}} {
		out := c.ok(args...)
		if !strings.Contains(out, "votedesk tally ELECTION [--method M]") || !strings.Contains(out, "--rctab VALUE") || strings.Contains(out, "ballot cast") {
			t.Errorf("%v:\n%s", args, out)
		}
	}
	out := c.ok("help", "election")
	for _, want := range []string{"votedesk election create NAME", "votedesk election close NAME", "votedesk election finalize"} {
		if !strings.Contains(out, want) {
			t.Errorf("help election lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "votedesk tally") {
		t.Errorf("help election lists other commands:\n%s", out)
	}
	if roles := c.ok("user", "role", "--help"); !strings.Contains(roles, "AUDITOR   what an ADMIN does, and sees secret ballots") {
		t.Errorf("user role --help does not say what the roles may do:\n%s", roles)
	}
	if all := c.ok("--help"); !strings.Contains(all, "votedesk tally") || !strings.Contains(all, "votedesk ballot cast") {
		t.Errorf("--help alone is not the whole list:\n%s", all)
	}
	if r := c.run(nil, "help", "nosuch"); r.code != 2 || !strings.Contains(r.err, `"nosuch"`) {
		t.Errorf("help nosuch: exit %d, %q", r.code, r.err)
	}
	if _, err := os.Stat(c.db); !os.IsNotExist(err) {
		t.Error("asking for help made a database")
	}
}
