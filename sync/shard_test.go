package cloudsync_test

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	bolt "go.etcd.io/bbolt"

	"votedesk/app"
	cloudsync "votedesk/sync"
)

// TestShardsConverge: three devices, two elections, work done offline on
// all three; one device takes a clerk's role away while the others cast
// ballots in both elections. Each election's ballots are stored in its own
// shard and ordered by cuts in the global one; the devices end with equal
// state, every event is in the log once, and the ballots the clerk cast
// after the global log took the role away are refused on every device,
// whatever order the devices synced in.
func TestShardsConverge(t *testing.T) {
	prefix := newPrefix(t)
	a := newDevice(t, "laptop", prefix, 0, nil)
	b := newDevice(t, "kiosk", prefix, 0, nil)
	c := newDevice(t, "second", prefix, 0, nil)
	seed(a, 300)
	a.sync()
	b.sync()
	c.sync()

	// Offline: the kiosk takes Mayor ballots; the second laptop Levy
	// ballots cast by ben, and Mayor ballots by ann; the laptop makes ben
	// an observer and edits the Council draft.
	castMayor(b, "ann", 1, 60)
	for i := 1; i <= 30; i++ {
		castAs(c, "ben", "Levy", fmt.Sprintf("l%03d", i), "Yes")
	}
	castMayor(c, "ann", 61, 90)
	a.must(a.svc.SetRole(a.ctx, "olga", "ben", app.RoleObserver))
	editCouncil(a, "olga", 2)
	pendingB, _ := b.store.Pending(b.ctx, 0)
	pendingC, _ := c.store.Pending(c.ctx, 0)

	// The laptop's change reaches the global log first.
	a.sync()
	syncRounds(t, rand.New(rand.NewPCG(7, 8)), []*device{a, b, c})

	cloud := connect(t, prefix, nil)
	log := converged(t, cloud, a, b, c)
	everyEventOnce(t, log, pendingB)
	everyEventOnce(t, log, pendingC)

	// Where the events are stored: ballots in their elections' shards,
	// each ordered by cuts; the global shard holds no ballot.
	for _, name := range []string{"Mayor", "Levy"} {
		e, err := a.svc.Election(a.ctx, "olga", name)
		a.must(err)
		evs, cuts, err := cloudsync.ShardContents(a.ctx, cloud, "ELECTION#"+e.ID)
		a.must(err)
		if len(evs) == 0 || cuts != 0 {
			t.Errorf("%s's shard holds %d events and %d cuts; want its ballots and no cut", name, len(evs), cuts)
		}
		for _, ev := range evs {
			if app.ShardOf(ev) != e.ID {
				t.Errorf("%s's shard holds event %s (%s)", name, ev.ID, ev.Type)
			}
		}
	}
	global, cuts, err := cloudsync.ShardContents(a.ctx, cloud, "global")
	a.must(err)
	if cuts == 0 {
		t.Error("the global shard holds no cut")
	}
	for _, ev := range global {
		if ev.Type == app.EvBallotCast {
			t.Errorf("the global shard holds ballot %s", ev.ID)
		}
	}

	// ben's Levy ballots came after his role was taken away, on every
	// device; ann's Mayor ballots all count.
	for _, d := range []*device{a, b, c} {
		levy, err := d.svc.Ballots(d.ctx, "olga", "Levy")
		d.must(err)
		mayor, err := d.svc.Ballots(d.ctx, "olga", "Mayor")
		d.must(err)
		if len(levy) != 0 || len(mayor) != 90 {
			t.Errorf("%s counts %d Levy and %d Mayor ballots; want 0 (ben was an observer by then) and 90", d.name, len(levy), len(mayor))
		}
	}
}

// TestLogOfOneShardGoesOn: a cloud log written before shards (every event,
// ballots too, in LOG#global) and a database synced with it (no mark kept)
// go on as the global shard's first part: new ballots go to their
// election's shard after it, a new device reads both, and nothing is lost
// or doubled.
func TestLogOfOneShardGoesOn(t *testing.T) {
	prefix := newPrefix(t)
	a := newDevice(t, "laptop", prefix, 0, nil)
	seed(a, 300)
	castMayor(a, "ann", 1, 50)
	old, _ := a.store.Pending(a.ctx, 0)
	cloud := connect(t, prefix, nil)
	// As the version before shards pushed them: all in the global shard.
	if _, err := cloudsync.AppendAfter(a.ctx, cloud, old, 0, ""); err != nil {
		t.Fatal(err)
	}
	a.sync()
	// ... and kept no mark.
	a.close()
	db, err := bolt.Open(a.path, 0o600, nil)
	a.must(err)
	a.must(db.Update(func(tx *bolt.Tx) error { return tx.Bucket([]byte("device")).Delete([]byte("sync_mark")) }))
	a.must(db.Close())
	a.reopen(prefix)

	b := newDevice(t, "kiosk", prefix, 0, nil)
	b.sync()
	castMayor(a, "ann", 51, 80)
	castMayor(b, "ben", 81, 120)
	newer, _ := a.store.Pending(a.ctx, 0)
	more, _ := b.store.Pending(b.ctx, 0)
	a.sync()
	b.sync()
	a.sync()

	log := converged(t, cloud, a, b)
	everyEventOnce(t, log, old)
	everyEventOnce(t, log, newer)
	everyEventOnce(t, log, more)
	global, _, err := cloudsync.ShardContents(a.ctx, cloud, "global")
	a.must(err)
	if inGlobal := countBallots(global); inGlobal != 50 {
		t.Errorf("the global shard holds %d ballots, want the 50 pushed before shards", inGlobal)
	}
	for _, d := range []*device{a, b} {
		mayor, err := d.svc.Ballots(d.ctx, "olga", "Mayor")
		d.must(err)
		if len(mayor) != 120 {
			t.Errorf("%s counts %d Mayor ballots, want 120", d.name, len(mayor))
		}
	}
}

// TestSweepOrdersAStoppedDevicesBallots: a kiosk stops for good right after
// its ballots reached Mayor's shard, before its cut. The laptop's next
// cycle notes them; the one after cuts them into the log, so they count.
// When the kiosk comes back it finds them there and pushes nothing twice.
func TestSweepOrdersAStoppedDevicesBallots(t *testing.T) {
	prefix := newPrefix(t)
	a := newDevice(t, "laptop", prefix, 0, nil)
	seed(a, 300)
	castMayor(a, "ann", 1, 10)
	a.sync()
	b := newDevice(t, "kiosk", prefix, 0, nil)
	b.sync()
	castMayor(b, "ben", 11, 40)
	pendingB, _ := b.store.Pending(b.ctx, 0)
	b.close()
	if !crashSync(t, b.path, prefix, "appended", 1) {
		t.Fatal("the kiosk's sync never appended its ballots")
	}
	cloudsync.SweepEveryCycle(a.syncer)
	count := func(d *device) int {
		bs, err := d.svc.Ballots(d.ctx, "olga", "Mayor")
		d.must(err)
		return len(bs)
	}
	rep, err := a.syncer.VerifyCloud(a.ctx)
	a.must(err)
	if !rep.OK() || !strings.Contains(strings.Join(rep.Notes, "\n"), "30 event(s) after 0 that no cut orders yet") {
		t.Errorf("verify --cloud with the kiosk's ballots uncut: problems %v, notes %v; want it whole, with a note of the 30", rep.Problems, rep.Notes)
	}
	a.sync()
	if n := count(a); n != 10 {
		t.Fatalf("after the kiosk stopped, the laptop's first cycle counts %d ballots; want 10 (the kiosk's are its own to cut for now)", n)
	}
	a.sync()
	if n := count(a); n != 40 {
		t.Fatalf("the laptop's second cycle counts %d ballots; want 40, the kiosk's swept in", n)
	}
	b.reopen(prefix)
	res := b.sync()
	if res.Pushed != 0 {
		t.Errorf("the kiosk pushed %d events again when it came back", res.Pushed)
	}
	a.sync()
	log := converged(t, connect(t, prefix, nil), a, b)
	everyEventOnce(t, log, pendingB)
	if n := count(b); n != 40 {
		t.Errorf("the kiosk counts %d ballots, want 40", n)
	}
}

// TestTamperedShardIsNamed: an event changed in an election's shard stops
// every pull at the cut that orders it, applying none of that page, and
// `verify --cloud` names its place in the log every device holds.
func TestTamperedShardIsNamed(t *testing.T) {
	noClaims(t) // a changed segment; TestTamperedProposalRefused changes proposals
	prefix := newPrefix(t)
	a := newDevice(t, "laptop", prefix, 0, nil)
	seed(a, 300)
	castMayor(a, "ann", 1, 40) // heavy enough for Mayor's shard
	a.sync()
	e, err := a.svc.Election(a.ctx, "olga", "Mayor")
	a.must(err)
	firstBallot := uint64(0)
	a.must(a.store.View(a.ctx, func(tx app.Tx) error {
		return tx.Events(1, func(ev *app.Event) (bool, error) {
			if ev.Type == app.EvBallotCast {
				firstBallot = ev.Seq
				return false, nil
			}
			return true, nil
		})
	}))

	db := rawClient()
	table := cloudsync.TablesFor(prefix).Log
	out, err := db.Query(a.ctx, &dynamodb.QueryInput{TableName: aws.String(table), KeyConditionExpression: aws.String("PK = :p"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":p": &types.AttributeValueMemberS{Value: "LOG#ELECTION#" + e.ID}}})
	a.must(err)
	if len(out.Items) == 0 {
		t.Fatal("Mayor's shard holds nothing")
	}
	item := out.Items[0]
	if gz, ok := item["events_gz"].(*types.AttributeValueMemberB); ok {
		zr, err := gzip.NewReader(bytes.NewReader(gz.Value))
		a.must(err)
		lines, err := io.ReadAll(zr)
		a.must(err)
		var z bytes.Buffer
		w := gzip.NewWriter(&z)
		w.Write(bytes.Replace(lines, []byte(`"Montroll"`), []byte(`"Kiss"`), 1))
		w.Close()
		item["events_gz"] = &types.AttributeValueMemberB{Value: z.Bytes()}
	} else {
		lines := item["events"].(*types.AttributeValueMemberS).Value
		item["events"] = &types.AttributeValueMemberS{Value: strings.Replace(lines, `"Montroll"`, `"Kiss"`, 1)}
	}
	_, err = db.PutItem(a.ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: item})
	a.must(err)

	b := newDevice(t, "kiosk", prefix, 0, nil)
	if _, err := b.syncer.Sync(b.ctx, nil); err == nil || !strings.Contains(app.ErrorMessage(err), "shard ELECTION#"+e.ID) {
		t.Errorf("a pull through the changed event: %v; want it refused, naming Mayor's shard", err)
	}
	if confirmed, _, _ := b.head(); confirmed != 0 {
		t.Errorf("the refused pull applied %d events", confirmed)
	}
	rep, err := a.syncer.VerifyCloud(a.ctx)
	a.must(err)
	if rep.OK() || rep.FirstBadSeq != firstBallot || rep.Events != firstBallot-1 {
		t.Errorf("verify --cloud: ok %v, first bad %d, %d events whole (%v); want event %d named, %d whole", rep.OK(), rep.FirstBadSeq, rep.Events, rep.Problems, firstBallot, firstBallot-1)
	}
}

// rangeReads counts the queries that read a range of an election's shard
// (what a pull does at a cut), not its head.
type rangeReads struct {
	next http.RoundTripper
	n    atomic.Int64
}

func (r *rangeReads) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil && strings.HasSuffix(req.Header.Get("X-Amz-Target"), ".Query") {
		body, err := io.ReadAll(req.Body)
		if err != nil {
			return nil, err
		}
		req.Body = io.NopCloser(bytes.NewReader(body))
		if bytes.Contains(body, []byte("BETWEEN")) && bytes.Contains(body, []byte(`"LOG#ELECTION#`)) {
			r.n.Add(1)
		}
	}
	return r.next.RoundTrip(req)
}

// TestOwnRunNotReadBack: a device that appends a run of ballots to its
// election's shard (an import, a day offline) takes it into its log from
// what it appended when the cut orders it, without reading the run back;
// another device reads it from the cloud; both end with the same log and
// state. The run spans several segments, and a second run follows after
// another device's run in the same shard, so the device's appends of a
// cycle are not one block of that shard.
func TestOwnRunNotReadBack(t *testing.T) {
	prefix := newPrefix(t)
	reads := &rangeReads{next: http.DefaultTransport}
	a := newDevice(t, "laptop", prefix, 0, &http.Client{Transport: reads})
	b := newDevice(t, "kiosk", prefix, 0, nil)
	seed(a, 1200)
	a.sync()
	b.sync()

	castMayor(a, "ann", 1, 600) // about three segments
	reads.n.Store(0)
	a.sync()
	if n := reads.n.Load(); n != 0 {
		t.Errorf("the laptop read its own run back: %d range queries of the election's shard", n)
	}
	b.sync()
	if b.stateHash() != a.stateHash() {
		t.Fatal("the kiosk that read the run from the cloud holds another state than the laptop that appended it")
	}

	// Both append runs to the shard; the laptop's second cycle takes its
	// own from what it appended and the kiosk's from the cloud.
	castMayor(b, "ann", 601, 800)
	castMayor(a, "ann", 801, 1000)
	b.sync()
	a.sync()
	b.sync()
	log := converged(t, connect(t, prefix, nil), a, b)
	if n := countBallots(log); n != 1000 {
		t.Errorf("%d ballots in the log; want 1000", n)
	}
}

// countBallots counts the ballots cast among evs.
func countBallots(evs []*app.Event) int {
	n := 0
	for _, ev := range evs {
		if ev.Type == app.EvBallotCast {
			n++
		}
	}
	return n
}
