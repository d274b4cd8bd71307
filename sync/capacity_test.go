package cloudsync_test

import (
	"context"
	"flag"
	"fmt"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"votedesk/app"
	"votedesk/localstore"
	cloudsync "votedesk/sync"
	"votedesk/sync/ddblimit"
)

// capacity lists the device counts TestAppendCapacity runs (make
// loadtest); without it TestAppendCapacity runs a small smoke version.
var capacity = flag.String("capacity", "", "comma-separated device counts for TestAppendCapacity, e.g. 10,50,200,500")

// capacityRate is how many ballots a second each of TestAppendCapacity's
// devices takes.
var capacityRate = flag.Float64("capacityrate", 0.5, "ballots a second each device of TestAppendCapacity casts")

// capacityClaimFrom is the Config.ClaimFrom of TestAppendCapacity's
// devices (0: the default; -1: no claims, to compare).
var capacityClaimFrom = flag.Int("claimfrom", 0, "ClaimFrom of TestAppendCapacity's devices (-1: never claim)")

// capacityRun is one run of TestAppendCapacity: n devices, each casting
// rate ballots a second for castFor and syncing every interval (half to one
// and a half of it), with up to drain more to get the rest into the log.
type capacityRun struct {
	n                        int
	rate                     float64
	castFor, interval, drain time.Duration
	// burst, when set (-loadburst), replaces casting while syncing: each
	// device has burst ballots cast offline when all start syncing (the
	// polls closed).
	burst int
}

// writer is one simulated device of TestAppendCapacity: its ballots, which
// of them are cast and which are in the cloud log, the log as far as it
// has read it, and what it measured.
type writer struct {
	c      *cloudsync.Cloud
	events []*app.Event

	mu        sync.Mutex
	castAt    []time.Time // when each of the first len(castAt) events was cast
	appended  int         // the first appended events are in the cloud log
	latencies []time.Duration
	// roundTrips times the head reads: one small query each.
	roundTrips []time.Duration

	pulled          uint64 // the log read up to here, the hash there
	hash            string
	appends, lost   int
	failed, queries int
}

// TestAppendCapacity measures what one log partition carries when many
// devices sync with it at once, through DynamoDB's limits (sync/ddblimit),
// with the requests a sync cycle makes: the head, the pull's queries to the
// end of the log, and an append of what the device cast since its last
// cycle, at the place it pulled to and, after a lost race, at the head
// (Syncer.appendAtHead, with its backoff). The devices do not decode or
// apply what they read (export_test.go says why), so the figures are the
// shared log's, not this machine's: TestLoad measures whole devices, and
// is limited by the two cores every kiosk's work shares. At the end every
// ballot is in the log once and the chain holds.
func TestAppendCapacity(t *testing.T) {
	runs := []capacityRun{{n: 5, rate: 2, castFor: 3 * time.Second, interval: time.Second, drain: 10 * time.Second}}
	if *capacity != "" {
		runs = nil
		for _, n := range deviceCounts(t, "capacity", *capacity) {
			runs = append(runs, capacityRun{n: n, rate: *capacityRate, castFor: 20 * time.Second, interval: 3 * time.Second, drain: 40 * time.Second, burst: *loadburst})
		}
	}
	for _, r := range runs {
		name := fmt.Sprintf("N%d_rate%g", r.n, r.rate)
		if r.burst > 0 {
			name = fmt.Sprintf("N%d_burst%d", r.n, r.burst)
		}
		t.Run(name, func(t *testing.T) { r.run(t) })
	}
}

func (r capacityRun) run(t *testing.T) {
	ctx := context.Background()
	prefix := newPrefix(t)
	perDevice := int(r.rate*r.castFor.Seconds()*1.5) + 2
	if r.burst > 0 {
		perDevice, r.castFor = r.burst, 0
	}
	setup, ballots := capacityEvents(t, r.n*perDevice)

	tr := ddblimit.New(nil, ddblimit.Config{Unlimited: true, NoConflicts: true, Seed: uint64(time.Now().UnixNano())})
	hc := &http.Client{Transport: tr}
	first := connect(t, prefix, hc)
	if _, err := cloudsync.AppendAfter(ctx, first, setup, 0, ""); err != nil {
		t.Fatalf("append the election's set-up: %v", err)
	}
	writers := make([]*writer, r.n)
	for i := range writers {
		// The SDK's and the syncer's own retry settings, as in production.
		c, err := cloudsync.Connect(ctx, cloudsync.Config{Endpoint: endpoint, TablePrefix: prefix, Region: "us-east-1",
			Credentials: cloudsync.StaticCredentials("test", "test"), HTTPClient: hc})
		if err != nil {
			t.Fatal(err)
		}
		writers[i] = &writer{c: c, events: ballots[i*perDevice : (i+1)*perDevice]}
	}
	tr.Configure(func(c *ddblimit.Config) { *c = ddblimit.Config{TransactionLatency: 10 * time.Millisecond} })

	began := time.Now()
	if r.burst > 0 {
		for _, w := range writers {
			for range r.burst {
				w.castAt = append(w.castAt, began)
			}
		}
	}
	stopCasting := began.Add(r.castFor)
	deadline := stopCasting.Add(r.drain)
	var wg sync.WaitGroup
	p := pacing{castEvery: time.Millisecond, interval: r.interval, stop: stopCasting, deadline: deadline, burst: r.burst > 0}
	if r.burst == 0 {
		p.castEvery = time.Duration(float64(time.Second) / r.rate)
	}
	for i, w := range writers {
		p.run(&wg, uint64(i), w.cast, func() { w.cycle(ctx) }, w.done)
	}
	wg.Wait()
	r.report(t, writers, began, tr.Stats(), prefix)

	// Correctness does not depend on the limits: lift them, let every
	// device append what it still holds, and check that every ballot cast
	// is in the log once, and only those.
	tr.Configure(func(c *ddblimit.Config) { *c = ddblimit.Config{Unlimited: true, NoConflicts: true} })
	want := len(setup)
	for _, w := range writers {
		for tries := 0; !w.done(); tries++ {
			if tries == 3 {
				t.Fatalf("a device could not append its ballots without limits in %d tries", tries)
			}
			w.cycle(ctx)
		}
		want += len(w.castAt)
	}
	log := cloudLog(t, connect(t, prefix, nil))
	if len(log) != want {
		t.Errorf("the cloud log holds %d events, want %d (the set-up and every ballot cast, once)", len(log), want)
	}
}

// capacityEvents makes n signed ballot events after an election's set-up,
// as a template database's pending log (buildBallotTemplate).
func capacityEvents(t *testing.T, n int) (setup, ballots []*app.Event) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "template.db")
	if err := buildBallotTemplate(path, n+8); err != nil {
		t.Fatal(err)
	}
	st, err := localstore.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	evs, err := st.Pending(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	at := slices.IndexFunc(evs, func(ev *app.Event) bool { return ev.Type == app.EvBallotCast })
	if at < 0 || len(evs)-at < n {
		t.Fatalf("the template holds %d ballots after %d set-up events, want %d", len(evs)-max(at, 0), at, n)
	}
	return evs[:at], evs[at : at+n]
}

// cast casts the device's next ballot, if it has one left.
func (w *writer) cast() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.castAt) == len(w.events) {
		return false
	}
	w.castAt = append(w.castAt, time.Now())
	return true
}

// cycle makes a sync cycle's requests: the head, the pull to the end of
// the log, and the append of what was cast since the last append.
func (w *writer) cycle(ctx context.Context) {
	asked := time.Now()
	head, _, err := cloudsync.LogHead(ctx, w.c)
	w.mu.Lock()
	w.roundTrips = append(w.roundTrips, time.Since(asked))
	w.mu.Unlock()
	if err != nil {
		w.fail()
		return
	}
	last, hash, err := cloudsync.ReadLogRaw(ctx, w.c, w.pulled+1, head)
	w.queries++
	if err != nil {
		w.fail()
		return
	}
	if last > w.pulled {
		w.pulled, w.hash = last, hash
	}
	w.mu.Lock()
	from, to := w.appended, len(w.castAt)
	w.mu.Unlock()
	if from == to {
		return
	}
	lost, err := cloudsync.AppendAfterClaiming(ctx, w.c, w.events[from:to], w.pulled, w.hash, *capacityClaimFrom)
	w.lost += lost
	if err != nil {
		w.fail()
		return
	}
	w.appends++
	now := time.Now()
	w.mu.Lock()
	for _, at := range w.castAt[from:to] {
		w.latencies = append(w.latencies, now.Sub(at))
	}
	w.appended = to
	w.mu.Unlock()
}

func (w *writer) fail() {
	w.mu.Lock()
	w.failed++
	w.mu.Unlock()
}

// done reports whether every ballot the device cast is in the log.
func (w *writer) done() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.appended == len(w.castAt)
}

// report logs one row of the README's table and what the log's partition
// consumed.
func (r capacityRun) report(t *testing.T, writers []*writer, began time.Time, s ddblimit.Stats, prefix string) {
	var all, trips []time.Duration
	cast, appends, lost, failed, queries := 0, 0, 0, 0, 0
	for _, w := range writers {
		w.mu.Lock()
		trips = append(trips, w.roundTrips...)
		cast += len(w.castAt)
		all = append(all, w.latencies...)
		appends += w.appends
		lost += w.lost
		failed += w.failed
		queries += w.queries
		w.mu.Unlock()
	}
	slices.Sort(all)
	slices.Sort(trips)
	pct := func(p float64) time.Duration { return percentile(all, p) }
	retries := 0.0
	if appends > 0 {
		retries = float64(lost) / float64(appends)
	}
	// Throughput over the casting: ballots in the log by its end, a second;
	// after a close of polls, over the time until the last was in the log.
	span := r.castFor.Seconds()
	inTime := 0
	for _, w := range writers {
		w.mu.Lock()
		for i, l := range w.latencies {
			if w.castAt[i].Add(l).Before(began.Add(r.castFor)) {
				inTime++
			}
		}
		w.mu.Unlock()
	}
	if r.burst > 0 && len(all) > 0 {
		span, inTime = all[len(all)-1].Seconds(), len(all)
	}
	part := s.Partitions[cloudsync.TablesFor(prefix).Log+" LOG#global"]
	elapsed := time.Since(began).Seconds()
	offered, how := fmt.Sprintf("%.0f", float64(r.n)*r.rate), fmt.Sprintf("at %g ballots/s each", r.rate)
	if r.burst > 0 {
		offered, how = fmt.Sprintf("%d at once", r.n*r.burst), fmt.Sprintf("with %d ballots each cast offline", r.burst)
	}
	t.Logf("| %d | %s | %d | %d | %.0f | %s | %s | %.2f | %d | %.0f | %.0f | %d |", r.n, offered, cast, len(all),
		float64(inTime)/span, pct(0.5), pct(0.99), retries, failed, part.ReadUnits/elapsed, part.WriteUnits/elapsed, part.Throttled)
	// What the proposals' partitions took (claim.go): one partition per
	// large append, each read by every device.
	var props ddblimit.PartitionStats
	nprops, busiest := 0, 0.0
	for k, ps := range s.Partitions {
		if strings.Contains(k, " PROPOSAL#") {
			nprops++
			props.ReadUnits += ps.ReadUnits
			props.WriteUnits += ps.WriteUnits
			props.Throttled += ps.Throttled
			busiest = max(busiest, ps.ReadUnits)
		}
	}
	if nprops > 0 {
		t.Logf("%d proposals: %.0f read units, %.0f write units, %d throttled requests; the most read, %.0f read units",
			nprops, props.ReadUnits, props.WriteUnits, props.Throttled, busiest)
	}
	longest, trip := time.Duration(0), time.Duration(0)
	if len(all) > 0 {
		longest = all[len(all)-1]
	}
	if len(trips) > 0 {
		trip = trips[len(trips)/2]
	}
	t.Logf("%d devices %s: %d appends, %d lost races, %d pulls, %d requests (%d throttled, %d transaction conflicts); log partition: %.0f read units, %.0f write units, %d throttled requests, over %.0f s; the longest wait from cast to append %s, %.1f sync intervals; a head read took p50 %s",
		r.n, how, appends, lost, queries, s.Requests, s.Throttled, s.Conflicts, part.ReadUnits, part.WriteUnits, part.Throttled, elapsed,
		longest.Round(10*time.Millisecond), longest.Seconds()/r.interval.Seconds(), trip.Round(100*time.Microsecond))
}
