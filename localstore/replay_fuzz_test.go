package localstore

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"votedesk/app"
)

var errRollback = errors.New("roll back")

// fuzzStore builds a small database with users of several roles, elections
// in every state and some ballots, and returns it with its events.
func fuzzStore(f *testing.F) (*Store, []*app.Event) {
	s, err := Open(filepath.Join(f.TempDir(), "fuzz.db"))
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { s.Close() })
	ctx := context.Background()
	svc := app.NewService(s, nil, nil)
	steps := []error{
		svc.RegisterUser(ctx, "", "owner", "owner@example.org", "owner-password"),
		svc.RegisterUser(ctx, "owner", "clerk", "clerk@example.org", "clerk-password"),
		svc.CreateElection(ctx, "clerk", "Draft", "", false),
		svc.AddCandidates(ctx, "clerk", "Draft", "A", "B"),
		svc.CreateElection(ctx, "clerk", "Open", "", true),
		svc.AddCandidates(ctx, "clerk", "Open", "A", "B", "C"),
		svc.AddVoters(ctx, "clerk", "Open", app.VoterEntry{Name: "v1"}, app.VoterEntry{Name: "v2"}),
		svc.LaunchElection(ctx, "clerk", "Open"),
	}
	_, castErr := svc.CastBallot(ctx, "clerk", app.Cast{Election: "Open", Voter: "v1", Rankings: []app.Ranking{{Candidate: "B", Rank: 1}}})
	for _, err := range append(steps, castErr) {
		if err != nil {
			f.Fatal(err)
		}
	}
	var events []*app.Event
	err = s.View(ctx, func(tx app.Tx) error {
		return tx.Events(1, func(ev *app.Event) (bool, error) {
			events = append(events, ev)
			return true, nil
		})
	})
	if err != nil {
		f.Fatal(err)
	}
	return s, events
}

// dump copies every item of the projection.
func dump(bs ...*bolt.Bucket) map[string]string {
	out := map[string]string{}
	for _, b := range bs {
		_ = b.ForEach(func(k, v []byte) error {
			out[string(k)] = string(v)
			return nil
		})
	}
	return out
}

// FuzzReplay feeds events of every type with arbitrary data and actors to
// the gate that sync uses: it must never panic or fail as a store, and an
// event it refuses may change nothing but its REJECTED record and the
// METADATA/SYNC position.
func FuzzReplay(f *testing.F) {
	s, events := fuzzStore(f)
	for _, ev := range events {
		f.Add(string(ev.Type), ev.Actor, []byte(ev.Data))
	}
	f.Add("BallotCast", "clerk", []byte(`{"election":"Open","voter":"v2","confirmation":"c","rankings":[["A"],["A"]],"source":"kiosk"}`))
	f.Add("BallotsImported", "clerk", []byte(`{"election":"Open","source":"cvr","ballots":[["1",[["A"]]],["2",[[],["C"]]]]}`))
	f.Add("ElectionUpdated", "clerk", []byte(`{"name":"Draft","base_version":1,"changes":{"tally_rules":{"numberOfWinners":"x"}}}`))
	f.Fuzz(func(t *testing.T, typ, actor string, data []byte) {
		ev := &app.Event{ID: "fuzz-0000000001", When: time.Date(2026, 11, 3, 12, 0, 0, 0, time.UTC), Actor: actor, Type: app.EventType(typ), Data: data}
		if ev.Check() != nil {
			return // sync refuses such an event before replaying it (app.DecodeEvent)
		}
		err := s.db.Update(func(btx *bolt.Tx) error {
			tx := newTx(btx)
			before := dump(tx.data, tx.names)
			if err := tx.AppendEvent(ev); err != nil {
				return err
			}
			refusal, err := app.Replay(tx, ev)
			if err != nil {
				t.Errorf("replay of %s %q failed as a store: %v", typ, data, err)
				return errRollback
			}
			if refusal == nil {
				return errRollback
			}
			if app.ErrorMessage(refusal) == "" {
				t.Errorf("refusal of %s %q has no message", typ, data)
			}
			after := dump(tx.data, tx.names)
			for k, v := range after {
				if before[k] != v && !bytes.HasPrefix([]byte(k), []byte("REJECTED\x00")) && k != "METADATA\x00SYNC" {
					t.Errorf("refused %s %q changed item %q", typ, data, k)
				}
			}
			for k := range before {
				if _, ok := after[k]; !ok {
					t.Errorf("refused %s %q deleted item %q", typ, data, k)
				}
			}
			return errRollback
		})
		if err != nil && !errors.Is(err, errRollback) {
			t.Fatalf("append %s: %v", typ, err)
		}
	})
}

// FuzzDecodeEvent: any bytes decode to a whole event or a clear error, and
// a decoded event encodes back to what decodes to the same event.
func FuzzDecodeEvent(f *testing.F) {
	_, events := fuzzStore(f)
	for _, ev := range events {
		b, _ := app.EncodeEvent(ev)
		f.Add(b)
	}
	f.Add([]byte(`{"seq":1,"id":"x","when":"2026-01-01T00:00:00Z","type":"Nope","data":{}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		ev, err := app.DecodeEvent(b)
		if err != nil {
			if app.ErrorMessage(err) == "" {
				t.Error("decode error without a message")
			}
			return
		}
		again, err := app.EncodeEvent(ev)
		if err != nil {
			t.Fatalf("decoded event does not encode: %v", err)
		}
		ev2, err := app.DecodeEvent(again)
		if err != nil || ev2.ID != ev.ID || ev2.Type != ev.Type || !ev2.When.Equal(ev.When) || ev2.Hash != ev.Hash {
			t.Errorf("event does not round-trip: %v", err)
		}
	})
}
