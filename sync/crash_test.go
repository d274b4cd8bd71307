package cloudsync_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"testing"
	"time"

	"votedesk/app"
	"votedesk/app/apptest"
	"votedesk/localstore"
	cloudsync "votedesk/sync"
)

// A crash is simulated in a child process: the test binary itself, started
// with crashEnv naming a step; it syncs the database given in the
// environment and exits with crashExit the moment the step is done, as if
// the machine lost power there.
const (
	crashEnv  = "VOTEDESK_TEST_CRASH_AT"
	crashExit = 42
)

func crashHelper(step string) int {
	path, ep, prefix := os.Getenv("VOTEDESK_TEST_DB"), os.Getenv("VOTEDESK_TEST_ENDPOINT"), os.Getenv("VOTEDESK_TEST_PREFIX")
	nth, _ := strconv.Atoi(os.Getenv("VOTEDESK_TEST_CRASH_NTH"))
	st, err := localstore.Open(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	endpoint = ep
	s := cloudsync.New(st, cloudConfig(prefix, nil))
	seen := 0
	s.Step = func(name string) {
		if name == step {
			if seen++; seen >= nth {
				os.Exit(crashExit)
			}
		}
	}
	if _, err := s.Sync(context.Background(), nil); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	st.Close()
	return 0
}

// crashSync runs a sync of the database at path in a child process that
// exits at the nth time step is reached. It reports whether it crashed there.
func crashSync(t *testing.T, path, prefix, step string, nth int) bool {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), crashEnv+"="+step, "VOTEDESK_TEST_DB="+path, "VOTEDESK_TEST_ENDPOINT="+endpoint,
		"VOTEDESK_TEST_PREFIX="+prefix, "VOTEDESK_TEST_CRASH_NTH="+strconv.Itoa(nth))
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == crashExit {
		return true
	}
	if err != nil {
		t.Fatalf("sync child (crash at %s): %v\n%s", step, err, out)
	}
	return false
}

// reopen closes a device's database and opens it again (as after a crash,
// or to let a child process have it).
func (d *device) close() {
	d.t.Helper()
	d.must(d.store.Close())
}

func (d *device) reopen(prefix string) {
	d.t.Helper()
	st, err := localstore.Open(d.path)
	d.must(err)
	d.t.Cleanup(func() { st.Close() })
	d.store = st
	d.svc = app.NewService(st, apptest.NewClock(start.Add(2*time.Hour), time.Millisecond), nil)
	d.syncer = newTestSyncer(st, prefix, nil)
}

// TestCrashBetweenSteps stops a syncing process right after each step of a
// cycle (and, for steps that repeat, in the middle of the repeats), then
// heals by syncing again: nothing is lost, nothing doubled, all converge.
func TestCrashBetweenSteps(t *testing.T) {
	for _, tc := range []struct {
		step   string
		nth    int
		global bool // B changes only what the global shard holds
		claim  bool // B casts a run of ballots that is claimed (claim.go)
	}{
		{"proposed", 1, false, true},            // B's run written as a proposal, not yet claimed
		{"appended", 1, false, true},            // B's claim in Mayor's shard committed, no cut yet
		{"page", 1, false, false},               // a page of the pull applied and checkpointed, the rest not
		{"appended", 1, false, false},           // B's ballots in Mayor's shard, no cut orders them yet
		{"pushed", 1, false, false},             // the cut committed, not yet pulled
		{"pushed", 1, true, false},              // the cloud append committed, the outbox not yet marked
		{"confirmed", 1, true, false},           // the outbox marked, the projection not yet written
		{"projection-claimed", 1, false, false}, // the projection claimed, nothing written
		{"projection-chunk", 1, false, false},   // part of the projection written
		{"projection-done", 1, false, false},    // projection written, dirty marks not pruned, status not saved
	} {
		name := tc.step
		if tc.global {
			name += "-global"
		}
		if tc.claim {
			name += "-claim"
		}
		t.Run(name, func(t *testing.T) {
			prefix := newPrefix(t)
			a := newDevice(t, "A", prefix, 0, nil)
			b := newDevice(t, "B", prefix, time.Minute, nil)
			seed(a, 400)
			a.sync()
			b.sync()
			// Both make changes offline, with an overlap; A syncs first, so
			// B's cycle pulls, rebases, pushes and writes the projection.
			castMayor(a, "ann", 1, 150)
			switch {
			case tc.claim:
				castMayor(b, "ben", 101, 160) // one segment to Mayor's shard
			case !tc.global:
				castMayor(b, "ben", 101, 400)
			}
			editCouncil(b, "olga", 3)
			a.sync()
			before, _ := b.store.Pending(b.ctx, 0)
			b.close()
			if !crashSync(t, b.path, prefix, tc.step, tc.nth) {
				t.Fatalf("the sync never reached step %s", tc.step)
			}
			b.reopen(prefix)
			b.sync()
			a.sync()
			b.sync()
			cloud := connect(t, prefix, nil)
			log := converged(t, cloud, a, b)
			ids := map[string]int{}
			for _, ev := range log {
				ids[ev.ID]++
			}
			for _, ev := range before {
				if ids[ev.ID] != 1 {
					t.Errorf("B's event %s is in the cloud log %d times, want once", ev.ID, ids[ev.ID])
				}
			}
		})
	}
}
