package cli_test

import (
	"bytes"
	"crypto/sha256"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"votedesk/app/apptest"
)

// TestCLIWritePathsNeverDestroyRecords names, as the file or folder every
// writing command writes, each thing that must never be replaced: the
// database by its path, a relative path, a path through "..", a symbolic
// link and a hard link; a backup of it; another installation's database; a
// folder; a link to an unrelated file; a socket. Each is refused with a
// message naming it, and the database (its bytes and its state hash), the
// backup and the unrelated file are exactly as before.
func TestCLIWritePathsNeverDestroyRecords(t *testing.T) {
	dir := t.TempDir()
	c := &cliRun{t: t, db: filepath.Join(dir, "votes.db"), dir: dir}
	if r := c.run([]string{"VOTEDESK_PASSWORD=olga-password"}, "user", "add", "olga", "--email", "olga@example.org"); r.code != 0 {
		t.Fatalf("first user: %s", r.err)
	}
	c.signedIn("olga", "olga-password")
	c.ok("election", "create", "Mayor")
	c.ok("candidate", "add", "Mayor", "Ann", "Bob")
	c.ok("voter", "add", "Mayor", "v1", "v2")
	c.ok("election", "launch", "Mayor")
	c.ok("ballot", "cast", "Mayor", "--voter", "v1", "Ann", "Bob")
	c.ok("ballot", "cast", "Mayor", "--voter", "v2", "Bob")
	c.ok("backup", "votes-backup.db")

	other := newCLI(t)
	other.run([]string{"VOTEDESK_PASSWORD=mallory-password"}, "user", "add", "mallory", "--email", "m@example.org")
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.Symlink(c.db, filepath.Join(dir, "link.db")))
	must(os.Link(c.db, filepath.Join(dir, "hard.db")))
	must(os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("keep me"), 0o600))
	must(os.Symlink(filepath.Join(dir, "notes.txt"), filepath.Join(dir, "notes-link.csv")))
	must(os.Mkdir(filepath.Join(dir, "folder"), 0o700))
	must(os.WriteFile(filepath.Join(dir, "folder", "keep.txt"), []byte("keep me too"), 0o600))
	sock, err := net.Listen("unix", filepath.Join(dir, "ctl.sock"))
	must(err)
	defer sock.Close()

	targets := []string{c.db, "votes.db", "./votes.db", "folder/../votes.db", "link.db", "hard.db",
		"votes-backup.db", other.db, "folder", "folder/", "notes-link.csv", "ctl.sock"}
	config := filepath.Join(apptest.SharedTestdata(), "rctab", "test_set_1_exhaust_at_overvote", "test_set_1_exhaust_at_overvote_config.json")
	commands := [][]string{
		{"export", "log", "--output"},
		{"export", "ballots", "Mayor", "--format", "csv", "--output"},
		{"export", "ballots", "Mayor", "--format", "cdf", "--output"},
		{"export", "results", "Mayor", "--format", "html", "--output"},
		{"export", "results", "Mayor", "--format", "csv", "--output"},
		{"tally", "--rctab", config, "--output"},
		{"backup"},
	}
	files := []string{c.db, filepath.Join(dir, "votes-backup.db"), other.db, filepath.Join(dir, "notes.txt"), filepath.Join(dir, "folder", "keep.txt")}
	sums := func() string {
		var b strings.Builder
		for _, f := range files {
			raw, err := os.ReadFile(f)
			must(err)
			sum := sha256.Sum256(raw)
			b.Write(sum[:])
		}
		return b.String()
	}
	state := c.ok("state-hash")
	before := sums()
	listing := func() string {
		entries, err := os.ReadDir(dir)
		must(err)
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		return strings.Join(names, " ")
	}
	inDir := listing()
	for _, cmd := range commands {
		for _, target := range targets {
			args := append(append([]string{}, cmd...), target)
			r := c.run(nil, args...)
			name := strings.TrimSuffix(strings.TrimPrefix(target, "./"), "/")
			if r.code == 0 || !strings.Contains(r.err, name) {
				t.Errorf("votedesk %s: exit %d, %q: want a refusal naming %s", strings.Join(args, " "), r.code, r.err, name)
			}
			if sums() != before {
				t.Fatalf("votedesk %s changed a file it must not", strings.Join(args, " "))
			}
			if got := listing(); got != inDir {
				t.Fatalf("votedesk %s left files behind: %s, was %s", strings.Join(args, " "), got, inDir)
			}
		}
	}
	if c.ok("state-hash") != state {
		t.Fatal("the state hash changed")
	}
	if fi, err := os.Lstat(filepath.Join(dir, "ctl.sock")); err != nil || fi.Mode()&os.ModeSocket == 0 {
		t.Error("the socket was replaced")
	}
	// The same commands write a new file (or folder) where nothing is.
	for i, cmd := range commands {
		out := filepath.Join(dir, "new", strings.Repeat("x", i+1))
		must(os.MkdirAll(filepath.Dir(out), 0o700))
		c.ok(append(append([]string{}, cmd...), out)...)
		if _, err := os.Stat(out); err != nil {
			t.Errorf("votedesk %s wrote nothing", strings.Join(cmd, " "))
		}
	}
	if raw, _ := os.ReadFile(filepath.Join(dir, "new", "x")); !bytes.Contains(raw, []byte("BallotCast")) {
		t.Error("the log export holds no ballots")
	}
}
