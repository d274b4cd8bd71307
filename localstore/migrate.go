package localstore

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"time"

	bolt "go.etcd.io/bbolt"

	"votedesk/app"
)

// migrate upgrades a file of an older layout, in place, in one
// transaction.
//
// Version 1 (written before events were signed and users and elections had
// ids): a copy is kept beside it first ("{file}.before-format-2-{time}").
// The log stays as it was, byte for byte: its events keep their hashes and
// replay by the rules they were made under. The projection is rebuilt from
// it, so it gains what later versions keep (account and election ids,
// history items, replay keys), and the undo records of pending events are
// made again to match. identify then gives the device its signing key.
//
// Version 2 (a copy is kept first too, "{file}.before-format-3-{time}")
// kept each replay key in the SEEN partition under the key's hash alone
// (app.SeenSK); the rebuild below puts them where they go now.
//
// Version 3 (a copy is kept first, "{file}.before-format-4-{time}") holds a
// projection made by rules corrected since: a signed event naming an
// election merged into another by its id was refused instead of acting on
// the election it joined (a kiosk's receipted ballot cast offline after the
// merge was lost from the count); accepting a duplicate ballot dropped the
// ballot it replaced instead of keeping it on the conflict; a receipted
// ballot whose election was deleted before it reached the log was kept
// nowhere (now on a conflict outside any election); a receipted ballot cast
// in the name of an official whose role was taken away, password changed
// (a new signing key) or account removed earlier in the log was dropped
// (now kept for officials to decide; the keys an account had are kept to
// tell such a ballot from a forgery), and so was a voter's
// refused change of their ballot; a refused ballot whose voter had voted
// again could not be accepted; and an election whose
// only records were such receipts could be deleted with them. The log is
// unchanged; the projection is rebuilt from it by the rules as they are, as
// for version 1, and marked for the cloud projection.
//
// Version 4 (a copy is kept first, "{file}.before-format-5-{time}") spells
// out every attribute name in every item; version 5 writes the common ones
// as two bytes (codec.go, attrNames). Every item, and every before-image
// of an undo record, is written again the new way, into a copy of the file
// that then takes its place (respellFile): the same attributes, so the
// projection is unchanged, but the bytes are those a device that applied
// the same log under version 5 holds, which the state hash and verify
// compare. A file of 1,000,000 imported ballots: 551 MB before, 441 MB
// after, 4.7 s once. It then goes on as a version 5 file.
//
// Version 5 (a copy is kept first, "{file}.before-format-6-{time}") has no
// poll-book name index (app/voter_names.go). indexPollBooks makes it, in
// one transaction, from every voter of the projection.
//
// Version 6 holds no chunks of imported ballots (app/ballot_chunk.go): an
// import event of format 3 stores them. Nothing in the file changes; the
// version only keeps VoteDesks that do not know chunks from opening a file
// that may hold them (they would read a chunk as one ballot).
func (s *Store) migrate(now time.Time) error {
	var format string
	_ = s.db.View(func(btx *bolt.Tx) error {
		format = string(btx.Bucket(bucketDevice).Get(keyFormat))
		return nil
	})
	upgradeError := func(err error) error {
		return fmt.Errorf("localstore: upgrade %s from layout version %s to %s (it is kept as it was in %s): %w", s.path, format, formatVersion, s.kept, err)
	}
	if format == formatNames4 {
		if err := s.respellFile(); err != nil {
			return upgradeError(err)
		}
		format = formatNoIndex5
	}
	if format == formatNoIndex5 {
		if err := s.db.Update(indexPollBooks); err != nil {
			return upgradeError(err)
		}
		return nil
	}
	if format == formatNoChunks6 {
		err := s.db.Update(func(btx *bolt.Tx) error { return btx.Bucket(bucketDevice).Put(keyFormat, []byte(formatVersion)) })
		if err != nil {
			return upgradeError(err)
		}
		return nil
	}
	if format != formatLegacy && format != formatSeenByHash && format != formatRules3 {
		return nil
	}
	err := s.db.Update(func(btx *bolt.Tx) error {
		if err := moveDirtyMarks(btx); err != nil {
			return err
		}
		// Every older version's projection was made by rules corrected
		// since (version 3 below): the log decides, replayed as the rules
		// are now.
		if err := s.replayAll(btx, true); err != nil {
			return err
		}
		return btx.Bucket(bucketDevice).Put(keyFormat, []byte(formatVersion))
	})
	if err != nil {
		return upgradeError(err)
	}
	return nil
}

// indexPollBooks upgrades a version 5 file's projection to version 6, and
// so to the current version (nothing else differs): the poll books' name
// index made (app.IndexPollBooks) for the projection as it is. The undo
// records of events still pending hold no images of it, and making them
// (rolling those events back and applying them again, in one transaction)
// took 200 s for a roll of 500,000 never synced; so the last such event
// is noted instead (keyNamesBehind), and a pull that sets any of them
// aside makes the index again for what it rolled back to
// (reindexAfterRollback).
func indexPollBooks(btx *bolt.Tx) error {
	t := newTx(btx)
	if err := app.IndexPollBooks(t); err != nil {
		return err
	}
	if head := lastSeq(t.log); head > getUint(t.dev, keyConfirmed) {
		if err := t.dev.Put(keyNamesBehind, seqBytes(head)); err != nil {
			return err
		}
	}
	// A sync setting that versions of 2026-11-27 and 28 wrote and nothing
	// reads since (a run noted before its append to an election's shard).
	if err := t.dev.Delete([]byte(syncKeyPrefix + "in_flight")); err != nil {
		return err
	}
	return t.dev.Put(keyFormat, []byte(formatVersion))
}

// reindexAfterRollback makes the poll books' name index again when the
// events a pull has just rolled back (from on) include one whose undo
// record has no images of it (indexPollBooks): the projection is then as
// the confirmed log left it, and so is the index made from it. The
// events applied next keep images as any.
func (t *tx) reindexAfterRollback(from uint64) error {
	behind := t.dev.Get(keyNamesBehind)
	if behind == nil || from > getSeq(behind) {
		return nil
	}
	if err := t.btx.DeleteBucket(bucketNames); err != nil {
		return err
	}
	names, err := t.btx.CreateBucket(bucketNames)
	if err != nil {
		return err
	}
	t.names = names
	saved := t.undoSeq
	t.undoSeq = 0
	defer func() { t.undoSeq = saved }()
	if err := app.IndexPollBooks(t); err != nil {
		return err
	}
	return t.dev.Delete(keyNamesBehind)
}

// moveDirtyMarks moves the cloud_dirty marks of layout version 2 (key: the
// item's key; value: the sequence number) to this version's (key: the
// sequence number, then the item's key; value: empty). Local partitions,
// which the cloud projection leaves out, are no longer marked.
func moveDirtyMarks(btx *bolt.Tx) error {
	b := btx.Bucket(bucketDirty)
	if b == nil {
		return nil
	}
	var old [][2][]byte
	err := b.ForEach(func(k, v []byte) error {
		if len(v) == 8 {
			old = append(old, [2][]byte{bytes.Clone(k), bytes.Clone(v)})
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, kv := range old {
		if err := b.Delete(kv[0]); err != nil {
			return err
		}
		if pk, _, _ := bytes.Cut(kv[0], []byte{0}); app.LocalPartition(string(pk)) {
			continue
		}
		if err := b.Put(dirtyKey(binary.BigEndian.Uint64(kv[1]), string(kv[0])), []byte{}); err != nil {
			return err
		}
	}
	return nil
}

// keepIfLegacy keeps a copy of a file of an older layout, byte for byte as
// it is, before anything writes to it (app.KeptName "format-2" for version
// 1, "format-3" for version 2, "format-4" for version 3), and records where
// in s.kept.
func (s *Store) keepIfLegacy(now time.Time) error {
	var format string
	err := s.db.View(func(btx *bolt.Tx) error {
		if dev := btx.Bucket(bucketDevice); dev != nil {
			format = string(dev.Get(keyFormat))
		}
		return nil
	})
	if err != nil || format != formatLegacy && format != formatSeenByHash && format != formatRules3 && format != formatNames4 && format != formatNoIndex5 {
		return err
	}
	what := map[string]string{formatLegacy: "format-2", formatSeenByHash: "format-3", formatRules3: "format-4", formatNames4: "format-5", formatNoIndex5: "format-6"}[format]
	kept := app.KeptName(s.path, what, now)
	if err := copyFile(s.path, kept); err != nil {
		return fmt.Errorf("localstore: keep %s before upgrading it: %w", filepath.Base(s.path), err)
	}
	s.kept = kept
	return nil
}

// Upgraded returns where the file was kept as it was when Open upgraded it
// to the current layout, or "" when it did not.
func (s *Store) Upgraded() string { return s.kept }

// replayAll throws the projection away and replays every event of the log
// into it. With undo, the pending events (after confirmed_seq) get their
// undo records made again, and what confirmed events change is marked for
// the cloud projection.
func (s *Store) replayAll(btx *bolt.Tx, undo bool) error {
	if err := dropCache(btx); err != nil {
		return err
	}
	buckets := [][]byte{bucketData, bucketGSI1, bucketNames}
	if undo {
		buckets = append(buckets, bucketUndo)
	}
	for _, b := range buckets {
		if err := btx.DeleteBucket(b); err != nil {
			return fmt.Errorf("localstore: clear %s: %w", b, err)
		}
		if _, err := btx.CreateBucket(b); err != nil {
			return fmt.Errorf("localstore: recreate %s: %w", b, err)
		}
	}
	t := newTx(btx)
	confirmed := getUint(t.dev, keyConfirmed)
	err := t.Events(1, func(ev *app.Event) (bool, error) {
		if undo && ev.Seq > confirmed {
			if err := t.beginUndo(ev.Seq); err != nil {
				return false, err
			}
		} else if undo {
			t.dirtySeq = ev.Seq
		}
		_, err := app.Replay(t, ev)
		t.dirtySeq = 0
		return true, err
	})
	if err != nil {
		return err
	}
	return t.flushUndo()
}

// respellFile writes the file again beside itself, every item and undo
// record as version 5 writes them and the version set, and puts it in the
// file's place. Rewriting them in place would leave the file twice its
// size: bbolt writes every changed page anew and keeps the old ones free.
func (s *Store) respellFile() error {
	tmp, err := tempBeside(s.path)
	if err != nil {
		return err
	}
	defer os.Remove(tmp)
	dst, err := bolt.Open(tmp, 0o600, &bolt.Options{Timeout: OpenTimeout, FreelistType: bolt.FreelistMapType, PageSize: pageSize})
	if err != nil {
		return err
	}
	err = s.db.View(func(src *bolt.Tx) error {
		return src.ForEach(func(name []byte, b *bolt.Bucket) error {
			write := func(k, v []byte) []byte { return v }
			switch {
			case bytes.Equal(name, bucketData):
				write = respelled
			case bytes.Equal(name, bucketUndo):
				write = respellUndo
			}
			return copyBucket(dst, name, b, write)
		})
	})
	if err == nil {
		err = dst.Update(func(btx *bolt.Tx) error {
			return btx.Bucket(bucketDevice).Put(keyFormat, []byte(formatNoIndex5))
		})
	}
	if err == nil {
		err = rebind(dst, tmp)
	}
	if cerr := dst.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = syncFile(tmp)
	}
	if err != nil {
		return err
	}
	if err := s.db.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp, s.path); err != nil {
		return err
	}
	if err := syncDir(filepath.Dir(s.path)); err != nil {
		return err
	}
	db, err := bolt.Open(s.path, 0o600, boltOptions())
	if err != nil {
		return err
	}
	s.db = db
	return nil
}

// copyBucket copies bucket b into a bucket of the same name in dst, each
// value as write makes it from its key and value, a transaction of dst
// per 64 MB.
func copyBucket(dst *bolt.DB, name []byte, b *bolt.Bucket, write func(k, v []byte) []byte) error {
	c := b.Cursor()
	k, v := c.First()
	for {
		size := 0
		err := dst.Update(func(btx *bolt.Tx) error {
			to, err := btx.CreateBucketIfNotExists(name)
			if err != nil {
				return err
			}
			to.FillPercent = 1.0 // written in key order
			for ; k != nil && size < 64<<20; k, v = c.Next() {
				if v == nil {
					return fmt.Errorf("localstore: bucket %s holds a bucket %q", name, k)
				}
				w := write(k, v)
				if err := to.Put(k, w); err != nil {
					return err
				}
				size += len(k) + len(w)
			}
			return nil
		})
		if err != nil || k == nil {
			return err
		}
	}
}

// respellUndo is an undo record with its before-images as version 5
// writes items (respelled).
func respellUndo(k, rec []byte) []byte { return rewriteUndo(k, rec, respelled) }

// rewriteUndo is the undo record rec (of the event whose key is k) with
// each before-image as write makes it from its item's key and value.
func rewriteUndo(k, rec []byte, write func(k, v []byte) []byte) []byte {
	seq := uint64(0)
	if len(k) == 8 {
		seq = binary.BigEndian.Uint64(k)
	}
	images, err := undoImages(seq, rec)
	if err != nil {
		return rec
	}
	var out, last []byte
	for _, img := range images {
		old := img.old
		if old != nil {
			old = write(img.key, old)
		}
		out, last = appendImage(out, last, img.key, old)
	}
	return out
}
