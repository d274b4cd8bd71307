package app_test

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"votedesk/app"
	"votedesk/localstore"
	"votedesk/tally/rla"
)

// These tests map what sharding the cloud log per election (issue 15;
// sync/doc.go, "Sharding beyond one partition") has to change in the rules
// before devices can apply each election's events in an order of their
// own. They replay a log with every kind of event (shardScopeLog) and
// state, as lists that must stay as they are until the rules change, what
// crosses between an election's shard and the rest today.

// recTx records the keys each applied event reads and writes, and the last
// value written under each key (nil: deleted).
type recTx struct {
	app.Tx
	reads, writes map[string]bool
	last          map[string]app.Item
}

func newRecTx(tx app.Tx) *recTx { return &recTx{Tx: tx, last: map[string]app.Item{}} }

func (r *recTx) write(pk, sk string, it app.Item) {
	r.writes[pk+" | "+sk] = true
	r.last[pk+" | "+sk] = it
}
func (r *recTx) Get(pk, sk string) (app.Item, bool, error) {
	r.reads[pk+" | "+sk] = true
	return r.Tx.Get(pk, sk)
}
func (r *recTx) Put(it app.Item) error {
	r.write(it.PK(), it.SK(), slices.Clone(it))
	return r.Tx.Put(it)
}
func (r *recTx) PutNew(pk string, sks []string, item func(int) app.Item) error {
	return r.Tx.PutNew(pk, sks, func(i int) app.Item {
		it := item(i)
		r.write(pk, sks[i], slices.Clone(it))
		return it
	})
}
func (r *recTx) Delete(pk, sk string) error {
	r.write(pk, sk, nil)
	return r.Tx.Delete(pk, sk)
}
func (r *recTx) Query(pk, p string, fn func(app.Item) (bool, error)) error {
	r.reads[pk+" | "+p+"*"] = true
	return r.Tx.Query(pk, p, fn)
}
func (r *recTx) QueryAttr(pk, p, a string, fn func([]byte) (bool, error)) error {
	r.reads[pk+" | "+p+"*"] = true
	return r.Tx.QueryAttr(pk, p, a, fn)
}
func (r *recTx) QueryAttrs(pk, p string, as []string, fn func([]byte, [][]byte) (bool, error)) error {
	r.reads[pk+" | "+p+"*"] = true
	return r.Tx.QueryAttrs(pk, p, as, fn)
}
func (r *recTx) Partitions(p, sk string, fn func(app.Item) (bool, error)) error {
	r.reads[p+"* | "+sk] = true
	return r.Tx.Partitions(p, sk, fn)
}
func (r *recTx) ByGSI1(k string) (app.Item, bool, error) {
	r.reads["GSI1 "+k] = true
	return r.Tx.ByGSI1(k)
}

// scopeClass names an item key's kind, without its names and numbers:
// "ELECTION# | BALLOT#".
func scopeClass(k string) string {
	pk, sk, _ := strings.Cut(k, " | ")
	cut := func(s string) string {
		if i := strings.IndexAny(s, "#/"); i >= 0 {
			s = s[:i+1]
		}
		if strings.ContainsAny(s, "0123456789") {
			return "{key}"
		}
		return s
	}
	return cut(pk) + " | " + cut(sk)
}

// shardScopeLog runs commands of every kind, on this device and (a
// duplicate ballot, a ballot after the close) as if from another, and
// returns the log.
func shardScopeLog(t *testing.T) []*app.Event {
	e := newEnv(t)
	yes, no := true, false
	desc := "re-described"
	e.must(e.svc.RegisterUser(e.ctx, "owner", "temp", "temp@example.org", "password-temp"))
	e.must(e.svc.SetRole(e.ctx, "owner", "temp", app.RoleAdmin))
	e.must(e.svc.RenameUser(e.ctx, "owner", "temp", "temp2"))
	e.must(e.svc.UpdateElection(e.ctx, "user", "Draft", 0, app.ElectionChanges{Description: &desc, AllowRecast: &yes}))
	e.must(e.svc.AddCandidates(e.ctx, "user", "Draft", "D"))
	e.must(e.svc.AddVoters(e.ctx, "user", "Draft", app.VoterEntry{Name: "v9", Email: "v9@example.org"}))
	e.must(e.svc.LaunchElection(e.ctx, "user", "Draft"))
	e.must(cast(e, "user", "Draft", "v1", "A", "B"))
	e.must(cast(e, "user", "Draft", "v1", "B"))
	e.must(cast(e, "voter", "Draft", "voter", "A"))
	e.must(cast(e, "user", "Draft", "", "C"))
	_ = e.svc.RemoveVoters(e.ctx, "user", "Draft", "v1")
	_ = e.svc.RemoveCandidates(e.ctx, "user", "Draft", "D")
	_ = e.svc.UpdateElection(e.ctx, "user", "Draft", 0, app.ElectionChanges{AllowRecast: &no})
	e.must(cast(e, "user", "Secret", "v2", "C"))
	_ = e.svc.UpdateElection(e.ctx, "user", "Secret", 0, app.ElectionChanges{Description: &desc})
	duplicateBallot(e)
	e.must(e.svc.ResolveConflict(e.ctx, "owner", "Open", conflictSeq(e), true, "the later one"))
	_, err := e.svc.ImportBallots(e.ctx, "user", "Open", app.SourceCVR, []app.ImportedBallot{{SourceID: "1", Rankings: rank("A")}}, nil)
	e.must(err)
	e.must(e.svc.CloseElection(e.ctx, "user", "Open"))
	el, err := e.svc.Election(e.ctx, "user", "Open")
	e.must(err)
	// Cast on a device that had not heard of the close: refused.
	_ = e.foreignEvent("user", app.EvBallotCast, map[string]any{"election": "Open", "election_id": el.ID, "voter": "v3",
		"confirmation": "11111111-2222-4333-8444-666666666666", "rankings": [][]string{{"B"}}, "source": "kiosk"})
	e.must(e.svc.FinalizeElection(e.ctx, "user", "Open"))
	e.must(e.svc.CreateElection(e.ctx, "user", "Gone", "", false))
	e.must(e.svc.DeleteElection(e.ctx, "user", "Gone"))
	e.must(e.svc.RemoveUser(e.ctx, "temp2", "temp2"))
	ae := newAuditElection(t, e, 50)
	au, err := e.svc.StartAudit(e.ctx, "user", ae.name, app.AuditSetup{Kind: rla.Comparison, RiskLimit: 0.05, Seed: auditSeed, Manifest: ae.manifest})
	e.must(err)
	ae.readAll(t, e, au.ID)
	_, _ = e.svc.NextAuditRound(e.ctx, "user", ae.name, au.ID, 5)
	e.must(e.svc.RenameElection(e.ctx, "user", "Secret", "Secret2"))
	e.must(e.svc.RegisterUser(e.ctx, "owner", "late", "late@example.org", "password-late"))
	_ = e.svc.RenameUser(e.ctx, "owner", "late", "v2")

	var evs []*app.Event
	e.must(e.store.View(e.ctx, func(tx app.Tx) error {
		return tx.Events(1, func(ev *app.Event) (bool, error) {
			c := *ev
			evs = append(evs, &c)
			return true, nil
		})
	}))
	return evs
}

// replayInto replays evs into a new database through a recTx, calling
// each(ev, r) after each event.
func replayInto(t *testing.T, evs []*app.Event, each func(*app.Event, *recTx)) *recTx {
	t.Helper()
	st, err := localstore.Open(filepath.Join(t.TempDir(), "replay.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var rec *recTx
	err = st.Update(t.Context(), func(tx app.Tx) error {
		rec = newRecTx(tx)
		for _, ev := range evs {
			rec.reads, rec.writes = map[string]bool{}, map[string]bool{}
			if _, err := app.Replay(rec, ev); err != nil {
				return err
			}
			each(ev, rec)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// TestShardScopes: with an election's ballot events (BallotCast,
// BallotRankingsChanged, BallotsImported, AuditBallotRead) in its own
// shard and everything else in the global one, the items events of
// another shard also write, or read, though the election's shard writes
// them. A device that holds only some shards can apply each shard's events
// alone only once this list is empty (or what remains is ordered by the
// global watermark and read by no device without the shard).
func TestShardScopes(t *testing.T) {
	evs := shardScopeLog(t)
	shardOf := func(ev *app.Event) string {
		switch ev.Type {
		case app.EvBallotCast, app.EvBallotRankingsChanged, app.EvBallotsImported, app.EvAuditBallotRead:
			var d struct {
				ID string `json:"election_id"`
			}
			if err := json.Unmarshal(ev.Data, &d); err != nil || d.ID == "" {
				t.Fatalf("%s names no election id: %v", ev.Type, err)
			}
			return "election " + d.ID
		}
		return "global"
	}
	type use struct{ r, w map[string]string } // shard -> an event type
	uses := map[string]*use{}
	replayInto(t, evs, func(ev *app.Event, r *recTx) {
		s := shardOf(ev)
		for _, m := range []struct {
			keys map[string]bool
			w    bool
		}{{r.reads, false}, {r.writes, true}} {
			for k := range m.keys {
				if uses[k] == nil {
					uses[k] = &use{map[string]string{}, map[string]string{}}
				}
				if m.w {
					uses[k].w[s] = string(ev.Type)
				} else {
					uses[k].r[s] = string(ev.Type)
				}
			}
		}
	})
	crossing := map[string]map[string]bool{} // class -> what crosses
	for k, u := range uses {
		for s, typ := range u.w {
			if s == "global" {
				continue
			}
			for s2, typ2 := range u.w {
				if s2 != s {
					add(crossing, scopeClass(k), fmt.Sprintf("written by %s and %s", typ, typ2))
				}
			}
			for s2, typ2 := range u.r {
				if s2 != s {
					add(crossing, scopeClass(k), fmt.Sprintf("written by %s, read by %s", typ, typ2))
				}
			}
		}
	}
	got := map[string]string{}
	for class, what := range crossing {
		got[class] = summary(what)
	}
	want := map[string]string{
		// The ballot count, last change and sealing are kept on the
		// election's item, which its lifecycle events write and read.
		"ELECTION# | METADATA": "read and written across",
		// Sealing (a secret election's first ballot) updates the
		// election's history item.
		"ELECTIONID# | METADATA": "read and written across",
		// A rename moves the ballots; resolving a duplicate ballot
		// reads and changes them.
		"ELECTION# | BALLOT#": "read and written across",
		// A duplicate ballot's conflict, resolved by a global event.
		"ELECTION# | CONFLICT#": "read and written across",
		// The projection's checkpoint, one for the whole log.
		"METADATA | SYNC": "written across",
	}
	if !reflect.DeepEqual(got, want) {
		for class, what := range crossing {
			var l []string
			for w := range what {
				l = append(l, w)
			}
			sort.Strings(l)
			t.Logf("%s:\n  %s", class, strings.Join(l, "\n  "))
		}
		t.Errorf("what crosses between shards:\n got  %v\n want %v", got, want)
	}
}

func add(m map[string]map[string]bool, k, v string) {
	if m[k] == nil {
		m[k] = map[string]bool{}
	}
	m[k][v] = true
}

func summary(what map[string]bool) string {
	var r, w bool
	for x := range what {
		r = r || strings.Contains(x, "read by")
		w = w || strings.Contains(x, " and ")
	}
	switch {
	case r && w:
		return "read and written across"
	case r:
		return "read across"
	}
	return "written across"
}

// TestLocalSequenceInProjection: the items whose keys or values carry the
// number an event has in this device's log. With one log every device
// numbers events alike; with shards, devices that interleave two
// elections' events differently would number them differently, so each of
// these must come to carry a place in a shard instead (or every device
// must merge the shards in one order). The same log is replayed twice, the
// second time with every event renumbered, and the projections compared.
func TestLocalSequenceInProjection(t *testing.T) {
	evs := shardScopeLog(t)
	a := replayInto(t, evs, func(*app.Event, *recTx) {})
	shifted := make([]*app.Event, len(evs))
	for i, ev := range evs {
		c := *ev
		c.Seq += 1000
		shifted[i] = &c
	}
	b := replayInto(t, shifted, func(*app.Event, *recTx) {})
	differ := map[string]bool{}
	var detail []string
	for k, it := range a.last {
		if other, ok := b.last[k]; !ok || !reflect.DeepEqual(it, other) {
			if ok && !differ[scopeClass(k)] {
				for _, at := range it {
					if v, _ := other.Get(at.Name); !reflect.DeepEqual(v, at.Value) {
						detail = append(detail, fmt.Sprintf("%s: %s %v -> %v", k, at.Name, at.Value, v))
					}
				}
			}
			differ[scopeClass(k)] = true
		}
	}
	for k := range b.last {
		if _, ok := a.last[k]; !ok {
			differ[scopeClass(k)] = true
		}
	}
	var got []string
	for c := range differ {
		got = append(got, c)
	}
	sort.Strings(got)
	want := []string{
		"DEVICE# | METADATA",     // first_seq
		"ELECTION# | CONFLICT#",  // CONFLICT#{seq}, and its seq
		"ELECTIONID# | METADATA", // created_seq, deleted_seq
		"ELECTIONNAME# | {key}",  // {created seq}: which election a name meant when
		"METADATA | FORMAT",      // signed_since
		"METADATA | SYNC",        // last_event_id
		"REJECTED | {key}",       // {seq}
		"SEEN | {key}",           // a replay key's seq
	}
	if !slices.Equal(got, want) {
		t.Errorf("items that carry local sequence numbers:\n got  %q\n want %q\n%s", got, want, strings.Join(detail, "\n"))
	}
}
