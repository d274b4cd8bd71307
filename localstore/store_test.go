package localstore

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"votedesk/app"
)

// MustOpenStore opens a fresh database in t.TempDir(), closed at cleanup.
func MustOpenStore(t testing.TB) *Store {
	t.Helper()
	s, err := Open(filepath.Join(t.TempDir(), "votedesk.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		checkConsistent(t, s)
		s.Close()
	})
	return s
}

// mustOpenRaw is MustOpenStore for a test that writes items straight into
// the projection, beside the log, to test the storage itself: such a
// database is not meant to verify.
func mustOpenRaw(t testing.TB) *Store {
	t.Helper()
	s, err := Open(filepath.Join(t.TempDir(), "votedesk.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// checkConsistent fails the test if s, at its end, does not verify (as
// bbolt's own test helper checks its file after every test); a store the
// test closed or damaged on purpose is left alone.
func checkConsistent(t testing.TB, s *Store) {
	t.Helper()
	if r, err := s.Verify(context.Background()); err == nil && !r.OK() {
		t.Errorf("the database does not verify after the test: %v", r.Problems)
	}
}

func TestSecondOpenFailsFast(t *testing.T) {
	s := MustOpenStore(t)
	begin := time.Now()
	_, err := Open(s.Path())
	took := time.Since(begin)
	if err == nil {
		t.Fatal("second open of the same file succeeded")
	}
	if app.ErrorCode(err) != app.CodeUnavailable || !strings.Contains(app.ErrorMessage(err), "already open by another VoteDesk") {
		t.Errorf("error = %v; want an unavailable error saying another VoteDesk has it open", err)
	}
	if took > 1500*time.Millisecond {
		t.Errorf("second open took %v; want about a second", took)
	}
}

func TestFileIsPrivate(t *testing.T) {
	s := MustOpenStore(t)
	fi, err := os.Stat(s.Path())
	if err != nil {
		t.Fatal(err)
	}
	if mode := fi.Mode().Perm(); mode != 0o600 {
		t.Errorf("database file mode = %o, want 600", mode)
	}
}

func put(t *testing.T, s *Store, items ...app.Item) {
	t.Helper()
	err := s.Update(context.Background(), func(tx app.Tx) error {
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
}

func item(pk, sk string, attrs ...string) app.Item {
	var it app.Item
	it.Set(app.AttrPK, app.S(pk))
	it.Set(app.AttrSK, app.S(sk))
	for i := 0; i+1 < len(attrs); i += 2 {
		it.Set(attrs[i], app.S(attrs[i+1]))
	}
	return it
}

func TestQueryIsOnePartitionPrefix(t *testing.T) {
	s := mustOpenRaw(t)
	put(t, s,
		item("ELECTION#A", "METADATA"), item("ELECTION#A", "CANDIDATE#x"), item("ELECTION#A", "CANDIDATE#y"),
		item("ELECTION#A", "VOTER#x"), item("ELECTION#AB", "CANDIDATE#z"), item("ELECTION#A", "CANDIDATE"))
	var got []string
	err := s.View(context.Background(), func(tx app.Tx) error {
		return tx.Query("ELECTION#A", "CANDIDATE#", func(it app.Item) (bool, error) {
			got = append(got, it.SK())
			return true, nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(got, ",") != "CANDIDATE#x,CANDIDATE#y" {
		t.Errorf("Query(ELECTION#A, CANDIDATE#) = %v", got)
	}
	var parts []string
	err = s.View(context.Background(), func(tx app.Tx) error {
		return tx.Partitions("ELECTION#", "METADATA", func(it app.Item) (bool, error) {
			parts = append(parts, it.PK())
			return true, nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(parts, ",") != "ELECTION#A" {
		t.Errorf("Partitions = %v, want only ELECTION#A (ELECTION#AB has no METADATA)", parts)
	}
}

func TestGSI1FollowsPutAndDelete(t *testing.T) {
	s := MustOpenStore(t)
	ctx := context.Background()
	put(t, s, item("USER#a", "METADATA", app.AttrGSI1PK, "a@x.org", app.AttrGSI1SK, "USER#a"))
	put(t, s, item("USER#a", "METADATA", app.AttrGSI1PK, "new@x.org", app.AttrGSI1SK, "USER#a"))
	lookup := func(email string) bool {
		var ok bool
		_ = s.View(ctx, func(tx app.Tx) (err error) {
			_, ok, err = tx.ByGSI1(email)
			return err
		})
		return ok
	}
	if lookup("a@x.org") || !lookup("new@x.org") {
		t.Error("GSI-1 did not follow the changed email")
	}
	_ = s.Update(ctx, func(tx app.Tx) error { return tx.Delete("USER#a", "METADATA") })
	if lookup("new@x.org") {
		t.Error("GSI-1 still finds a deleted item")
	}
}

func TestUndoRestoresBeforeImages(t *testing.T) {
	s := mustOpenRaw(t)
	ctx := context.Background()
	put(t, s, item("P", "keep", "v", "1"), item("P", "change", "v", "1", app.AttrGSI1PK, "g1", app.AttrGSI1SK, "s"), item("P", "drop", "v", "1"))
	before, _ := s.StateHash(ctx)
	var seq uint64
	err := s.Update(ctx, func(atx app.Tx) error {
		ev := &app.Event{ID: "d-1", When: time.Now(), Actor: "a", Type: app.EvElectionCreated, Data: []byte(`{}`)}
		if err := atx.AppendEvent(ev); err != nil {
			return err
		}
		seq = ev.Seq
		if err := atx.Put(item("P", "change", "v", "2", app.AttrGSI1PK, "g2", app.AttrGSI1SK, "s")); err != nil {
			return err
		}
		if err := atx.Put(item("P", "change", "v", "3")); err != nil {
			return err
		}
		if err := atx.Delete("P", "drop"); err != nil {
			return err
		}
		return atx.Put(item("P", "new", "v", "1"))
	})
	if err != nil {
		t.Fatal(err)
	}
	if mid, _ := s.StateHash(ctx); mid == before {
		t.Fatal("the event changed nothing")
	}
	err = s.Update(ctx, func(atx app.Tx) error { return atx.(*tx).rollback(seq) })
	if err != nil {
		t.Fatal(err)
	}
	if after, _ := s.StateHash(ctx); after != before {
		t.Error("rollback did not restore the projection")
	}
	_ = s.View(ctx, func(atx app.Tx) error {
		if _, ok, _ := atx.ByGSI1("g1"); !ok {
			t.Error("rollback did not restore the GSI-1 entry")
		}
		if _, ok, _ := atx.ByGSI1("g2"); ok {
			t.Error("rollback left a GSI-1 entry of the undone change")
		}
		return nil
	})
}

// TestPutNew: new items go in between existing ones with one walk; a taken
// key, or keys out of order, refuse them all with nothing stored.
func TestPutNew(t *testing.T) {
	s := mustOpenRaw(t)
	ctx := context.Background()
	put(t, s, item("E", "b"), item("E", "d"), item("F", "a"))
	putNew := func(sks ...string) error {
		return s.Update(ctx, func(tx app.Tx) error {
			return tx.PutNew("E", sks, func(i int) app.Item { return item("E", sks[i], "v", "new") })
		})
	}
	count := func() (n int, news int) {
		s.View(ctx, func(tx app.Tx) error {
			return tx.Query("E", "", func(it app.Item) (bool, error) {
				n++
				if it.Str("v") == "new" {
					news++
				}
				return true, nil
			})
		})
		return n, news
	}
	for _, sks := range [][]string{{"a", "b", "c"}, {"c", "d"}, {"e", "d2"}, {"d", "e"}, {"a", "a"}} {
		if err := putNew(sks...); err == nil {
			t.Errorf("PutNew%v: nothing refused", sks)
		}
		if n, news := count(); n != 2 || news != 0 {
			t.Errorf("after a refused PutNew%v: %d items, %d new", sks, n, news)
		}
	}
	if err := putNew("a", "c", "c2", "e"); err != nil {
		t.Fatalf("PutNew between existing items: %v", err)
	}
	if n, news := count(); n != 6 || news != 4 {
		t.Errorf("after PutNew: %d items, %d new; want 6 and 4", n, news)
	}
	err := s.Update(ctx, func(tx app.Tx) error {
		return tx.PutNew("E", []string{"f"}, func(int) app.Item { return item("E", "g") })
	})
	if err == nil {
		t.Error("an item under another key than announced was stored")
	}
	// New items are indexed in GSI-1 as Put indexes them.
	must(t, s.Update(ctx, func(tx app.Tx) error {
		return tx.PutNew("G", []string{"1", "2"}, func(i int) app.Item {
			return item("G", fmt.Sprint(i+1), app.AttrGSI1PK, fmt.Sprintf("mail%d@example.org", i+1))
		})
	}))
	must(t, s.View(ctx, func(tx app.Tx) error {
		it, ok, err := tx.ByGSI1("mail2@example.org")
		if err != nil || !ok || it.SK() != "2" {
			t.Errorf("GSI-1 lookup of a PutNew item: %v %v %v", it, ok, err)
		}
		return nil
	}))
}

// TestEmptyAttributeNameRefused: an attribute with an empty name (which
// DynamoDB refuses too) is not stored by Put or PutNew, and a stored value
// that spells a name out as empty is refused as corrupt, not read as the
// name index that a zero byte starts (a fuzzed value, kept in
// testdata/fuzz/FuzzDecodeItem, decoded and then stored again as another
// item).
func TestEmptyAttributeNameRefused(t *testing.T) {
	s := mustOpenRaw(t)
	ctx := context.Background()
	bad := item("E", "a", "", "x", "v", "y")
	if err := s.Update(ctx, func(tx app.Tx) error { return tx.Put(bad) }); err == nil || !strings.Contains(err.Error(), "no name") {
		t.Errorf("Put of an item with an empty attribute name: %v", err)
	}
	err := s.Update(ctx, func(tx app.Tx) error {
		return tx.PutNew("E", []string{"b"}, func(int) app.Item { return item("E", "b", "", "x") })
	})
	if err == nil || !strings.Contains(err.Error(), "no name") {
		t.Errorf("PutNew of an item with an empty attribute name: %v", err)
	}
	must(t, s.View(ctx, func(tx app.Tx) error {
		return tx.Query("E", "", func(it app.Item) (bool, error) {
			t.Errorf("stored: %v", it)
			return true, nil
		})
	}))
	// count 1, a name of length 0 (written in two bytes), an S of "".
	for _, v := range [][]byte{{1, 0x80, 0x00, 1, 0}, {1, 0x00}} {
		if it, err := decodeItem(sampleKey, v); err == nil {
			t.Errorf("value %x decoded as %v", v, it)
		}
		if _, err := findString(v, "x"); err == nil {
			t.Errorf("value %x searched without error", v)
		}
	}
}
