package localstore

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"

	"votedesk/app"
)

// TestOpensADatabaseOfLayoutVersion2 opens a database of layout version 2
// (testdata/README.md), whose replay keys sit under their hashes alone:
// never synced, so every event is pending and the projection is rebuilt;
// and as a device that had synced all of it would hold it, rebuilt as
// well (the rules changed since: see migrate). Either way the database verifies, keeps its log,
// holds every replay key where this version looks for it, and still
// refuses a replayed event; a backup of that layout verifies unopened.
func TestOpensADatabaseOfLayoutVersion2(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name           string
		synced, forged bool
	}{{"Pending", false, false}, {"Synced", true, false}, {"SyncedForgedKey", true, true}} {
		synced := c.synced
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "votes.db")
			if err := os.WriteFile(path, Gunzip(t, "testdata/format2.db.gz"), 0o600); err != nil {
				t.Fatal(err)
			}
			if synced {
				db, err := bolt.Open(path, 0o600, nil)
				if err != nil {
					t.Fatal(err)
				}
				err = db.Update(func(btx *bolt.Tx) error {
					if err := putUint(btx.Bucket(bucketDevice), keyConfirmed, 20); err != nil {
						return err
					}
					if err := btx.DeleteBucket(bucketUndo); err != nil {
						return err
					}
					if _, err := btx.CreateBucket(bucketUndo); err != nil {
						return err
					}
					// Every item waits for the cloud projection, marked as
					// version 2 marked it (key: the item's; value: the
					// event's sequence number).
					dirty := btx.Bucket(bucketDirty)
					err := btx.Bucket(bucketData).ForEach(func(k, _ []byte) error {
						return dirty.Put(bytes.Clone(k), seqBytes(20))
					})
					if err != nil {
						return err
					}
					if !c.forged {
						return nil
					}
					// A replay key that names another event than its own:
					// the upgrade rebuilds from the log.
					k, v := btx.Bucket(bucketData).Cursor().Seek([]byte(app.PKSeen + "\x00"))
					it, err := decodeItem(k, v)
					if err != nil {
						return err
					}
					it.Set("seq", app.N(it.Int("seq")%20+1))
					return btx.Bucket(bucketData).Put(k, encodeItem(nil, it))
				})
				db.Close()
				if err != nil {
					t.Fatal(err)
				}
			}
			if r, err := CheckFile(ctx, path); err != nil || !r.OK() || r.Events != 20 {
				t.Fatalf("the file of layout version 2, unopened: %+v %v", r, err)
			}
			before, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			st, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			// The file as it was is kept beside it, and still checks.
			kept := st.Upgraded()
			if raw, err := os.ReadFile(kept); !strings.HasPrefix(kept, path+".before-format-3-") || err != nil || !bytes.Equal(raw, before) {
				t.Fatalf("the upgrade kept the old file as %q, not byte for byte (%v)", kept, err)
			}
			if r, err := CheckFile(ctx, kept); err != nil || !r.OK() {
				t.Errorf("the kept file: %+v %v", r, err)
			}
			if r, err := st.Verify(ctx); err != nil || !r.OK() {
				t.Fatalf("the upgraded database does not verify: %+v %v", r, err)
			}
			var format string
			var evs []*app.Event
			err = st.View(ctx, func(t app.Tx) error {
				format = string(t.(*tx).dev.Get(keyFormat))
				return t.Events(1, func(ev *app.Event) (bool, error) {
					evs = append(evs, ev)
					return true, nil
				})
			})
			if err != nil {
				t.Fatal(err)
			}
			if format != formatVersion || len(evs) < 20 || evs[19].Hash != "d6c88370fcd48ca4acdb8a9ce05109b5c0bf7e9e7991b9d34e588e988e66fdb0" {
				t.Fatalf("layout %s, %d events", format, len(evs))
			}
			// Every signed event's replay key is where this version looks.
			err = st.View(ctx, func(tx app.Tx) error {
				n := 0
				err := tx.Query(app.PKSeen, "", func(app.Item) (bool, error) { n++; return true, nil })
				for _, ev := range evs {
					if _, ok, err := tx.Get(app.PKSeen, app.SeenSK(ev)); err != nil || !ok {
						t.Errorf("event %d's replay key is not at %s (%v)", ev.Seq, app.SeenSK(ev), err)
					}
				}
				if n != len(evs) {
					t.Errorf("%d replay keys for %d signed events", n, len(evs))
				}
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			if synced {
				// The marks moved: the cloud projection still needs every
				// item it needed, but the replay keys, which it leaves out.
				var items, marks int
				err := st.db.View(func(btx *bolt.Tx) error {
					return btx.Bucket(bucketData).ForEach(func(k, _ []byte) error {
						if pk, _, _ := bytes.Cut(k, []byte{0}); !app.LocalPartition(string(pk)) && !bytes.HasPrefix(k, []byte("DEVICE#")) {
							items++
						}
						return nil
					})
				})
				if err != nil {
					t.Fatal(err)
				}
				err = st.db.View(func(btx *bolt.Tx) error {
					return btx.Bucket(bucketDirty).ForEach(func(k, v []byte) error {
						if pk, _, _ := bytes.Cut(k[min(8, len(k)):], []byte{0}); len(v) != 0 || len(k) <= 8 || app.LocalPartition(string(pk)) {
							t.Errorf("a cloud_dirty mark %q = %x", k, v)
						}
						marks++
						return nil
					})
				})
				if err != nil {
					t.Fatal(err)
				}
				_, puts, deletes, err := st.CloudDelta(ctx, 19)
				// (The upgrade rebuilds, which marks again what every
				// confirmed event changed, items since deleted too: those
				// are deletes.)
				if err != nil || len(puts) < items {
					t.Errorf("the cloud projection needs %d items and %d deletes after the upgrade, want at least %d items (%d marks): %v", len(puts), len(deletes), items, marks, err)
				}
				for _, d := range deletes {
					err := st.View(ctx, func(tx app.Tx) error {
						if _, ok, err := tx.Get(d.PK(), d.SK()); err != nil || ok {
							t.Errorf("the cloud projection is to delete %s / %s, which the database holds (%v)", d.PK(), d.SK(), err)
						}
						return nil
					})
					if err != nil {
						t.Fatal(err)
					}
				}
			}
			// A ballot cast before the upgrade, sent again, is a replay.
			undo := errors.New("roll back")
			var refusal error
			err = st.Update(ctx, func(tx app.Tx) error {
				again := *evs[6]
				again.Seq = uint64(len(evs) + 1)
				if again.Type != app.EvBallotCast {
					t.Fatalf("event 7 is %s", again.Type)
				}
				refusal, err = app.Replay(tx, &again)
				if err != nil {
					return err
				}
				return undo
			})
			if !errors.Is(err, undo) || refusal == nil || !strings.Contains(refusal.Error(), "a replay") {
				t.Errorf("event 7 sent again: %v %v", refusal, err)
			}
		})
	}
}

// Gunzip returns the contents of a gzipped test file (the upgrade tests'
// databases of earlier layouts).
func Gunzip(t *testing.T, path string) []byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
