package cli_test

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// awsEnv points the AWS SDK at nothing but DynamoDB Local: static test
// credentials, no instance metadata, no endpoint from the environment.
var awsEnv = []string{"AWS_ACCESS_KEY_ID=test", "AWS_SECRET_ACCESS_KEY=test", "AWS_REGION=us-east-1",
	"AWS_EC2_METADATA_DISABLED=true", "AWS_ENDPOINT_URL_DYNAMODB=", "AWS_PROFILE=", "AWS_CONFIG_FILE=/dev/null", "AWS_SHARED_CREDENTIALS_FILE=/dev/null"}

// setAWSEnv sets awsEnv in this process, for the tests that run the cloud
// sync in-process, until t ends.
func setAWSEnv(t *testing.T) {
	for _, kv := range awsEnv {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
}

func newSyncCLI(t *testing.T) *cliRun {
	c := newCLI(t)
	c.env = append([]string{}, awsEnv...)
	return c
}

// in returns the runner for use in subtest t.
func (c *cliRun) in(t *testing.T) *cliRun {
	cc := *c
	cc.t = t
	return &cc
}

func (c *cliRun) signedInSync(user, password string) {
	c.env = append(append([]string{}, awsEnv...), "VOTEDESK_USER="+user, "VOTEDESK_PASSWORD="+password)
}

func TestCLISync(t *testing.T) {
	prefix := fmt.Sprintf("cli%d_", time.Now().UnixNano())
	cloud := []string{"--endpoint", ddbEndpoint, "--table-prefix", prefix}
	a, b := newSyncCLI(t), newSyncCLI(t)

	if out := a.ok(append([]string{"cloud", "init"}, cloud...)...); !strings.Contains(out, "created") {
		t.Errorf("cloud init: %s", out)
	}
	if out := a.ok(append([]string{"cloud", "init"}, cloud...)...); !strings.Contains(out, "already exist") {
		t.Errorf("second cloud init: %s", out)
	}

	r := a.run([]string{"VOTEDESK_PASSWORD=owner-password"}, "user", "add", "olga", "--email", "olga@example.org")
	if r.code != 0 {
		t.Fatalf("user add: %s", r.err)
	}
	a.signedInSync("olga", "owner-password")
	a.ok("election", "create", "Mayor")
	a.ok("candidate", "add", "Mayor", "Kiss", "Wright")
	a.ok("voter", "add", "Mayor", "ann", "bob")
	a.ok("election", "launch", "Mayor")
	var res struct {
		Pulled, Pushed int
		Head           uint64 `json:"last_event_id"`
		Projection     uint64 `json:"projection_last_event_id"`
	}
	decode(t, a.ok(append([]string{"sync", "--json"}, cloud...)...), &res)
	if res.Pushed != 5 || res.Head != 5 || res.Projection != 5 {
		t.Errorf("first sync = %+v", res)
	}

	// A fresh device has no users yet: it syncs without signing in.
	if out := b.ok(append([]string{"sync"}, cloud...)...); !strings.Contains(out, "pulled 5") {
		t.Errorf("sync on a new device: %s", out)
	}
	b.signedInSync("olga", "owner-password")

	// The same voter on both devices, offline; later syncs remember the
	// endpoint and the table prefix.
	a.ok("ballot", "cast", "Mayor", "--voter", "ann", "Kiss")
	b.ok("ballot", "cast", "Mayor", "--voter", "ann", "Wright")
	b.ok("ballot", "cast", "Mayor", "--voter", "bob", "Wright")
	a.ok("sync")
	b.ok("sync")
	a.ok("sync")
	if ha, hb := a.ok("state-hash"), b.ok("state-hash"); ha != hb || len(strings.TrimSpace(ha)) != 64 {
		t.Errorf("state hashes differ after sync: %q vs %q", ha, hb)
	}

	var st struct {
		Pending       int    `json:"pending"`
		LastEventID   uint64 `json:"last_event_id"`
		LastSuccess   string `json:"last_success"`
		Prefix        string `json:"table_prefix"`
		OpenConflicts int    `json:"open_conflicts"`
		Conflicts     []struct {
			Election string
			Seq      uint64
			Kind     string
		}
		Rejected []any
	}
	decode(t, b.ok("sync", "status", "--json"), &st)
	if st.Pending != 0 || st.LastEventID != 8 || st.LastSuccess == "" || st.Prefix != prefix || st.OpenConflicts != 1 || st.Conflicts[0].Kind != "duplicate_ballot" {
		t.Errorf("sync status = %+v", st)
	}
	if out := b.ok("sync", "status"); !strings.Contains(out, "conflicts:      1 open") || !strings.Contains(out, "duplicate_ballot") {
		t.Errorf("sync status text:\n%s", out)
	}
	var list struct {
		Conflicts []struct {
			Seq      uint64
			Resolved bool
		}
	}
	decode(t, a.ok("conflicts", "--json"), &list)
	if len(list.Conflicts) != 1 || list.Conflicts[0].Resolved {
		t.Fatalf("conflicts = %+v", list)
	}
	if out := a.ok("conflicts", "resolve", "Mayor", fmt.Sprint(list.Conflicts[0].Seq), "--dismiss"); !strings.Contains(out, "(duplicate_ballot of ") {
		t.Errorf("the resolution does not say which conflict it decided: %q", out)
	}
	a.ok("sync")
	b.ok("sync")
	decode(t, b.ok("conflicts", "--json"), &list)
	if !list.Conflicts[0].Resolved {
		t.Errorf("resolution did not reach the other device: %+v", list)
	}
	if a.ok("state-hash") != b.ok("state-hash") {
		t.Error("state hashes differ after resolving")
	}

	t.Run("Watch", func(t *testing.T) {
		a := a.in(t)
		a.ok("election", "create", "Later")
		a.ok("candidate", "add", "Later", "Kiss", "Wright")
		a.ok("voter", "add", "Later", "cat", "dan", "eve")
		a.ok("election", "launch", "Later")
		cmd := exec.Command(binary, "--db", a.db, "sync", "--watch", "--interval", "200ms")
		cmd.Env = append(os.Environ(), append([]string{"HOME=" + t.TempDir()}, a.env...)...)
		var out strings.Builder
		cmd.Stdout = &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(1500 * time.Millisecond)
		// The watcher holds the database only during a cycle: officials
		// keep working on it, and what they do is pushed by the next cycle.
		var codes []string
		for _, v := range []string{"cat", "dan", "eve"} {
			codes = append(codes, strings.TrimSpace(a.ok("ballot", "cast", "Later", "--voter", v, "Kiss")))
			time.Sleep(300 * time.Millisecond)
		}
		deadline := time.Now().Add(20 * time.Second)
		for {
			var st struct {
				Pending int `json:"pending"`
			}
			decode(t, a.ok("sync", "status", "--json"), &st)
			if st.Pending == 0 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("the watcher left %d events pending", st.Pending)
			}
			time.Sleep(200 * time.Millisecond)
		}
		cmd.Process.Signal(syscall.SIGINT)
		if err := cmd.Wait(); err != nil {
			t.Errorf("sync --watch ended with %v", err)
		}
		if n := strings.Count(out.String(), "synced:"); n < 2 || !strings.Contains(out.String(), "pushed 1") {
			t.Errorf("sync --watch printed %d cycles:\n%s", n, out.String())
		}
		b := b.in(t)
		b.ok("sync")
		receipts := b.ok("ballot", "list", "Later")
		for _, code := range codes {
			if !strings.Contains(receipts, code) {
				t.Errorf("ballot %s cast during the watch is not on the other device:\n%s", code, receipts)
			}
		}
	})
	t.Run("ErrUnreachableEndpoint", func(t *testing.T) {
		c := newSyncCLI(t)
		r := c.run(nil, "sync", "--endpoint", "http://127.0.0.1:9", "--table-prefix", prefix)
		if r.code != 1 || !strings.Contains(r.err, "cannot reach DynamoDB at http://127.0.0.1:9") {
			t.Errorf("unreachable endpoint: exit %d, %q", r.code, r.err)
		}
		var st struct {
			LastError string `json:"last_error"`
		}
		decode(t, c.ok("sync", "status", "--json"), &st)
		if !strings.Contains(st.LastError, "cannot reach") {
			t.Errorf("status last_error = %q", st.LastError)
		}
	})
	t.Run("ErrNoTables", func(t *testing.T) {
		c := newSyncCLI(t)
		r := c.run(nil, "sync", "--endpoint", ddbEndpoint, "--table-prefix", "missing_")
		if r.code != 1 || !strings.Contains(r.err, "votedesk cloud init") {
			t.Errorf("missing tables: exit %d, %q", r.code, r.err)
		}
	})
	t.Run("ErrBadCredentials", func(t *testing.T) {
		c := newSyncCLI(t)
		r := c.run([]string{"AWS_ACCESS_KEY_ID=not a key!"}, "sync", "--endpoint", ddbEndpoint, "--table-prefix", prefix)
		if r.code != 1 || !strings.Contains(r.err, "rejected the AWS credentials") {
			t.Errorf("bad credentials: exit %d, %q", r.code, r.err)
		}
	})
	t.Run("UsageErrors", func(t *testing.T) {
		a := a.in(t)
		for _, args := range [][]string{
			{"sync", "--interval", "soon"},
			{"sync", "now"},
			{"conflicts", "resolve", "Mayor", "x", "--accept"},
			{"conflicts", "resolve", "Mayor", "1"},
		} {
			if r := a.run(nil, args...); r.code != 2 {
				t.Errorf("votedesk %v: exit %d, want 2 (%s)", args, r.code, r.err)
			}
		}
	})
}
