package cli_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"votedesk/app"
	"votedesk/app/apptest"
	"votedesk/localstore"
)

// pollingPlace sets up, through the CLI, a launched election "Poll" with
// candidates A, B, C and voters v00000..v{n-1}, run by the owner "olga".
func pollingPlace(t *testing.T, voters int) *cliRun {
	t.Helper()
	c := newCLI(t)
	if r := c.run([]string{"VOTEDESK_PASSWORD=owner-password"}, "user", "add", "olga", "--email", "olga@example.org"); r.code != 0 {
		t.Fatalf("user add: %s", r.err)
	}
	c.signedIn("olga", "owner-password")
	c.ok("election", "create", "Poll", "--secret")
	c.ok("candidate", "add", "Poll", "A", "B", "C")
	for start := 0; start < voters; start += 5000 {
		args := []string{"voter", "add", "Poll"}
		for i := start; i < min(start+5000, voters); i++ {
			args = append(args, voterName(i))
		}
		c.ok(args...)
	}
	c.ok("election", "launch", "Poll")
	return c
}

func voterName(i int) string { return fmt.Sprintf("v%05d", i) }

// caster is a running `votedesk ballot cast Poll --stdin`.
type caster struct {
	cmd       *exec.Cmd
	stdin     io.WriteCloser
	mu        sync.Mutex
	confirmed []string
	done      chan struct{}
}

// startCaster starts a caster that will cast for voters from next on.
func startCaster(t *testing.T, c *cliRun, next int) *caster {
	t.Helper()
	cmd := exec.Command(binary, "--db", c.db, "ballot", "cast", "Poll", "--stdin")
	cmd.Env = append(os.Environ(), append([]string{"VOTEDESK_DB="}, c.env...)...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	k := &caster{cmd: cmd, stdin: stdin, done: make(chan struct{})}
	go func() {
		defer close(k.done)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if code := strings.TrimSpace(sc.Text()); codeRE.MatchString(code) {
				k.mu.Lock()
				k.confirmed = append(k.confirmed, code)
				k.mu.Unlock()
			}
		}
	}()
	go func() {
		w := bufio.NewWriter(stdin)
		for i := next; ; i++ {
			if _, err := fmt.Fprintf(w, "%s,%s,%s\n", voterName(i), "ABC"[i%3:i%3+1], "ABC"[(i+1)%3:(i+1)%3+1]); err != nil {
				return
			}
			if err := w.Flush(); err != nil {
				return
			}
		}
	}()
	return k
}

func (k *caster) count() int {
	k.mu.Lock()
	defer k.mu.Unlock()
	return len(k.confirmed)
}

func (k *caster) codes() []string {
	k.mu.Lock()
	defer k.mu.Unlock()
	return append([]string(nil), k.confirmed...)
}

// storedCodes opens the database in this process, checks it verifies, and
// returns the confirmation codes of its ballots.
func storedCodes(t *testing.T, db string) map[string]bool {
	t.Helper()
	st, err := localstore.Open(db)
	if err != nil {
		t.Fatalf("database does not open clean: %v", err)
	}
	defer st.Close()
	ctx := context.Background()
	if r, err := st.Verify(ctx); err != nil || !r.OK() {
		t.Fatalf("database does not verify: %+v %v", r, err)
	}
	ballots, err := app.NewService(st, nil, nil).Ballots(ctx, "olga", "Poll")
	if err != nil {
		t.Fatal(err)
	}
	out := make(map[string]bool, len(ballots))
	for _, b := range ballots {
		out[b.Confirmation] = true
	}
	return out
}

func TestBackupDuringContinuousCasting(t *testing.T) {
	c := pollingPlace(t, 20000)
	k := startCaster(t, c, 0)
	deadline := time.Now().Add(60 * time.Second)
	for k.count() < 100 {
		if time.Now().After(deadline) {
			t.Fatal("the caster confirmed fewer than 100 ballots in a minute")
		}
		time.Sleep(10 * time.Millisecond)
	}
	acknowledged := k.codes()
	backup := filepath.Join(t.TempDir(), "backup.db")
	r := c.run(nil, "backup", backup, "--json")
	if r.code != 0 {
		t.Fatalf("backup while casting: exit %d: %s", r.code, r.err)
	}
	var info backupJSON
	decode(t, r.out, &info)
	if info.Via != "running VoteDesk" {
		t.Errorf("backup went %q, want through the running VoteDesk", info.Via)
	}
	k.stdin.Close()
	k.cmd.Process.Signal(syscall.SIGTERM)
	k.cmd.Wait()
	<-k.done

	restored := newCLI(t)
	restored.env = c.env
	if r := restored.run(nil, "restore", backup); r.code != 0 {
		t.Fatalf("restore: exit %d: %s", r.code, r.err)
	}
	stored := storedCodes(t, restored.db)
	for _, code := range acknowledged {
		if !stored[code] {
			t.Errorf("ballot %s was acknowledged before the backup began but is not in the restored database", code)
		}
	}
	t.Logf("%d ballots acknowledged before the backup; the backup holds %d; %d cast in all", len(acknowledged), len(stored), k.count())
}

type backupJSON struct {
	Path   string `json:"path"`
	Events uint64 `json:"events"`
	Via    string `json:"via"`
}

// TestKillDuringCasting kills a casting process with SIGKILL at random
// moments, 200 times: every ballot whose confirmation code was printed must be
// in the database afterwards, and the database must open clean and verify.
// Every 25 kills it starts again from a fresh copy of the polling place, so
// the database stays small and verifying it stays quick.
func TestKillDuringCasting(t *testing.T) {
	if testing.Short() {
		t.Skip("200 kills take about a minute")
	}
	const kills, block, voters = 200, 25, 12000
	template := pollingPlace(t, voters)
	rng := rand.New(rand.NewPCG(7, 11))
	var c *cliRun
	next, printed := 0, 0
	for i := range kills {
		if i%block == 0 {
			c = newCLI(t)
			c.env = template.env
			apptest.CopyFile(t, template.db, c.db)
			next = 0
		}
		k := startCaster(t, c, next)
		time.Sleep(time.Duration(rng.IntN(400)) * time.Millisecond)
		k.cmd.Process.Kill()
		k.cmd.Wait()
		<-k.done
		codes := k.codes()
		printed += len(codes)
		stored := storedCodes(t, c.db)
		for _, code := range codes {
			if !stored[code] {
				t.Fatalf("kill %d: ballot %s was confirmed but is missing", i+1, code)
			}
		}
		next += len(codes) + 2 // fresh voters: a killed run may have stored one ballot it did not print
		if next+500 > voters {
			t.Fatalf("kill %d: ran out of voters", i+1)
		}
	}
	t.Logf("%d kills, %d confirmed ballots, all present", kills, printed)
}
