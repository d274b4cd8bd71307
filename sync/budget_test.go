package cloudsync_test

import (
	"flag"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"votedesk/app"
	cloudsync "votedesk/sync"
	"votedesk/sync/ddblimit"
)

// projectionBallots is how many imported ballots TestProjectionBudget
// projects (make loadtest measures more).
var projectionBallots = flag.Int("projection-ballots", 3000, "ballots TestProjectionBudget imports and projects under DynamoDB's partition budget")

// smallRunWriteUnits is the partition budget of a run of fewer than
// measuredFrom ballots (make test's), and smallRunImport how many ballots
// each of its imports holds: an import's ballots are stored, and
// projected, in chunks of up to 256 KB (app/ballot_chunk.go), so 3,000
// ballots imported at once are one item of some 70 write units, one
// request that no budget throttles. Imported 100 at a time they are 30
// items, two requests, and at 30 units a second the second is throttled,
// which the test must see to test the retries. A run of measuredFrom or
// more (make loadtest's) imports 50,000 at a time and measures under the
// real budget.
const (
	smallRunWriteUnits = 30
	smallRunImport     = 100
	measuredFrom       = 20_000
)

// TestProjectionBudget imports ballots into one election and syncs them
// through DynamoDB's per-partition limits: first the log alone, then the
// cloud projection, whose ballot items all share the election's partition
// (ELECTION#{name}, the seed's layout) and so its 1,000 write units a
// second. The projection is throttled and still completes, equal to the
// device's state; the test reports the rate and what it means for a
// million ballots.
func TestProjectionBudget(t *testing.T) {
	n := *projectionBallots
	prefix := newPrefix(t)
	tr := ddblimit.New(nil, ddblimit.Config{Unlimited: true, NoConflicts: true})
	d := newDevice(t, "laptop", prefix, 0, &http.Client{Transport: tr})
	seed(d, 1)
	d.sync()
	names := []string{"X", "Y", "Z"}
	per := 50_000
	if n < measuredFrom {
		per = smallRunImport
	}
	for start := 0; start < n; start += per {
		ballots := make([]app.ImportedBallot, min(per, n-start))
		for i := range ballots {
			k := start + i
			ballots[i] = app.ImportedBallot{SourceID: fmt.Sprint(k + 1), Rankings: []app.Ranking{
				{Candidate: names[k%3], Rank: 1}, {Candidate: names[(k+1)%3], Rank: 2}}}
		}
		if _, err := d.svc.ImportBallots(d.ctx, "olga", "Council", "cvr", ballots, nil); err != nil {
			t.Fatal(err)
		}
	}
	budget := float64(ddblimit.PartitionWriteUnits)
	if n < measuredFrom {
		budget = smallRunWriteUnits
	}
	tr.Configure(func(c *ddblimit.Config) { *c = ddblimit.Config{NoConflicts: true, WriteUnits: budget} })

	d.syncer.NoProjection = true
	began := time.Now()
	d.sync()
	logTook := time.Since(began)
	d.syncer.NoProjection = false
	before := tr.Stats()
	began = time.Now()
	res := d.sync()
	took := time.Since(began)
	s := tr.Stats()

	part := cloudsync.TablesFor(prefix).Data + " ELECTION#Council"
	units := s.Partitions[part].WriteUnits - before.Partitions[part].WriteUnits
	throttled := s.Partitions[part].Throttled - before.Partitions[part].Throttled + s.Unprocessed - before.Unprocessed
	rate := float64(n) / took.Seconds()
	perBallot := units / float64(n)
	t.Logf("%d ballots: log pushed in %s; projection in %s, %.0f ballots/s, %.0f WCU (%.3f a ballot), %.0f WCU/s on ELECTION#Council (%d throttled or unprocessed; budget %.0f WCU/s); a million such ballots at 1,000 WCU/s: about %s",
		n, logTook.Round(10*time.Millisecond), took.Round(10*time.Millisecond), rate, units, perBallot, units/took.Seconds(), throttled, budget,
		(time.Duration(float64(time.Second) * 1e6 * perBallot / ddblimit.PartitionWriteUnits)).Round(time.Second))
	if res.Projection != res.LastEventID {
		t.Errorf("projection at %d, log at %d", res.Projection, res.LastEventID)
	}
	if got, want := cloudStateHash(t, connect(t, prefix, nil)), d.stateHash(); got != want {
		t.Errorf("cloud projection %s, device %s", got, want)
	}
	if throttled == 0 {
		t.Errorf("the election's partition was never over its budget: %v", s)
	}
	// The budget plus a burst at most, whatever the writer tried, and the
	// one request admitted at the last of it, which is charged in full as
	// DynamoDB charges it (a batch of 25 items, at most the largest's
	// units each).
	if max := budget*(took.Seconds()+ddblimit.DefaultBurst.Seconds()) + 25*largestItemUnits(t, d, "Council"); units > max {
		t.Errorf("%.0f write units in %s on one partition, over its budget (%.0f)", units, took, max)
	}
}

// largestItemUnits is about the write units of the largest item of an
// election's partition: a kilobyte of its stored bytes a unit, and one
// for its keys and names.
func largestItemUnits(t *testing.T, d *device, election string) float64 {
	t.Helper()
	largest := 0
	err := d.store.View(d.ctx, func(tx app.Tx) error {
		return tx.Query("ELECTION#"+election, "", func(it app.Item) (bool, error) {
			size := 0
			for _, a := range it {
				size += len(a.Name) + len(a.Value.S)
			}
			largest = max(largest, size)
			return true, nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	return float64(largest/1024 + 2)
}

// TestThrottledAppendSentAgain: an import's events go to the cloud log in
// transactions of up to 25 segments, thousands of write units each. When
// the log's partition is over its budget, DynamoDB cancels such a
// transaction (ThrottlingError), which the SDK does not send again; the
// sync must wait and send it again, not fail: a million imported ballots
// were refused this way on their first push under the service's limits.
func TestThrottledAppendSentAgain(t *testing.T) {
	prefix := newPrefix(t)
	tr := ddblimit.New(nil, ddblimit.Config{Unlimited: true, NoConflicts: true})
	d := newDevice(t, "laptop", prefix, 0, &http.Client{Transport: tr})
	// The product's retries of a throttled request (the tests' are quick):
	// a partition paying for a big transaction stays throttled for
	// seconds.
	cfg := cloudConfig(prefix, &http.Client{Transport: tr})
	cfg.RetryBase, cfg.RetryMax, cfg.MaxAttempts = 0, 0, 0
	d.syncer = cloudsync.New(d.store, cfg)
	seed(d, 1)
	d.sync()
	// 51 events of 5,000 ballots, a segment each: two transactions of 25
	// segments (their most), the second sent while the partition pays for
	// the first, and a last segment.
	ballots := make([]app.ImportedBallot, 51*app.ImportBatch)
	for i := range ballots {
		ballots[i] = app.ImportedBallot{SourceID: fmt.Sprintf("record-%08d-of-the-county", i), Rankings: []app.Ranking{
			{Candidate: []string{"X", "Y", "Z"}[i%3], Rank: 1}, {Candidate: []string{"X", "Y", "Z"}[(i+1)%3], Rank: 2}}}
	}
	_, err := d.svc.ImportBallots(d.ctx, "olga", "Council", "cvr", ballots, nil)
	d.must(err)
	tr.Configure(func(c *ddblimit.Config) {
		*c = ddblimit.Config{NoConflicts: true, WriteUnits: ddblimit.PartitionWriteUnits}
	})
	d.syncer.NoProjection = true
	d.sync()
	s := tr.Stats()
	throttled := 0
	for part, p := range s.Partitions {
		if strings.Contains(part, "vote_event_log") {
			throttled += p.Throttled
		}
	}
	if throttled == 0 {
		t.Fatalf("the log's partitions were never over their budget: %v", s)
	}
	if _, _, pending := d.head(); pending != 0 {
		t.Errorf("%d events still pending after the sync", pending)
	}
	tr.Configure(func(c *ddblimit.Config) { *c = ddblimit.Config{Unlimited: true, NoConflicts: true} })
	d.syncer.NoProjection = false
	d.sync()
	converged(t, connect(t, prefix, nil), d)
}

// TestProjectionGivesUpWhenNothingMoves: the projection is paced by its
// partition's budget for as long as it takes, but a partition that takes
// nothing at all for two call timeouts ends the cycle with a message, and
// the next sync, once it takes writes again, completes it.
func TestProjectionGivesUpWhenNothingMoves(t *testing.T) {
	prefix := newPrefix(t)
	tr := ddblimit.New(nil, ddblimit.Config{Unlimited: true, NoConflicts: true})
	d := newDevice(t, "laptop", prefix, 0, &http.Client{Transport: tr})
	cfg := cloudConfig(prefix, &http.Client{Transport: tr})
	cfg.CallTimeout = time.Second
	d.syncer = cloudsync.New(d.store, cfg)
	seed(d, 1)
	d.sync()
	for start := 0; start < 3000; start += smallRunImport {
		ballots := make([]app.ImportedBallot, smallRunImport)
		for i := range ballots {
			ballots[i] = app.ImportedBallot{SourceID: fmt.Sprint(start + i + 1), Rankings: []app.Ranking{{Candidate: "X", Rank: 1}}}
		}
		_, err := d.svc.ImportBallots(d.ctx, "olga", "Council", "cvr", ballots, nil)
		d.must(err)
	}
	d.syncer.NoProjection = true
	d.sync()
	d.syncer.NoProjection = false
	// A unit every ten seconds: the first batch is taken (into debt), and
	// then nothing for minutes.
	tr.Configure(func(c *ddblimit.Config) { *c = ddblimit.Config{NoConflicts: true, WriteUnits: 0.1} })
	began := time.Now()
	_, err := d.syncer.Sync(d.ctx, nil)
	if err == nil || !strings.Contains(err.Error(), "of the cloud projection as busy for 2s; sync again later") {
		t.Fatalf("a projection that could write nothing: %v", err)
	}
	if took := time.Since(began); took > 10*time.Second {
		t.Errorf("gave up after %s", took)
	}
	tr.Configure(func(c *ddblimit.Config) { *c = ddblimit.Config{Unlimited: true, NoConflicts: true} })
	d.sync()
	converged(t, connect(t, prefix, nil), d)
}
