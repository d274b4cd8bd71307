package localstore

import (
	"context"
	"testing"

	bolt "go.etcd.io/bbolt"

	"votedesk/app"
)

// TestCache: values kept beside the projection, read back in key order,
// dropped one by one with nil, and all of them when the projection is
// replayed; a file that never cached anything reads as empty.
func TestCache(t *testing.T) {
	s := MustOpenStore(t)
	ctx := context.Background()
	keys := func() (out []string) {
		t.Helper()
		err := s.View(ctx, func(tx app.Tx) error {
			return tx.EachCached(func(k string, v []byte) (bool, error) {
				out = append(out, k+"="+string(v))
				return true, nil
			})
		})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	if got := keys(); len(got) != 0 {
		t.Fatalf("a new file caches %v", got)
	}
	before, err := s.StateHash(ctx)
	if err != nil {
		t.Fatal(err)
	}
	err = s.Update(ctx, func(tx app.Tx) error {
		for _, kv := range [][2]string{{"b", "2"}, {"a", "1"}, {"c", "3"}} {
			if err := tx.Cache(kv[0], []byte(kv[1])); err != nil {
				return err
			}
		}
		return tx.Cache("c", nil)
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := keys(); len(got) != 2 || got[0] != "a=1" || got[1] != "b=2" {
		t.Fatalf("cached %v, want [a=1 b=2]", got)
	}
	if after, err := s.StateHash(ctx); err != nil || after != before {
		t.Errorf("caching changed the state hash: %s -> %s (%v)", before, after, err)
	}
	_ = s.View(ctx, func(tx app.Tx) error {
		if v, err := tx.Cached("a"); err != nil || string(v) != "1" {
			t.Errorf("Cached(a) = %q, %v", v, err)
		}
		if v, err := tx.Cached("zz"); err != nil || v != nil {
			t.Errorf("Cached(zz) = %q, %v", v, err)
		}
		return nil
	})
	if _, err := s.Rebuild(ctx); err != nil {
		t.Fatal(err)
	}
	if got := keys(); len(got) != 0 {
		t.Errorf("a rebuild kept %v", got)
	}
	// Replaying for an upgrade (migrate) drops it too.
	if err := s.Update(ctx, func(tx app.Tx) error { return tx.Cache("d", []byte("4")) }); err != nil {
		t.Fatal(err)
	}
	if err := s.db.Update(func(btx *bolt.Tx) error { return s.replayAll(btx, true) }); err != nil {
		t.Fatal(err)
	}
	if got := keys(); len(got) != 0 {
		t.Errorf("a replay kept %v", got)
	}
}
