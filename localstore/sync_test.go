package localstore

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"votedesk/app"
)

type stepClock struct{ t time.Time }

func (c *stepClock) Now() time.Time { c.t = c.t.Add(time.Millisecond); return c.t }

// syncFixture is two devices whose common past (a launched election with
// voters v1-v9) is confirmed on both.
func syncFixture(t *testing.T) (a, b *Store, sa, sb *app.Service) {
	t.Helper()
	ctx := context.Background()
	a, b = MustOpenStore(t), MustOpenStore(t)
	sa = app.NewService(a, &stepClock{t: time.Date(2026, 11, 3, 7, 0, 0, 0, time.UTC)}, nil)
	sb = app.NewService(b, &stepClock{t: time.Date(2026, 11, 3, 6, 0, 0, 0, time.UTC)}, nil)
	must(t, sa.RegisterUser(ctx, "", "olga", "olga@example.org", "owner-password"))
	must(t, sa.CreateElection(ctx, "olga", "Mayor", "", false))
	must(t, sa.AddCandidates(ctx, "olga", "Mayor", "Kiss", "Wright"))
	var vs []app.VoterEntry
	for i := 1; i <= 9; i++ {
		vs = append(vs, app.VoterEntry{Name: fmt.Sprintf("v%d", i)})
	}
	must(t, sa.AddVoters(ctx, "olga", "Mayor", vs...))
	must(t, sa.LaunchElection(ctx, "olga", "Mayor"))
	common := pending(t, a)
	must(t, a.ConfirmPushed(ctx, common))
	if _, err := b.Integrate(ctx, common); err != nil {
		t.Fatal(err)
	}
	return a, b, sa, sb
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func pending(t *testing.T, s *Store) []*app.Event {
	t.Helper()
	evs, err := s.Pending(context.Background(), 0)
	must(t, err)
	return evs
}

func cast(t *testing.T, s *app.Service, voter, first string) {
	t.Helper()
	_, err := s.CastBallot(context.Background(), "olga", app.Cast{Election: "Mayor", Voter: voter, Rankings: []app.Ranking{{Candidate: first, Rank: 1}}})
	must(t, err)
}

func hash(t *testing.T, s *Store) string {
	t.Helper()
	h, err := s.StateHash(context.Background())
	must(t, err)
	return h
}

// TestIntegrateRebasesPending lays A's events under B's pending ones, the way
// a pull does, and checks that B's projection is what replaying the merged
// log gives, that B's own events moved after A's, and that the duplicate
// voter became a conflict.
func TestIntegrateRebasesPending(t *testing.T) {
	ctx := context.Background()
	a, b, sa, sb := syncFixture(t)
	cast(t, sa, "v1", "Kiss")
	cast(t, sa, "v2", "Kiss")
	cast(t, sb, "v2", "Wright") // the same voter, on B
	cast(t, sb, "v3", "Wright")
	fromA := pending(t, a)
	must(t, a.ConfirmPushed(ctx, fromA)) // A "pushed" first
	rebased, err := b.Integrate(ctx, fromA)
	must(t, err)
	if rebased != 2 {
		t.Errorf("rebased %d events, want 2", rebased)
	}
	c, _, p, err := b.SyncHead(ctx)
	must(t, err)
	if c != fromA[len(fromA)-1].Seq || p != 2 {
		t.Errorf("B: confirmed %d, pending %d", c, p)
	}
	mine := pending(t, b)
	if mine[0].Seq != c+1 || mine[0].PrevHash != fromA[len(fromA)-1].Hash {
		t.Errorf("B's first pending event is at %d chained to %.8s; want %d after A's last", mine[0].Seq, mine[0].PrevHash, c+1)
	}
	live := hash(t, b)
	if _, err := b.Rebuild(ctx); err != nil {
		t.Fatal(err)
	}
	if got := hash(t, b); got != live {
		t.Error("the rebased projection differs from a rebuild of the rebased log")
	}
	// A takes B's events as they will be in the cloud: same state.
	must(t, b.ConfirmPushed(ctx, mine))
	if _, err := a.Integrate(ctx, mine); err != nil {
		t.Fatal(err)
	}
	if hash(t, a) != hash(t, b) {
		t.Error("A and B differ after exchanging their events")
	}
	ks, err := sa.Conflicts(ctx, "olga", "Mayor")
	must(t, err)
	if len(ks) != 1 || ks[0].Kind != "duplicate_ballot" || ks[0].Voter != "v2" {
		t.Errorf("conflicts = %+v", ks)
	}
}

// TestIntegrateRefusesBadPage: a page that does not continue the confirmed
// head changes nothing.
func TestIntegrateRefusesBadPage(t *testing.T) {
	ctx := context.Background()
	a, b, sa, sb := syncFixture(t)
	cast(t, sa, "v1", "Kiss")
	cast(t, sb, "v5", "Wright")
	page := pending(t, a)
	before := hash(t, b)
	c0, h0, p0, _ := b.SyncHead(ctx)
	for name, bad := range map[string]func(ev *app.Event){
		"gap":   func(ev *app.Event) { ev.Seq++ },
		"chain": func(ev *app.Event) { ev.PrevHash = strings.Repeat("0", 64) },
		"hash":  func(ev *app.Event) { ev.Data = []byte(strings.Replace(string(ev.Data), `"v1"`, `"v2"`, 1)) },
		"sealed": func(ev *app.Event) {
			ev.Sealed = []byte(strings.Replace(string(ev.Sealed), "Kiss", "Wright", 1))
		},
	} {
		ev := *page[0]
		bad(&ev)
		_, err := b.Integrate(ctx, []*app.Event{&ev})
		if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("event %d", page[0].Seq)) {
			t.Errorf("%s: err = %v; want one naming event %d", name, err, page[0].Seq)
		}
		c, h, p, _ := b.SyncHead(ctx)
		if hash(t, b) != before || c != c0 || h != h0 || p != p0 {
			t.Errorf("%s: a refused page changed the database", name)
		}
	}
}

// TestCloudDeltaReadsUnderPending: the items the cloud projection needs are
// their confirmed values, not the pending events' effects.
func TestCloudDeltaReadsUnderPending(t *testing.T) {
	ctx := context.Background()
	a, _, sa, _ := syncFixture(t)
	head, puts, deletes, err := a.CloudDelta(ctx, 0)
	must(t, err)
	if head == 0 || len(puts) == 0 || len(deletes) != 0 {
		t.Fatalf("delta from 0: head %d, %d puts, %d deletes", head, len(puts), len(deletes))
	}
	cast(t, sa, "v1", "Kiss") // pending: changes the election item and adds a ballot
	_, puts2, _, err := a.CloudDelta(ctx, 0)
	must(t, err)
	if fmt.Sprint(puts2) != fmt.Sprint(puts) {
		t.Error("a pending event changed what the cloud projection is told")
	}
	must(t, a.PruneCloudDirty(ctx, head))
	if _, puts3, _, _ := a.CloudDelta(ctx, head-1); len(puts3) != 0 {
		t.Errorf("after pruning, %d items still dirty", len(puts3))
	}
	must(t, a.ConfirmPushed(ctx, pending(t, a)))
	_, puts4, _, err := a.CloudDelta(ctx, head)
	must(t, err)
	keys := map[string]bool{}
	for _, it := range puts4 {
		keys[it.PK()+"/"+it.SK()] = true
	}
	if !keys["ELECTION#Mayor/BALLOT#v1"] || !keys["ELECTION#Mayor/METADATA"] || !keys["METADATA/SYNC"] {
		t.Errorf("delta after the ballot = %v", keys)
	}
}

// TestDirtyMarksLastEvent: a pulled page marks each item it changes for
// the cloud projection once, with the last of its events that changed it,
// whether the marks are written at the end of the page or as they come.
func TestDirtyMarksLastEvent(t *testing.T) {
	ctx := context.Background()
	a, b, sa, _ := syncFixture(t)
	var common []*app.Event
	must(t, a.db.View(func(btx *bolt.Tx) error {
		return newTx(btx).Events(1, func(ev *app.Event) (bool, error) {
			common = append(common, ev)
			return true, nil
		})
	}))
	for _, v := range []string{"v1", "v2", "v3"} {
		cast(t, sa, v, "Kiss")
	}
	// An import's ballots are new items (PutNew: chunks of ballots, here
	// several), marked without a map.
	var imported []app.ImportedBallot
	for i := range 8000 {
		imported = append(imported, app.ImportedBallot{SourceID: fmt.Sprintf("c%060d", i), Rankings: []app.Ranking{{Candidate: "Wright", Rank: 1}}})
	}
	_, err := sa.ImportBallots(ctx, "olga", "Mayor", "cvr", imported, nil)
	must(t, err)
	cast(t, sa, "v4", "Kiss")
	page := pending(t, a)
	must(t, a.ConfirmPushed(ctx, page))
	c := MustOpenStore(t)
	_, err = c.Integrate(ctx, common)
	must(t, err)

	_, err = b.Integrate(ctx, page) // marks written at the end of the page
	must(t, err)
	saved := maxDirtyKeys
	maxDirtyKeys = 1 // and as they come
	_, err = c.Integrate(ctx, page)
	maxDirtyKeys = saved
	must(t, err)

	marks := func(s *Store) map[string]uint64 {
		got := map[string]uint64{}
		must(t, s.db.View(func(btx *bolt.Tx) error {
			// The latest mark of each item.
			return btx.Bucket(bucketDirty).ForEach(func(k, v []byte) error {
				item := strings.ReplaceAll(string(k[8:]), "\x00", "/")
				got[item] = max(got[item], binary.BigEndian.Uint64(k[:8]))
				return nil
			})
		}))
		return got
	}
	atEnd, asTheyCome := marks(b), marks(c)
	last := page[len(page)-1].Seq
	for _, k := range []string{"ELECTION#Mayor/METADATA", "METADATA/SYNC"} {
		if atEnd[k] != last {
			t.Errorf("%s marked at event %d, want %d (the page's last)", k, atEnd[k], last)
		}
	}
	if atEnd["ELECTION#Mayor/BALLOT#v1"] != page[0].Seq {
		t.Errorf("the first ballot marked at event %d, want %d", atEnd["ELECTION#Mayor/BALLOT#v1"], page[0].Seq)
	}
	if fmt.Sprint(atEnd) != fmt.Sprint(asTheyCome) {
		t.Errorf("marks written at the end of the page:\n%v\nand as they come:\n%v", atEnd, asTheyCome)
	}
	importSeq := map[string]uint64{} // by event id
	for _, ev := range page {
		if ev.Type == app.EvBallotsImported {
			importSeq[ev.ID] = ev.Seq
		}
	}
	stored := 0
	must(t, b.db.View(func(btx *bolt.Tx) error {
		prefix := []byte("ELECTION#Mayor\x00BALLOT##")
		c := btx.Bucket(bucketData).Cursor()
		for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
			stored++
		}
		return nil
	}))
	if stored < 2 {
		t.Fatalf("the import is stored in %d items; the test wants several", stored)
	}
	n := 0
	for k, seq := range atEnd {
		if strings.HasPrefix(k, "ELECTION#Mayor/BALLOT##") {
			n++
			id, _, _ := strings.Cut(strings.TrimPrefix(k, "ELECTION#Mayor/BALLOT##"), ".")
			if seq != importSeq[id] {
				t.Errorf("imported ballots %s marked at event %d, want %d (the import)", k, seq, importSeq[id])
			}
		}
	}
	if n != stored {
		t.Errorf("%d items of imported ballots marked, want %d", n, stored)
	}
	// The cloud projection's changes read them all.
	_, puts, _, err := b.CloudDelta(ctx, 0)
	must(t, err)
	n = 0
	for _, it := range puts {
		if strings.HasPrefix(it.SK(), "BALLOT##") {
			n++
		}
	}
	if n != stored {
		t.Errorf("the cloud projection's changes hold %d items of imported ballots, want %d", n, stored)
	}
}

// TestResolutionFollowsItsConflictThroughARebase: an official decides a
// conflict a rebase made, before the device has pushed, and another
// device's event then moves the events again. The decision must still be
// about the voter the official looked at: the conflict's number moved with
// the event that made it, so the decision names that event, not the
// number.
func TestResolutionFollowsItsConflictThroughARebase(t *testing.T) {
	ctx := context.Background()
	a, b, sa, sb := syncFixture(t)
	cast(t, sa, "v1", "Kiss")
	cast(t, sa, "v2", "Kiss")
	cast(t, sb, "v1", "Wright") // both voters voted on B too
	cast(t, sb, "v2", "Wright")
	first := pending(t, a)
	must(t, a.ConfirmPushed(ctx, first))
	_, err := b.Integrate(ctx, first)
	must(t, err)
	ks, err := sb.Conflicts(ctx, "olga", "Mayor")
	must(t, err)
	var v2 uint64
	for _, k := range ks {
		if k.Voter == "v2" {
			v2 = k.Seq
		}
	}
	if len(ks) != 2 || v2 == 0 {
		t.Fatalf("conflicts on B after the first pull: %+v", ks)
	}
	// The official accepts v2's ballot cast on B; B has not pushed yet.
	must(t, sb.ResolveConflict(ctx, "olga", "Mayor", v2, true, "v2's paper ballot was the later one"))
	// A casts again and pushes first: B's three events move one place on.
	cast(t, sa, "v3", "Kiss")
	second := pending(t, a)
	must(t, a.ConfirmPushed(ctx, second))
	_, err = b.Integrate(ctx, second)
	must(t, err)
	check := func(who string, s *app.Service) {
		t.Helper()
		ks, err := s.Conflicts(ctx, "olga", "Mayor")
		must(t, err)
		for _, k := range ks {
			if want := k.Voter == "v2"; k.Resolved != want {
				t.Errorf("%s: the conflict of %s is resolved=%v (%s), want %v", who, k.Voter, k.Resolved, k.Resolution, want)
			}
		}
		if len(ks) != 2 {
			t.Errorf("%s: %d conflicts, want 2", who, len(ks))
		}
		rej, err := s.Rejections(ctx, "olga")
		must(t, err)
		if len(rej) != 0 {
			t.Errorf("%s: refused events %+v", who, rej)
		}
	}
	check("B", sb)
	mine := pending(t, b)
	must(t, b.ConfirmPushed(ctx, mine))
	_, err = a.Integrate(ctx, mine)
	must(t, err)
	check("A", sa)
	if hash(t, a) != hash(t, b) {
		t.Error("A and B differ after exchanging their events")
	}
}

// TestDecisionOnAStaleListFollowsTheConflict: an official reads the list of
// conflicts, a sync then moves them to other numbers, and the official
// decides the one the list showed: the decision is about that voter.
func TestDecisionOnAStaleListFollowsTheConflict(t *testing.T) {
	ctx := context.Background()
	a, b, sa, sb := syncFixture(t)
	cast(t, sa, "v1", "Kiss")
	cast(t, sa, "v2", "Kiss")
	cast(t, sb, "v1", "Wright")
	cast(t, sb, "v2", "Wright")
	first := pending(t, a)
	must(t, a.ConfirmPushed(ctx, first))
	_, err := b.Integrate(ctx, first)
	must(t, err)
	shown, err := sb.Conflicts(ctx, "olga", "Mayor") // the list on the screen
	must(t, err)
	cast(t, sa, "v3", "Kiss")
	second := pending(t, a)
	must(t, a.ConfirmPushed(ctx, second))
	_, err = b.Integrate(ctx, second) // a background sync
	must(t, err)
	for _, k := range shown {
		if k.Voter == "v2" {
			decided, err := sb.DecideConflict(ctx, "olga", k, true, "v2's paper ballot was the later one")
			must(t, err)
			if decided.Voter != "v2" || decided.Seq == k.Seq {
				t.Errorf("decided %+v; want v2's conflict at its new number", decided)
			}
		}
	}
	now, err := sb.Conflicts(ctx, "olga", "Mayor")
	must(t, err)
	for _, k := range now {
		if want := k.Voter == "v2"; k.Resolved != want {
			t.Errorf("the conflict of %s is resolved=%v, want %v", k.Voter, k.Resolved, want)
		}
		for _, o := range shown {
			if o.Voter == k.Voter && o.Seq == k.Seq {
				t.Errorf("the conflict of %s did not move (%d): the test shows nothing", k.Voter, k.Seq)
			}
		}
	}
	bs, err := sb.Ballots(ctx, "olga", "Mayor")
	must(t, err)
	for _, bl := range bs {
		if want := map[string]string{"v1": "Kiss", "v2": "Wright", "v3": "Kiss"}[bl.Voter]; bl.Rankings[0].Candidate != want {
			t.Errorf("%s's ballot ranks %s first, want %s", bl.Voter, bl.Rankings[0].Candidate, want)
		}
	}
}
