package localstore

import (
	"bytes"
	"context"
	"os"
	"testing"

	bolt "go.etcd.io/bbolt"

	"votedesk/app"
)

// TestOpensADatabaseOfLayoutVersion4: a file of layout version 4 spells out
// every attribute name, in its items and its undo records. Unopened (a
// backup), it verifies; opening it keeps a copy byte for byte and writes
// every item and before-image as version 5 does, the state unchanged (the
// same state hash as before the names were spelled out); a ballot cast
// afterwards is written the new way; the database verifies, and rebuilds
// alike.
func TestOpensADatabaseOfLayoutVersion4(t *testing.T) {
	ctx := context.Background()
	b, _, _, _ := duplicateAccepted(t)
	path := b.Path()
	wantHash := hash(t, b)
	must(t, b.Close())
	db, err := bolt.Open(path, 0o600, nil)
	must(t, err)
	items := 0
	err = db.Update(func(btx *bolt.Tx) error {
		data := btx.Bucket(bucketData)
		spelled := map[string][]byte{}
		err := data.ForEach(func(k, v []byte) error {
			it, err := decodeItem(k, v)
			if err != nil {
				return err
			}
			spelled[string(k)] = encodeItemSpelled(it)
			return nil
		})
		if err != nil {
			return err
		}
		for k, v := range spelled {
			if err := data.Put([]byte(k), v); err != nil {
				return err
			}
			items++
		}
		spell := func(k, v []byte) []byte {
			it, err := decodeItem(k, v)
			if err != nil {
				t.Fatal(err)
			}
			return encodeItemSpelled(it)
		}
		undo := btx.Bucket(bucketUndo)
		records := map[string][]byte{}
		err = undo.ForEach(func(k, v []byte) error {
			if w := rewriteUndo(k, v, spell); !bytes.Equal(w, v) {
				records[string(k)] = w
			}
			return nil
		})
		if err != nil {
			return err
		}
		if len(records) == 0 {
			t.Fatal("no undo record holds a before-image to spell out")
		}
		for k, v := range records {
			if err := undo.Put([]byte(k), v); err != nil {
				return err
			}
		}
		return btx.Bucket(bucketDevice).Put(keyFormat, []byte(formatNames4))
	})
	must(t, err)
	must(t, db.Close())
	st, before := openOlderLayout(t, path, formatNames4)
	if fi, err := os.Stat(path); err != nil || fi.Size() > int64(before) {
		t.Errorf("the upgraded file takes %d bytes, the file before it %d: written again in place, not beside (%v)", fi.Size(), before, err)
	}
	if got := hash(t, st); got != wantHash {
		t.Errorf("the projection read back differs after the upgrade")
	}
	// Every item and every before-image is written as version 5 writes
	// it: the bytes a device that applied the log under it holds.
	spelledLeft := 0
	err = st.db.View(func(btx *bolt.Tx) error {
		if f := string(btx.Bucket(bucketDevice).Get(keyFormat)); f != formatVersion {
			t.Errorf("layout version %s after the upgrade", f)
		}
		err := btx.Bucket(bucketData).ForEach(func(k, v []byte) error {
			if !bytes.Equal(v, respelled(k, v)) {
				spelledLeft++
			}
			return nil
		})
		if err != nil {
			return err
		}
		return btx.Bucket(bucketUndo).ForEach(func(k, v []byte) error {
			if !bytes.Equal(v, respellUndo(k, v)) {
				spelledLeft++
			}
			return nil
		})
	})
	must(t, err)
	if spelledLeft != 0 || items == 0 {
		t.Errorf("%d items and undo records of %d are written as version 4 wrote them after the upgrade", spelledLeft, items)
	}
	svc := app.NewService(st, nil, nil)
	_, err = svc.CastBallot(ctx, "olga", app.Cast{Election: "Mayor", Voter: "v2", Rankings: []app.Ranking{{Candidate: "Kiss", Rank: 1}}})
	must(t, err)
	err = st.db.View(func(btx *bolt.Tx) error {
		k, v := btx.Bucket(bucketData).Cursor().Seek([]byte("ELECTION#Mayor\x00BALLOT#v2"))
		if !bytes.HasPrefix(k, []byte("ELECTION#Mayor\x00BALLOT#v2")) {
			t.Fatal("the new ballot is not stored")
		}
		if !bytes.Contains(v, []byte{0, attrIndex["rankings"]}) || bytes.Contains(v, []byte("rankings")) {
			t.Errorf("a ballot cast after the upgrade is written %q", v)
		}
		return nil
	})
	must(t, err)
	if r, err := st.Verify(ctx); err != nil || !r.OK() {
		t.Errorf("the upgraded database does not verify: %+v %v", r, err)
	}
	rebuildsAlike(t, st)
}
