package cloudsync_test

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/google/uuid"

	"votedesk/app"
	"votedesk/app/apptest"
	"votedesk/localstore"
	cloudsync "votedesk/sync"
)

// benchEvents is how many events the push and pull benchmarks move.
const benchEvents = 100_000

// naiveEvents is how many events the naive baseline writes: one PutItem per
// event costs the same per event at any count, so a smaller run measures the
// same rate in a bearable time.
const naiveEvents = 3_000

var (
	benchOnce sync.Once
	benchDB   string
	benchErr  error
)

// benchTemplate builds, once, a database whose log holds a seeded election
// followed by benchEvents pending ballot events (paper ballots, each its own
// event), written in one transaction so that building it is quick.
func benchTemplate(b *testing.B) string {
	benchOnce.Do(func() {
		dir, err := os.MkdirTemp("", "votedesk-bench-")
		if err != nil {
			benchErr = err
			return
		}
		benchDB = filepath.Join(dir, "template.db")
		benchErr = buildBallotTemplate(benchDB, benchEvents)
	})
	if benchErr != nil {
		b.Fatal(benchErr)
	}
	return benchDB
}

// buildBallotTemplate writes at path a database whose log holds a seeded
// election (Mayor, olga its owner) followed by pending paper ballots, n
// events in all.
func buildBallotTemplate(path string, n int) error {
	ctx := context.Background()
	st, err := localstore.Open(path)
	if err != nil {
		return err
	}
	defer st.Close()
	svc := app.NewService(st, apptest.NewClock(start, time.Millisecond), nil)
	steps := []func() error{
		func() error { return svc.RegisterUser(ctx, "", "olga", "olga@example.org", "owner-password") },
		func() error { return svc.CreateElection(ctx, "olga", "Mayor", "", false) },
		func() error { return svc.AddCandidates(ctx, "olga", "Mayor", "Kiss", "Wright", "Montroll") },
		func() error { return svc.LaunchElection(ctx, "olga", "Mayor") },
	}
	for _, f := range steps {
		if err := f(); err != nil {
			return err
		}
	}
	if _, err := svc.CastBallot(ctx, "olga", app.Cast{Election: "Mayor", Rankings: []app.Ranking{{Candidate: "Kiss", Rank: 1}, {Candidate: "Wright", Rank: 2}}, Source: "paper"}); err != nil {
		return err
	}
	evs, err := st.Pending(ctx, 0)
	if err != nil {
		return err
	}
	// Each copy of the template ballot is made as the service makes one:
	// sealed, signed by olga and by this device.
	tmpl := evs[len(evs)-1]
	data := map[string]any{}
	if err := json.Unmarshal(tmpl.Data, &data); err != nil {
		return err
	}
	secret, err := tmpl.OpenSealed()
	if err != nil {
		return err
	}
	if err := json.Unmarshal(secret, &data); err != nil {
		return err
	}
	delete(data, "commit")
	olga, err := svc.User(ctx, "olga", "olga")
	if err != nil {
		return err
	}
	olgaKey, _ := app.DefaultKeyring.Key(olga.ID)
	_, scratch, _ := ed25519.GenerateKey(nil)
	when := tmpl.When
	// A few thousand ballots a transaction: bbolt splits a node only when
	// a transaction commits, so a hundred thousand random keys put in one
	// transaction land in one node, each put moving half of it (about
	// 200 s of memmove here, against seconds).
	const perTx = 2000
	for from := 1; from < n-len(evs)+1; from += perTx {
		if err := appendBenchBallots(ctx, st, from, min(from+perTx, n-len(evs)+1), func(tx app.Tx) (*app.Event, error) {
			when = when.Add(time.Millisecond)
			data["confirmation"] = uuid.NewString()
			ev, err := app.MakeEvent(app.EventSpec{Type: tmpl.Type, Data: data, When: when, Actor: olga, ActorKey: olgaKey, Device: scratch})
			if err != nil {
				return nil, err
			}
			if ev.ID, err = tx.NewEventID(); err != nil {
				return nil, err
			}
			return ev, tx.SignEvent(ev)
		}); err != nil {
			return err
		}
	}
	return nil
}

// appendBenchBallots appends and applies to-from events made by next in
// one transaction.
func appendBenchBallots(ctx context.Context, st *localstore.Store, from, to int, next func(app.Tx) (*app.Event, error)) error {
	return st.Update(ctx, func(tx app.Tx) error {
		for i := from; i < to; i++ {
			ev, err := next(tx)
			if err != nil {
				return err
			}
			if err := tx.AppendEvent(ev); err != nil {
				return err
			}
			refused, err := app.Replay(tx, ev)
			if err != nil {
				return err
			}
			if refused != nil {
				return refused
			}
		}
		return nil
	})
}

// benchDevice copies the template into a fresh device.
func benchDevice(b *testing.B, prefix string) *device {
	b.Helper()
	d := newDevice(b, "bench", prefix, 0, nil)
	d.close()
	in, err := os.ReadFile(benchTemplate(b))
	if err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(d.path, in, 0o600); err != nil {
		b.Fatal(err)
	}
	d.reopen(prefix)
	d.syncer.NoProjection = true
	return d
}

func eventsPerSecond(b *testing.B, n int, took time.Duration) {
	b.ReportMetric(float64(n)/took.Seconds(), "events/s")
	b.ReportMetric(0, "ns/op")
}

// BenchmarkPush appends benchEvents pending events to an empty cloud log.
func BenchmarkPush(b *testing.B) {
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		d := benchDevice(b, newPrefix(b))
		_, _, pending := d.head()
		b.StartTimer()
		begin := time.Now()
		res := d.sync()
		took := time.Since(begin)
		if res.Pushed != pending || pending < benchEvents {
			b.Fatalf("pushed %d of %d", res.Pushed, pending)
		}
		eventsPerSecond(b, res.Pushed, took)
	}
}

// BenchmarkPull reads a cloud log of benchEvents events into an empty
// device: pull, check and apply.
func BenchmarkPull(b *testing.B) {
	prefix := newPrefix(b)
	src := benchDevice(b, prefix)
	src.sync()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		d := newDevice(b, fmt.Sprintf("pull%d", i), prefix, 0, nil)
		d.syncer.NoProjection = true
		// This process signed and applied the events: forget that their
		// signatures were checked, as a new device never saw them.
		app.ForgetCheckedSignatures()
		b.StartTimer()
		begin := time.Now()
		res := d.sync()
		took := time.Since(begin)
		if res.Pulled < benchEvents {
			b.Fatalf("pulled %d", res.Pulled)
		}
		eventsPerSecond(b, res.Pulled, took)
	}
}

// BenchmarkProjection writes the cloud projection of benchEvents events from
// scratch (every ballot item once).
func BenchmarkProjection(b *testing.B) {
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		d := benchDevice(b, newPrefix(b))
		d.sync()
		d.syncer.NoProjection = false
		b.StartTimer()
		begin := time.Now()
		res := d.sync()
		took := time.Since(begin)
		if res.Projection != res.LastEventID {
			b.Fatalf("projection at %d, log at %d", res.Projection, res.LastEventID)
		}
		b.ReportMetric(float64(benchEvents)/took.Seconds(), "items/s")
		b.ReportMetric(0, "ns/op")
	}
}

// BenchmarkSyncEndToEnd is `votedesk sync` of a device holding benchEvents
// events made offline, on an empty cloud: one cycle that pushes them all and
// writes the cloud projection of every item they made.
func BenchmarkSyncEndToEnd(b *testing.B) {
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		d := benchDevice(b, newPrefix(b))
		d.syncer.NoProjection = false
		_, _, pending := d.head()
		b.StartTimer()
		begin := time.Now()
		res := d.sync()
		took := time.Since(begin)
		if res.Pushed != pending || res.Projection != res.LastEventID {
			b.Fatalf("pushed %d of %d, projection at %d of %d", res.Pushed, pending, res.Projection, res.LastEventID)
		}
		eventsPerSecond(b, res.Pushed, took)
		b.ReportMetric(took.Seconds(), "s/sync")
	}
}

// BenchmarkNaivePut is the baseline: one conditional PutItem per event,
// the seed design's way, for naiveEvents events.
func BenchmarkNaivePut(b *testing.B) {
	d := benchDevice(b, "unused_")
	evs, err := d.store.Pending(d.ctx, naiveEvents)
	d.must(err)
	client := rawClient()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		table := aws.String(cloudsync.TablesFor(newPrefix(b)).Log)
		b.StartTimer()
		begin := time.Now()
		for _, ev := range evs {
			line, err := app.EncodeEvent(ev)
			d.must(err)
			_, err = client.PutItem(context.Background(), &dynamodb.PutItemInput{
				TableName: table, ConditionExpression: aws.String("attribute_not_exists(PK)"),
				Item: map[string]types.AttributeValue{
					"PK":        &types.AttributeValueMemberS{Value: "LOG#global"},
					"SK":        &types.AttributeValueMemberS{Value: fmt.Sprintf("%020d", ev.Seq)},
					"event_id":  &types.AttributeValueMemberS{Value: ev.ID},
					"when":      &types.AttributeValueMemberS{Value: app.FormatTime(ev.When)},
					"actor":     &types.AttributeValueMemberS{Value: ev.Actor},
					"type":      &types.AttributeValueMemberS{Value: string(ev.Type)},
					"data":      &types.AttributeValueMemberS{Value: string(ev.Data)},
					"prev_hash": &types.AttributeValueMemberS{Value: ev.PrevHash},
					"hash":      &types.AttributeValueMemberS{Value: ev.Hash},
					"line_size": &types.AttributeValueMemberN{Value: fmt.Sprint(len(line))},
				},
			})
			d.must(err)
		}
		eventsPerSecond(b, len(evs), time.Since(begin))
	}
}

// BenchmarkNaiveGet is the pull side's baseline: one consistent GetItem per
// event, for naiveEvents events.
func BenchmarkNaiveGet(b *testing.B) {
	client := rawClient()
	table := aws.String(cloudsync.TablesFor(newPrefix(b)).Log)
	for seq := 1; seq <= naiveEvents; seq++ {
		_, err := client.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: table, Item: map[string]types.AttributeValue{
			"PK":   &types.AttributeValueMemberS{Value: "LOG#global"},
			"SK":   &types.AttributeValueMemberS{Value: fmt.Sprintf("%020d", seq)},
			"data": &types.AttributeValueMemberS{Value: strings.Repeat("x", 300)},
		}})
		if err != nil {
			b.Fatal(err)
		}
	}
	for i := 0; i < b.N; i++ {
		begin := time.Now()
		for seq := 1; seq <= naiveEvents; seq++ {
			_, err := client.GetItem(context.Background(), &dynamodb.GetItemInput{TableName: table, ConsistentRead: aws.Bool(true),
				Key: map[string]types.AttributeValue{
					"PK": &types.AttributeValueMemberS{Value: "LOG#global"},
					"SK": &types.AttributeValueMemberS{Value: fmt.Sprintf("%020d", seq)},
				}})
			if err != nil {
				b.Fatal(err)
			}
		}
		eventsPerSecond(b, naiveEvents, time.Since(begin))
	}
}

// BenchmarkApply integrates the benchmark's events into a new device a
// page at a time, as a pull hands them over (a query of BenchmarkPull's log
// returns 3,471 events), with their signatures and chain already checked,
// as the pull's reader checks them while the page before is applied: the
// device's own part of BenchmarkPull, without DynamoDB.
func BenchmarkApply(b *testing.B) {
	ctx := context.Background()
	tmpl, err := localstore.Open(benchTemplate(b))
	if err != nil {
		b.Fatal(err)
	}
	evs, err := tmpl.Pending(ctx, 0)
	tmpl.Close()
	if err != nil {
		b.Fatal(err)
	}
	took := integrateEach(b, evs, 3471)
	b.ReportMetric(float64(len(evs)*b.N)/took.Seconds(), "events/s")
	b.ReportMetric(0, "ns/op")
}

// applyImportBallots is how many imported ballots BenchmarkApplyImport
// integrates.
const applyImportBallots = 200_000

// BenchmarkApplyImport integrates, as one page, an import of
// applyImportBallots cast vote records into a new device: what a laptop
// joining an election does with a county's imported ballots (a cut orders
// the whole import, and the pull hands it over as one page), without
// DynamoDB. Each ballot's item is also marked for the cloud projection.
func BenchmarkApplyImport(b *testing.B) {
	ctx := context.Background()
	path := filepath.Join(b.TempDir(), "template.db")
	st, err := localstore.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	svc := app.NewService(st, apptest.NewClock(start, time.Millisecond), nil)
	names := []string{"Ada", "Alan", "Grace", "Edsger", "Barbara", "Donald", "Frances", "John", "Margaret", "Ken"}
	for _, f := range []func() error{
		func() error { return svc.RegisterUser(ctx, "", "olga", "olga@example.org", "owner-password") },
		func() error { return svc.CreateElection(ctx, "olga", "County", "", false) },
		func() error { return svc.AddCandidates(ctx, "olga", "County", names...) },
	} {
		if err := f(); err != nil {
			b.Fatal(err)
		}
	}
	ballots := make([]app.ImportedBallot, applyImportBallots)
	for i := range ballots {
		r := make([]app.Ranking, 1+i%5)
		for j := range r {
			r[j] = app.Ranking{Candidate: names[(i*7+j*3)%len(names)], Rank: j + 1}
		}
		ballots[i] = app.ImportedBallot{SourceID: fmt.Sprint("cvr-", i), Rankings: r}
	}
	if _, err := svc.ImportBallots(ctx, "olga", "County", "cvr", ballots, nil); err != nil {
		b.Fatal(err)
	}
	evs, err := st.Pending(ctx, 0)
	st.Close()
	if err != nil {
		b.Fatal(err)
	}
	took := integrateEach(b, evs, len(evs))
	b.ReportMetric(float64(applyImportBallots*b.N)/took.Seconds(), "ballots/s")
	b.ReportMetric(0, "ns/op")
}

// integrateEach integrates evs into a new device each iteration, page
// events at a time as a pull hands them over, with their signatures and
// chain already checked (as the pull's reader checks them while the page
// before is applied), and returns how long the Integrate calls took.
func integrateEach(b *testing.B, evs []*app.Event, page int) time.Duration {
	ctx := context.Background()
	raw := make([][]byte, len(evs))
	for i, ev := range evs {
		var err error
		if raw[i], err = app.EncodeEvent(ev); err != nil {
			b.Fatal(err)
		}
	}
	var took time.Duration
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		st, err := localstore.Open(filepath.Join(b.TempDir(), fmt.Sprintf("apply%d.db", i)))
		if err != nil {
			b.Fatal(err)
		}
		app.ForgetCheckedSignatures()
		pulled := make([]*app.Event, len(raw))
		for j, r := range raw {
			if pulled[j], err = app.DecodeEvent(r); err != nil {
				b.Fatal(err)
			}
		}
		if err := app.CheckRun("", 1, pulled); err != nil {
			b.Fatal(err)
		}
		app.VerifyAll(pulled)
		b.StartTimer()
		begin := time.Now()
		for from := 0; from < len(pulled); from += page {
			if _, err := st.Integrate(ctx, pulled[from:min(from+page, len(pulled))]); err != nil {
				b.Fatal(err)
			}
		}
		took += time.Since(begin)
		b.StopTimer()
		st.Close()
		b.StartTimer()
	}
	return took
}
