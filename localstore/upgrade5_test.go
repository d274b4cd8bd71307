package localstore

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"

	"votedesk/app"
)

// TestOpensADatabaseOfLayoutVersion5: a file of layout version 5 has no
// poll-book name index, neither its bucket nor images in the undo records of
// its pending events. Unopened (a backup), it verifies; opening it keeps a
// copy byte for byte and makes the index, the state hash unchanged. The
// pending events' undo records do not hold the index: a pull that sets them
// aside (another device's voter of the same name came first, so this
// device's addition is refused) makes it again, and leaves an index that
// verifies; the refusal is the rules' ("already in the poll book"). A sync
// setting nothing reads any more (in_flight) goes in the upgrade.
func TestOpensADatabaseOfLayoutVersion5(t *testing.T) {
	ctx := context.Background()
	a, b, sa, sb := syncFixture(t)
	must(t, sa.CreateElection(ctx, "olga", "Council", "", false))
	must(t, sa.AddVoters(ctx, "olga", "Council", app.VoterEntry{Name: "Ann Lee"}, app.VoterEntry{Name: "Bob Roe"}))
	common := pending(t, a)
	must(t, a.ConfirmPushed(ctx, common))
	_, err := b.Integrate(ctx, common)
	must(t, err)
	// B, offline: a voter added and one removed, pending.
	must(t, sb.AddVoters(ctx, "olga", "Council", app.VoterEntry{Name: "Zed Poe"}))
	must(t, sb.RemoveVoters(ctx, "olga", "Council", "Bob Roe"))
	// A, meanwhile: the same voter, in other letters; A's reaches the log
	// first.
	must(t, sa.AddVoters(ctx, "olga", "Council", app.VoterEntry{Name: "zed poe"}))
	fromA := pending(t, a)
	must(t, a.ConfirmPushed(ctx, fromA))

	path := b.Path()
	wantHash := hash(t, b)
	must(t, b.Close())
	db, err := bolt.Open(path, 0o600, nil)
	must(t, err)
	indexed, images := 0, 0
	isIndex := func(k []byte) bool { return bytes.HasPrefix(k, []byte(app.PrefixVoterNames)) }
	err = db.Update(func(btx *bolt.Tx) error {
		indexed = btx.Bucket(bucketNames).Stats().KeyN
		if err := btx.DeleteBucket(bucketNames); err != nil {
			return err
		}
		undo := btx.Bucket(bucketUndo)
		records := map[string][]byte{}
		err = undo.ForEach(func(k, v []byte) error {
			imgs, err := undoImages(getSeq(k), v)
			if err != nil {
				return err
			}
			var rec, last []byte
			for _, img := range imgs {
				if isIndex(img.key) {
					images++
					continue
				}
				rec, last = appendImage(rec, last, img.key, img.old)
			}
			records[string(k)] = rec
			return nil
		})
		if err != nil {
			return err
		}
		for k, v := range records {
			if err := undo.Put([]byte(k), v); err != nil {
				return err
			}
		}
		if err := btx.Bucket(bucketDevice).Put([]byte(syncKeyPrefix+"in_flight"), []byte(`{"shard":"ELECTION#x"}`)); err != nil {
			return err
		}
		return btx.Bucket(bucketDevice).Put(keyFormat, []byte(formatNoIndex5))
	})
	must(t, err)
	must(t, db.Close())
	if indexed != 11 || images != 2 {
		t.Fatalf("the file held %d index items (want 9 voters of Mayor and 2 of Council) and its undo records %d images of them (want 2)", indexed, images)
	}
	st, _ := openOlderLayout(t, path, formatNoIndex5)
	if got := hash(t, st); got != wantHash {
		t.Errorf("the state hash changed in the upgrade")
	}
	verified(t, st, "after the upgrade")
	if _, ok, err := st.SyncSetting(ctx, "in_flight"); ok || err != nil {
		t.Errorf("the upgrade left the sync setting in_flight, which nothing reads (%v)", err)
	}

	if _, err := st.Integrate(ctx, fromA); err != nil {
		t.Fatal(err)
	}
	verified(t, st, "after the pull that set the pending events aside")
	err = st.db.View(func(btx *bolt.Tx) error {
		if btx.Bucket(bucketDevice).Get(keyNamesBehind) != nil {
			t.Error("the pull made the index again, but still notes events whose undo records lack it")
		}
		return nil
	})
	must(t, err)
	svc := app.NewService(st, nil, nil)
	if got := pollBook(t, svc, "Council"); got != "Ann Lee,zed poe" {
		t.Errorf("the poll book after the pull: %q, want Ann Lee and A's zed poe (B's Zed Poe refused, Bob Roe removed)", got)
	}
	err = svc.AddVoters(ctx, "olga", "Council", app.VoterEntry{Name: "ZED  POE"})
	if err == nil || !strings.Contains(err.Error(), `(as "zed poe")`) {
		t.Errorf("adding ZED  POE again: %v", err)
	}
}

// openOlderLayout checks the file at path, of the layout version format
// (older than this one), unopened, then opens it: it must verify first,
// and the upgrade must keep it byte for byte beside it. It returns the
// store, closed when the test ends, and the file's size before.
func openOlderLayout(t *testing.T, path, format string) (*Store, int) {
	t.Helper()
	before, err := os.ReadFile(path)
	must(t, err)
	if r, err := CheckFile(context.Background(), path); err != nil || !r.OK() {
		t.Fatalf("the file of layout version %s, unopened: %+v %v", format, r, err)
	}
	st, err := Open(path)
	must(t, err)
	t.Cleanup(func() { st.Close() })
	next, _ := strconv.Atoi(format)
	kept := st.Upgraded()
	if raw, err := os.ReadFile(kept); !strings.HasPrefix(kept, fmt.Sprintf("%s.before-format-%d-", path, next+1)) || err != nil || !bytes.Equal(raw, before) {
		t.Fatalf("the upgrade kept the old file as %q, not byte for byte (%v)", kept, err)
	}
	return st, len(before)
}

// TestOpensADatabaseOfLayoutVersion6: a version 6 file holds no chunks of
// imported ballots and needs nothing but its new version, which keeps
// VoteDesks that do not know chunks from opening it: no copy is kept, the
// projection is unchanged, and a file of a later version is refused.
func TestOpensADatabaseOfLayoutVersion6(t *testing.T) {
	ctx := context.Background()
	a, _, sa, _ := syncFixture(t)
	cast(t, sa, "v1", "Kiss")
	path := a.Path()
	wantHash := hash(t, a)
	must(t, a.Close())
	setFormat := func(f string) {
		db, err := bolt.Open(path, 0o600, nil)
		must(t, err)
		must(t, db.Update(func(btx *bolt.Tx) error { return btx.Bucket(bucketDevice).Put(keyFormat, []byte(f)) }))
		must(t, db.Close())
	}
	setFormat(formatNoChunks6)
	st, err := Open(path)
	must(t, err)
	if st.Upgraded() != "" {
		t.Errorf("the upgrade from 6 kept a copy, %s: it changes nothing but the version", st.Upgraded())
	}
	if got := hash(t, st); got != wantHash {
		t.Errorf("state hash %s after the upgrade, %s before", got, wantHash)
	}
	must(t, st.db.View(func(btx *bolt.Tx) error {
		if f := string(btx.Bucket(bucketDevice).Get(keyFormat)); f != formatVersion {
			t.Errorf("layout version %s after the upgrade, want %s", f, formatVersion)
		}
		return nil
	}))
	r, err := st.Verify(ctx)
	must(t, err)
	if !r.OK() {
		t.Errorf("verify: %v", r.Problems)
	}
	must(t, st.Close())
	setFormat("8")
	if _, err := Open(path); err == nil || !strings.Contains(err.Error(), "layout version 8; this VoteDesk reads versions 1 to 7") {
		t.Errorf("a file of layout version 8 opened: %v", err)
	}
}
