package cloudsync_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"votedesk/app"
)

// raceTransport lets a test act at a chosen append of a device: before the
// device's nth log append (PutItem or TransactWriteItems) reaches
// DynamoDB, before(n) runs; after it committed, lose(n) says whether its
// answer is lost on the way back.
type raceTransport struct {
	base   http.RoundTripper
	mu     sync.Mutex
	n      int
	before func(n int)
	lose   func(n int) bool
	// reads counts GetItem requests: after a lost race, the device reads
	// the contested place only when DynamoDB did not say what holds it.
	reads int
}

func (rt *raceTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	op := req.Header.Get("X-Amz-Target")
	if strings.HasSuffix(op, ".GetItem") {
		rt.mu.Lock()
		rt.reads++
		rt.mu.Unlock()
	}
	if !strings.HasSuffix(op, ".PutItem") && !strings.HasSuffix(op, ".TransactWriteItems") || isProposal(req) {
		return rt.base.RoundTrip(req)
	}
	rt.mu.Lock()
	rt.n++
	n := rt.n
	rt.mu.Unlock()
	if rt.before != nil {
		rt.before(n)
	}
	resp, err := rt.base.RoundTrip(req)
	if err == nil && rt.lose != nil && rt.lose(n) {
		resp.Body.Close()
		return nil, errLost
	}
	return resp, err
}

// isProposal reports whether req writes a proposal (claim.go) rather than
// appending to the log.
func isProposal(req *http.Request) bool {
	if req.Body == nil {
		return false
	}
	b, err := io.ReadAll(req.Body)
	req.Body.Close()
	req.Body = io.NopCloser(bytes.NewReader(b))
	return err == nil && bytes.Contains(b, []byte(`"PROPOSAL#`)) && !bytes.Contains(b, []byte(`"proposal_pk"`))
}

var errLost = &lostAnswer{}

type lostAnswer struct{}

func (*lostAnswer) Error() string {
	return "read tcp: connection reset by peer (injected after the write committed)"
}

// raceSetup makes two synced devices, A through a raceTransport, each with
// ballots pending, and ballots of both for voter v0050, whom only one of
// them may record.
func raceSetup(t *testing.T) (a, b *device, rt *raceTransport, prefix string) {
	prefix = newPrefix(t)
	rt = &raceTransport{base: http.DefaultTransport.(*http.Transport).Clone()}
	a = newDevice(t, "A", prefix, 0, &http.Client{Transport: rt})
	b = newDevice(t, "B", prefix, time.Minute, nil)
	seed(b, 300)
	b.sync()
	a.sync()
	castMayor(a, "ann", 1, 50)
	castMayor(b, "ben", 50, 120)
	editCouncil(a, "olga", 2)
	return a, b, rt, prefix
}

// steps records the steps of a device's cycles.
func steps(d *device) *[]string {
	var mu sync.Mutex
	var out []string
	d.syncer.Step = func(name string) {
		mu.Lock()
		out = append(out, name)
		mu.Unlock()
	}
	return &out
}

// TestLostRaceAppendsAtTheHead: a device whose append loses the race to
// another device's goes straight after the new head of the cloud log,
// without pulling and applying the winner's events first; the next pull
// confirms its events; every event is in the log once, the rules decide
// the double ballot the same way everywhere, and the devices converge.
func TestLostRaceAppendsAtTheHead(t *testing.T) {
	a, b, rt, prefix := raceSetup(t)
	rt.before = func(n int) {
		if n == 1 {
			b.sync() // B appends first, at the place A is about to take
		}
	}
	seen := steps(a)
	a.syncer.NoProjection = true // the projection's writers read their claim with GetItem
	rt.reads = 0
	pendingA, _ := a.store.Pending(a.ctx, 0)
	res := a.sync()
	// A's ballots go to Mayor's shard, where B's went first; its cut and
	// its council edit then go to the global shard, where B's cut went
	// first. Neither lost race is followed by a pull. (A's 50 ballots are
	// a claim's: proposed first.)
	if got := strings.Join(*seen, " "); !regexp.MustCompile(`^(proposed )?lost (lost )*appended (proposed )?(lost )*pushed page`).MatchString(got) {
		t.Errorf("A's steps: %s; want lost races, then appends at the head with no pull in between (lost ... appended ... pushed page ...)", got)
	}
	if _, _, pending := a.head(); pending != 0 {
		t.Errorf("A has %d events pending after the cycle; the cycle's last pull should have confirmed them", pending)
	}
	if res.Pushed != len(pendingA) {
		t.Errorf("A pushed %d events, want %d", res.Pushed, len(pendingA))
	}
	if rt.reads != 0 {
		t.Errorf("A read the contested place %d times; the refusal of its append says what holds it", rt.reads)
	}
	b.sync()
	log := converged(t, connect(t, prefix, nil), a, b)
	everyEventOnce(t, log, pendingA)
	checkBallotsOnce(t, log, 121) // v0001-v0120, v0050 twice
	// The first ballot for v0050 in the log is B's (whose clock runs a
	// minute ahead); A's is the double.
	ballots, err := a.svc.Ballots(a.ctx, "olga", "Mayor")
	a.must(err)
	for _, bl := range ballots {
		if bl.Voter == "v0050" && bl.WhenCast.Before(start.Add(time.Minute)) {
			t.Errorf("v0050's ballot is A's (cast %s); B's came first in the log", bl.WhenCast)
		}
	}
}

// TestAppendAtHeadLostAnswers: appends whose answers are lost after they
// committed, with and without lost races before them, still put every
// event in the log exactly once: the SDK's retry finds the place taken by
// the device's own write, and the device reads the place before it tries
// anywhere else.
func TestAppendAtHeadLostAnswers(t *testing.T) {
	for _, tc := range []struct {
		name  string
		races int // lost races before the append that commits
		lose  int // the append whose answer is lost
	}{
		{"FirstAppend", 0, 1},
		{"AfterOneLostRace", 1, 2},
		{"AfterTwoLostRaces", 2, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, b, rt, prefix := raceSetup(t)
			var more []*app.Event
			rt.before = func(n int) {
				if n <= tc.races { // B appends first, each time with more ballots
					castMayor(b, "ben", 120+n, 120+n)
					evs, _ := b.store.Pending(b.ctx, 0)
					more = append(more, evs...)
					b.sync()
				}
			}
			rt.lose = func(n int) bool { return n == tc.lose }
			seen := steps(a)
			pendingA, _ := a.store.Pending(a.ctx, 0)
			a.sync()
			// Each of B's syncs (one ballot: the global shard) may take the
			// place A was about to take there, for its cut; A's lost answer
			// is one more.
			if lost := strings.Count(strings.Join(*seen, " "), "lost"); lost < 1 || lost > tc.races+1 {
				t.Errorf("A's steps %v: want 1 to %d lost races (one of them its own lost answer)", *seen, tc.races+1)
			}
			// A's ballots are one claimed run, proposed once however
			// many races it takes.
			if n := strings.Count(strings.Join(*seen, " "), "proposed"); n != 1 {
				t.Errorf("A's steps %v: its run proposed %d times, want once", *seen, n)
			}
			b.sync()
			a.sync()
			log := converged(t, connect(t, prefix, nil), a, b)
			everyEventOnce(t, log, pendingA)
			everyEventOnce(t, log, more)
			checkBallotsOnce(t, log, 121+tc.races)
		})
	}
}

// TestCrashAfterAppendAtHead: a device that stops right after its append at
// the head committed (before any pull) finds its events on its next cycle
// and confirms them, without appending them again.
func TestCrashAfterAppendAtHead(t *testing.T) {
	a, b, rt, prefix := raceSetup(t)
	rt.before = func(n int) {
		if n == 1 {
			b.sync()
		}
	}
	pendingA, _ := a.store.Pending(a.ctx, 0)
	ctx, stop := context.WithCancel(a.ctx)
	a.syncer.Step = func(name string) {
		if name == "pushed" {
			stop() // nothing more of this cycle reaches the database or the cloud
		}
	}
	if _, err := a.syncer.Sync(ctx, nil); err == nil {
		t.Fatal("the stopped cycle reported success")
	}
	if _, _, pending := a.head(); pending != len(pendingA) {
		t.Fatalf("after the stop A has %d events pending, want %d", pending, len(pendingA))
	}
	a.syncer.Step = nil
	rt.before = nil
	res := a.sync()
	if res.Pushed != 0 {
		t.Errorf("A pushed %d events again after the stop", res.Pushed)
	}
	b.sync()
	log := converged(t, connect(t, prefix, nil), a, b)
	everyEventOnce(t, log, pendingA)
}

// everyEventOnce checks that each of evs is in the log exactly once, with
// its content.
func everyEventOnce(t *testing.T, log, evs []*app.Event) {
	t.Helper()
	byID := map[string][]string{}
	for _, ev := range log {
		byID[ev.ID] = append(byID[ev.ID], ev.ContentHash())
	}
	for _, ev := range evs {
		if got := byID[ev.ID]; !slices.Equal(got, []string{ev.ContentHash()}) {
			t.Errorf("event %s (%s) is in the cloud log %d times", ev.ID, ev.Type, len(got))
		}
	}
}

// TestCopyAppendsFirst: a database copied to a kiosk (as officials do)
// holds the same pending events in both copies. When the copy appends them
// first, at the very place the original is about to take, the original's
// refused append finds a run that starts with its own first event but is
// not its attempt (it holds one more event): it pulls, which confirms the
// copy's run, and pushes only the rest. Appending at the head, as after
// any other lost race, would put the copied events in the log twice.
func TestCopyAppendsFirst(t *testing.T) {
	for _, tc := range []struct {
		name  string
		other bool // another device appends at the contested place first
	}{{"AtTheContestedPlace", false}, {"AfterAnotherDevicesAppend", true}} {
		t.Run(tc.name, func(t *testing.T) { copyAppendsFirst(t, tc.other) })
	}
}

// copyAppendsFirst plays TestCopyAppendsFirst; with other, a third device
// appends at the place the laptop is about to take, and the copy right
// after it, so the laptop's refusal names the third device's append and
// the copy's is found among those after it (globalHead).
func copyAppendsFirst(t *testing.T, other bool) {
	prefix := newPrefix(t)
	a := newDevice(t, "laptop", prefix, 0, nil)
	seed(a, 100)
	a.sync()
	third := newDevice(t, "third", prefix, time.Minute, nil)
	third.sync()
	castMayor(a, "ann", 1, 5) // pending on both after the copy
	a.close()
	kioskPath := filepath.Join(t.TempDir(), "kiosk.db")
	copyFile(t, a.path, kioskPath)
	a.reopen(prefix)
	kiosk := openDevice(t, "kiosk", kioskPath, prefix)
	shared, _ := a.store.Pending(a.ctx, 0)
	castMayor(a, "ann", 6, 6) // one more on the laptop alone

	rt := &raceTransport{base: http.DefaultTransport.(*http.Transport).Clone()}
	rt.before = func(n int) {
		if n == 1 {
			if other {
				castMayor(third, "ben", 50, 50)
				third.sync()
			}
			kiosk.sync() // the copy appends the shared events first
		}
	}
	a.syncer = newTestSyncer(a.store, prefix, &http.Client{Transport: rt})
	seen := steps(a)
	a.sync()
	if !strings.Contains(strings.Join(*seen, " "), "lost") {
		t.Fatalf("the laptop's steps %v: its append did not meet the copy's", *seen)
	}
	kiosk.sync()
	third.sync()
	a.sync()
	log := converged(t, connect(t, prefix, nil), a, kiosk, third)
	everyEventOnce(t, log, shared)
	want := 6
	if other {
		want++
	}
	checkBallotsOnce(t, log, want)
}

// TestPreparedOfflineCopiesSyncAtOnce: an election prepared on a laptop that
// never synced, copied to ten kiosks as officials do, each kiosk and the
// laptop taking ballots, and then all eleven syncing at the same moment,
// twice over: the prepared events, which every copy holds pending under
// the laptop's ids, reach the log once, every ballot once, and all agree.
func TestPreparedOfflineCopiesSyncAtOnce(t *testing.T) {
	prefix := newPrefix(t)
	laptop := newDevice(t, "laptop", prefix, 0, nil)
	seed(laptop, 200)
	castMayor(laptop, "ann", 1, 3) // cast on the laptop before copying: pending everywhere
	prepared, _ := laptop.store.Pending(laptop.ctx, 0)
	laptop.close()
	devs := []*device{}
	for i := range 10 {
		path := filepath.Join(t.TempDir(), fmt.Sprintf("kiosk%d.db", i))
		copyFile(t, laptop.path, path)
		devs = append(devs, openDevice(t, fmt.Sprintf("kiosk%d", i), path, prefix))
	}
	laptop.reopen(prefix)
	devs = append(devs, laptop)
	for i, d := range devs {
		castMayor(d, "ann", 10+i*10, 10+i*10+1) // two ballots each, different voters
	}
	for round := range 2 {
		var wg sync.WaitGroup
		for _, d := range devs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				// Lost races may end a cycle (the next one goes on);
				// nothing here may fail otherwise.
				if _, err := d.syncer.Sync(d.ctx, nil); err != nil && !strings.Contains(app.ErrorMessage(err), "appending to the cloud log first") {
					t.Errorf("round %d, %s: %v", round, d.name, err)
				}
			}()
		}
		wg.Wait()
	}
	for range 2 {
		for _, d := range devs {
			d.sync()
		}
	}
	log := converged(t, connect(t, prefix, nil), devs...)
	everyEventOnce(t, log, prepared)
	checkBallotsOnce(t, log, 3+2*len(devs))
}
