package cloudsync_test

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"net/http"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"votedesk/app"
	"votedesk/app/apptest"
	"votedesk/localstore"
	cloudsync "votedesk/sync"
	"votedesk/sync/ddblimit"
)

// loadtest lists the device counts TestLoad runs (make loadtest); without
// it TestLoad runs a small smoke version.
var loadtest = flag.String("loadtest", "", "comma-separated device counts for TestLoad, e.g. 10,50,200,500")

// loadburst, when set, makes each of TestLoad's runs a close of polls: every
// kiosk casts this many ballots offline, then all sync at once.
var loadburst = flag.Int("loadburst", 0, "ballots each kiosk casts offline before all sync at once (0: cast while syncing)")

// loadRun is one load test: n kiosks each casting a ballot every 1-3 s
// for castFor and syncing every interval, with up to drain more to confirm
// the rest.
type loadRun struct {
	n                        int
	castFor, interval, drain time.Duration
	// burst, when set, replaces casting while syncing: each kiosk casts
	// burst ballots offline, and latency counts from when all start
	// syncing (the polls closed).
	burst int
}

// kiosk is one simulated device of a load test: the cast times of its
// ballots not yet seen confirmed, and what it measured.
type kiosk struct {
	*device
	mu        sync.Mutex
	waiting   []time.Time
	cast      int
	latencies []time.Duration
	// inCloud holds, for ballots cast before the cycle that appended them
	// began, the time from cast to that append's commit (without the pull
	// that confirms it here).
	inCloud []time.Duration
	failed  int
	// appends and lost count this kiosk's committed appends and lost
	// races; appended is when its last append committed (Unix ns).
	appends, lost, appended atomic.Int64
}

// TestLoad runs kiosks against DynamoDB Local through DynamoDB's limits and
// reports throughput, cast-to-confirmed latency, retries per push and the
// slowest kiosk; at the end every ballot is in the cloud log once and
// every kiosk holds the same state.
func TestLoad(t *testing.T) {
	runs := []loadRun{{n: 5, castFor: 6 * time.Second, interval: 2 * time.Second, drain: 10 * time.Second}}
	if *loadtest != "" {
		runs = nil
		for _, n := range deviceCounts(t, "loadtest", *loadtest) {
			runs = append(runs, loadRun{n: n, castFor: 20 * time.Second, interval: 3 * time.Second, drain: 40 * time.Second, burst: *loadburst})
		}
	}
	for _, r := range runs {
		t.Run(fmt.Sprintf("N%d", r.n), func(t *testing.T) { r.run(t) })
	}
}

func (r loadRun) run(t *testing.T) {
	prefix := newPrefix(t)
	tr := ddblimit.New(nil, ddblimit.Config{Unlimited: true, NoConflicts: true, Seed: uint64(time.Now().UnixNano())})
	hc := &http.Client{Transport: tr}
	perKiosk := int(r.castFor/time.Second) + 1
	if r.burst > 0 {
		perKiosk, r.castFor = r.burst, 0
	}
	kiosks := r.deploy(t, prefix, hc, perKiosk)
	if r.burst > 0 {
		for i, k := range kiosks {
			for v := range r.burst {
				k.castOne(fmt.Sprintf("k%04dv%03d", i, v))
			}
		}
	}
	tr.Configure(func(c *ddblimit.Config) { *c = ddblimit.Config{TransactionLatency: 10 * time.Millisecond} })

	began := time.Now()
	for _, k := range kiosks {
		for i := range k.waiting {
			k.waiting[i] = began
		}
	}
	stopCasting := began.Add(r.castFor)
	deadline := stopCasting.Add(r.drain)
	var wg sync.WaitGroup
	p := pacing{castEvery: 2 * time.Second, interval: r.interval, stop: stopCasting, deadline: deadline, burst: r.burst > 0}
	for i, k := range kiosks {
		v := 0
		p.run(&wg, uint64(i), func() bool {
			if v >= perKiosk {
				return false
			}
			k.castOne(fmt.Sprintf("k%04dv%03d", i, v))
			v++
			return true
		}, k.syncOnce, k.done)
	}
	wg.Wait()
	elapsed := time.Since(began)
	stats := tr.Stats()
	r.report(t, kiosks, began, elapsed, stats)

	// Correctness does not depend on the limits: lift them and converge.
	tr.Configure(func(c *ddblimit.Config) { *c = ddblimit.Config{Unlimited: true, NoConflicts: true} })
	devs := make([]*device, len(kiosks))
	cast := 0
	for i, k := range kiosks {
		devs[i] = k.device
		cast += k.cast
	}
	syncRounds(t, rand.New(rand.NewPCG(1, 2)), devs)
	log := converged(t, connect(t, prefix, nil), devs...)
	checkBallotsOnce(t, log, cast)
}

// deploy prepares the election (Council, with perKiosk voters for each
// kiosk) on one laptop, syncs it, and copies its
// database to n kiosks, as officials do; each copy becomes a device of its
// own.
func (r loadRun) deploy(t *testing.T, prefix string, hc *http.Client, perKiosk int) []*kiosk {
	t.Helper()
	first := newDevice(t, "laptop", prefix, 0, hc)
	seed(first, 1)
	for i := 0; i < r.n; i += 50 {
		var entries []app.VoterEntry
		for j := i; j < min(i+50, r.n); j++ {
			for v := range perKiosk {
				entries = append(entries, app.VoterEntry{Name: fmt.Sprintf("k%04dv%03d", j, v)})
			}
		}
		first.must(first.svc.AddVoters(first.ctx, "olga", "Council", entries...))
	}
	first.must(first.svc.LaunchElection(first.ctx, "olga", "Council"))
	first.sync()
	first.store.Close()
	kiosks := make([]*kiosk, r.n)
	for i := range kiosks {
		name := fmt.Sprintf("kiosk%04d", i)
		path := filepath.Join(t.TempDir(), name+".db")
		copyFile(t, first.path, path)
		st, err := localstore.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		d := &device{t: t, name: name, path: path, store: st, ctx: context.Background()}
		d.svc = app.NewService(st, apptest.NewClock(start.Add(time.Duration(i)*time.Second), time.Millisecond), nil)
		// The SDK's and the syncer's own retry settings, as in production.
		d.syncer = cloudsync.New(st, cloudsync.Config{Endpoint: endpoint, TablePrefix: prefix, Region: "us-east-1",
			Credentials: cloudsync.StaticCredentials("test", "test"), HTTPClient: hc})
		// One kiosk writes the cloud projection, the others sync only the
		// log (sync --no-projection): with every kiosk writing it, a kiosk
		// taking over another's claim waits a call timeout (30 s), and
		// that, not the log, set the latency.
		d.syncer.NoProjection = i > 0
		k := &kiosk{device: d}
		d.syncer.Step = func(name string) {
			switch name {
			case "pushed":
				k.appends.Add(1)
				k.appended.Store(time.Now().UnixNano())
			case "lost":
				k.lost.Add(1)
			}
		}
		kiosks[i] = k
	}
	return kiosks
}

// castOne casts one ballot and remembers when.
func (k *kiosk) castOne(voter string) {
	k.mu.Lock()
	defer k.mu.Unlock()
	_, err := k.svc.CastBallot(k.ctx, "ann", app.Cast{Election: "Council", Voter: voter,
		Rankings: []app.Ranking{{Candidate: "X", Rank: 1}, {Candidate: "Y", Rank: 2}}})
	k.must(err)
	k.waiting = append(k.waiting, time.Now())
	k.cast++
}

// syncOnce runs one cycle and takes the ballots it confirmed off the
// waiting list: the outbox is confirmed in order, so they are the oldest.
func (k *kiosk) syncOnce() {
	k.mu.Lock()
	before := len(k.waiting)
	k.mu.Unlock()
	appendedBefore := k.appended.Load()
	_, err := k.syncer.Sync(k.ctx, nil)
	now := time.Now()
	k.mu.Lock()
	defer k.mu.Unlock()
	if err != nil {
		k.failed++
	}
	if at := k.appended.Load(); at != appendedBefore {
		for _, c := range k.waiting[:before] {
			k.inCloud = append(k.inCloud, time.Unix(0, at).Sub(c))
		}
	}
	evs, err := k.store.Pending(k.ctx, 0)
	k.must(err)
	pending := 0
	for _, ev := range evs {
		if ev.Type == app.EvBallotCast {
			pending++
		}
	}
	for _, at := range k.waiting[:len(k.waiting)-pending] {
		k.latencies = append(k.latencies, now.Sub(at))
	}
	k.waiting = k.waiting[len(k.waiting)-pending:]
}

func (k *kiosk) done() bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	return len(k.waiting) == 0
}

// report logs what a run measured as one row of the README's table.
func (r loadRun) report(t *testing.T, kiosks []*kiosk, began time.Time, elapsed time.Duration, s ddblimit.Stats) {
	var all, inCloud []time.Duration
	cast, failed := 0, 0
	var appends, lost, lastAppend int64
	var slowest *kiosk
	slowestMax := time.Duration(0)
	for _, k := range kiosks {
		k.mu.Lock()
		cast += k.cast
		failed += k.failed
		appends += k.appends.Load()
		lost += k.lost.Load()
		lastAppend = max(lastAppend, k.appended.Load())
		all = append(all, k.latencies...)
		inCloud = append(inCloud, k.inCloud...)
		for _, l := range k.latencies {
			if l > slowestMax {
				slowestMax, slowest = l, k
			}
		}
		if len(k.waiting) > 0 {
			slowestMax, slowest = time.Hour, k
		}
		k.mu.Unlock()
	}
	slices.Sort(all)
	slices.Sort(inCloud)
	pct := func(p float64) time.Duration { return percentile(all, p) }
	retries := 0.0
	if appends > 0 {
		retries = float64(lost) / float64(appends)
	}
	slow := "-"
	if slowest != nil {
		slow = fmt.Sprintf("%s: %d cycles failed, slowest ballot %s", slowest.name, slowest.failed, slowestMax.Round(10*time.Millisecond))
		if slowestMax == time.Hour {
			slow = fmt.Sprintf("%s: %d ballots never confirmed, %d cycles failed", slowest.name, len(slowest.waiting), slowest.failed)
		}
	}
	// Throughput is over the run; after a close of polls, over the time
	// until the last ballot was confirmed.
	span := elapsed
	if r.burst > 0 && len(all) > 0 {
		span = all[len(all)-1]
	}
	t.Logf("| %d | %d | %d | %.1f | %s | %s | %.2f | %d | %s |", r.n, cast, len(all), float64(len(all))/span.Seconds(),
		pct(0.5), pct(0.99), retries, failed, slow)
	t.Logf("%d kiosks, %s: %d appends, %d lost races, the last append %s after the start; cast to append p50 %s, p99 %s; %v", r.n, elapsed.Round(time.Second), appends, lost,
		time.Unix(0, lastAppend).Sub(began).Round(10*time.Millisecond), percentile(inCloud, 0.5), percentile(inCloud, 0.99), s)
}

// deviceCounts reads a flag's comma-separated device counts.
func deviceCounts(t *testing.T, name, value string) []int {
	t.Helper()
	var out []int
	for _, f := range strings.Split(value, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			t.Fatalf("-%s %q: %q is not a device count", name, value, f)
		}
		out = append(out, n)
	}
	return out
}

// percentile returns the p-th percentile of sorted durations, to 10 ms.
func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	return sorted[min(len(sorted)-1, int(p*float64(len(sorted))))].Round(10 * time.Millisecond)
}

// pacing is how a load test's simulated device acts: it casts a ballot
// every castEvery on average (half to one and a half of it) until stop,
// and syncs every interval on average until deadline, or once stop has
// passed and it holds nothing more to sync. After a close of polls (burst)
// every device syncs at once from the start.
type pacing struct {
	castEvery, interval time.Duration
	stop, deadline      time.Time
	burst               bool
}

// run starts one device's two goroutines on wg: one calls cast until it
// returns false or stop passes, the other calls cycle until done says
// nothing is left after stop, or deadline passes. Each draws its waits
// from its own random source, seeded by seed.
func (p pacing) run(wg *sync.WaitGroup, seed uint64, cast func() bool, cycle func(), done func() bool) {
	wg.Add(2)
	go func() {
		defer wg.Done()
		rng := rand.New(rand.NewPCG(seed, 99))
		for {
			time.Sleep(p.castEvery/2 + time.Duration(rng.Int64N(int64(p.castEvery))))
			if time.Now().After(p.stop) || !cast() {
				return
			}
		}
	}()
	go func() {
		defer wg.Done()
		rng := rand.New(rand.NewPCG(seed, 98))
		if !p.burst {
			time.Sleep(time.Duration(rng.Int64N(int64(p.interval))))
		}
		for time.Now().Before(p.deadline) {
			cycle()
			if time.Now().After(p.stop) && done() {
				return
			}
			time.Sleep(p.interval/2 + time.Duration(rng.Int64N(int64(p.interval))))
		}
	}()
}
