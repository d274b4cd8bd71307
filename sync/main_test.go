package cloudsync_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"

	"votedesk/app"
	"votedesk/app/apptest"
	"votedesk/localstore"
	cloudsync "votedesk/sync"
	"votedesk/sync/ddblocal"
)

// endpoint is the DynamoDB Local every test of this package talks to,
// started once by TestMain.
var endpoint string

func TestMain(m *testing.M) {
	if step := os.Getenv(crashEnv); step != "" {
		os.Exit(crashHelper(step))
	}
	os.Exit(ddblocal.RunTests(m.Run, &endpoint))
}

var prefixSeq atomic.Int64

// newPrefix returns a table prefix no other test uses, and creates the
// tables under it.
func newPrefix(t testing.TB) string {
	t.Helper()
	name := strings.NewReplacer("/", "_", " ", "_").Replace(t.Name())
	p := fmt.Sprintf("t%d_%.40s_", prefixSeq.Add(1), name)
	c := connect(t, p, nil)
	if _, err := c.InitTables(context.Background()); err != nil {
		t.Fatalf("create tables: %v", err)
	}
	return p
}

// cloudConfig is how tests reach DynamoDB Local: static credentials, quick
// retries, and optionally an HTTP client that injects faults.
func cloudConfig(prefix string, hc aws.HTTPClient) cloudsync.Config {
	return cloudsync.Config{
		Endpoint: endpoint, TablePrefix: prefix, Region: "us-east-1",
		Credentials: cloudsync.StaticCredentials("test", "test"), HTTPClient: hc,
		RetryBase: time.Millisecond, RetryMax: 20 * time.Millisecond, MaxAttempts: 10,
		// Short enough that taking over a crashed projection writer (which
		// waits one call timeout) does not dominate the suite.
		CallTimeout: 6 * time.Second,
		// Runs of a few dozen ballots reach their election's shard (in
		// production a few hundred do): the tests of the protocol need
		// both shards with little data. TestLoad measures the default.
		// A test may send every run there (inShards).
		ShardFrom: testShardFrom(),
		// A test may make every append a claim on a proposal (withClaims);
		// otherwise large ones are, as in production.
		ClaimFrom: testClaimFrom(),
	}
}

// envClaimFrom, when set, is the ClaimFrom of every device a test makes,
// in its process and the children that crash (see withClaims).
const envClaimFrom = "VOTEDESK_TEST_CLAIM_FROM"

func testClaimFrom() int {
	n, _ := strconv.Atoi(os.Getenv(envClaimFrom))
	return n
}

// withClaims makes every append of the rest of a test, however small, a
// claim on a proposal written first (claim.go).
func withClaims(t *testing.T) { t.Setenv(envClaimFrom, "1") }

// noClaims makes every append of the rest of a test hold its events, as
// before claims: for tests of what segments hold and cost.
func noClaims(t *testing.T) { t.Setenv(envClaimFrom, "-1") }

// envShardFrom, when set, is the ShardFrom of every device a test makes,
// in its process and the children that crash (see inShards).
const envShardFrom = "VOTEDESK_TEST_SHARD_FROM"

func testShardFrom() int {
	if n, err := strconv.Atoi(os.Getenv(envShardFrom)); err == nil && n > 0 {
		return n
	}
	return 16 << 10
}

// inShards makes the rest of a test send every run of ballots to its
// election's shard (each push an append there and a cut), and every
// device sweep at the end of each cycle, so that a run a crashed or
// restored device left uncut is ordered by the others within two cycles.
func inShards(t *testing.T) { t.Setenv(envShardFrom, "1") }

// newTestSyncer is the syncer of a test's device.
func newTestSyncer(st *localstore.Store, prefix string, hc aws.HTTPClient) *cloudsync.Syncer {
	s := cloudsync.New(st, cloudConfig(prefix, hc))
	if os.Getenv(envShardFrom) != "" {
		cloudsync.SweepEveryCycle(s)
	}
	return s
}

func connect(t testing.TB, prefix string, hc aws.HTTPClient) *cloudsync.Cloud {
	t.Helper()
	c, err := cloudsync.Connect(context.Background(), cloudConfig(prefix, hc))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

var start = time.Date(2026, 11, 3, 7, 0, 0, 0, time.UTC)

// device is one laptop or kiosk: its own bbolt file, domain service and
// syncer.
type device struct {
	t      testing.TB
	name   string
	path   string
	store  *localstore.Store
	svc    *app.Service
	syncer *cloudsync.Syncer
	ctx    context.Context
}

// newDevice opens a fresh database for a device syncing with the tables
// under prefix. skew sets its clock apart from the others'.
func newDevice(t testing.TB, name, prefix string, skew time.Duration, hc aws.HTTPClient) *device {
	t.Helper()
	path := filepath.Join(t.TempDir(), name+".db")
	st, err := localstore.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	d := &device{t: t, name: name, path: path, store: st, ctx: context.Background()}
	d.svc = app.NewService(st, apptest.NewClock(start.Add(skew), time.Millisecond), nil)
	d.syncer = newTestSyncer(st, prefix, hc)
	return d
}

// sync runs one cycle that must succeed.
func (d *device) sync() app.SyncResult {
	d.t.Helper()
	res, err := d.syncer.Sync(d.ctx, nil)
	if err != nil {
		d.t.Fatalf("%s: sync: %v", d.name, err)
	}
	return res
}

func (d *device) must(err error) {
	d.t.Helper()
	if err != nil {
		d.t.Fatalf("%s: %v", d.name, err)
	}
}

func (d *device) stateHash() string {
	d.t.Helper()
	h, err := d.store.StateHash(d.ctx)
	d.must(err)
	return h
}

// head returns the device's confirmed head and pending count.
func (d *device) head() (uint64, string, int) {
	d.t.Helper()
	c, h, p, err := d.store.SyncHead(d.ctx)
	d.must(err)
	return c, h, p
}

// cloudLog reads the whole cloud log and checks it: contiguous from 1, the
// hash chain valid, every event id once.
func cloudLog(t testing.TB, c *cloudsync.Cloud) []*app.Event {
	t.Helper()
	var all []*app.Event
	err := c.ReadLog(context.Background(), 1, func(page []*app.Event) error {
		all = append(all, page...)
		return nil
	})
	if err != nil {
		t.Fatalf("read cloud log: %v", err)
	}
	if err := app.CheckRun("", 1, all); err != nil {
		t.Fatalf("cloud log: %v", err)
	}
	seen := map[string]uint64{}
	for _, ev := range all {
		if at, dup := seen[ev.ID]; dup {
			t.Fatalf("cloud log holds event %s twice: at %d and %d", ev.ID, at, ev.Seq)
		}
		seen[ev.ID] = ev.Seq
	}
	return all
}

// cloudStateHash loads the cloud projection into a scratch database and
// hashes it as StateHash hashes a device's projection.
func cloudStateHash(t testing.TB, c *cloudsync.Cloud) string {
	t.Helper()
	ctx := context.Background()
	items, err := c.ProjectionItems(ctx)
	if err != nil {
		t.Fatal(err)
	}
	st, err := localstore.Open(filepath.Join(t.TempDir(), "cloud-projection.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	err = st.Update(ctx, func(tx app.Tx) error {
		for _, it := range items {
			if err := tx.Put(it); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	h, err := st.StateHash(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// converged checks that every device and the cloud projection hold the same
// state, every device's log is the cloud log, and nothing is pending.
func converged(t testing.TB, c *cloudsync.Cloud, devs ...*device) []*app.Event {
	t.Helper()
	log := cloudLog(t, c)
	var head uint64
	var headHash string
	if len(log) > 0 {
		head, headHash = log[len(log)-1].Seq, log[len(log)-1].Hash
	}
	want := cloudStateHash(t, c)
	for _, d := range devs {
		confirmed, hash, pending, err := d.store.SyncHead(d.ctx)
		d.must(err)
		if confirmed != head || hash != headHash || pending != 0 {
			t.Errorf("%s: confirmed %d (%.8s), %d pending; cloud log head %d (%.8s)", d.name, confirmed, hash, pending, head, headHash)
		}
		if got := d.stateHash(); got != want {
			t.Errorf("%s: state hash %s, cloud projection %s", d.name, got, want)
		}
	}
	return log
}
