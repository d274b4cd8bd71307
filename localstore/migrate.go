package localstore

import (
	"bytes"
	"encoding/binary"
	"fmt"
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
// (app.SeenSK). Its items move to their keys now, each read
// from the event its item names; with pending events, whose undo records
// name the old keys, or when an item does not match its event, the
// projection is rebuilt instead, as for version 1.
func (s *Store) migrate(now time.Time) error {
	var format string
	_ = s.db.View(func(btx *bolt.Tx) error {
		format = string(btx.Bucket(bucketDevice).Get(keyFormat))
		return nil
	})
	if format != formatLegacy && format != formatSeenByHash {
		return nil
	}
	err := s.db.Update(func(btx *bolt.Tx) error {
		if err := moveDirtyMarks(btx); err != nil {
			return err
		}
		var err error
		if format == formatSeenByHash && btx.Bucket(bucketUndo).Stats().KeyN == 0 {
			err = rekeySeen(btx)
		}
		if format != formatSeenByHash || err != nil || btx.Bucket(bucketUndo).Stats().KeyN != 0 {
			// Also when a replay key does not match the event it names:
			// the log decides, not an item derived from it.
			err = s.replayAll(btx, true)
		}
		if err != nil {
			return err
		}
		return btx.Bucket(bucketDevice).Put(keyFormat, []byte(formatVersion))
	})
	if err != nil {
		return fmt.Errorf("localstore: upgrade %s from layout version %s to %s (it is kept as it was in %s): %w", s.path, format, formatVersion, s.kept, err)
	}
	return nil
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

// rekeySeen moves every item of the SEEN partition from its version 2 key
// (the replay key alone) to app.SeenSK of the event it names (its seq
// attribute), checking that the event has that replay key.
func rekeySeen(btx *bolt.Tx) error {
	t := newTx(btx)
	var items []app.Item
	err := t.Query(app.PKSeen, "", func(it app.Item) (bool, error) {
		items = append(items, it)
		return true, nil
	})
	if err != nil {
		return err
	}
	for _, it := range items {
		seq := uint64(it.Int("seq"))
		raw := t.log.Get(seqBytes(seq))
		if raw == nil {
			return fmt.Errorf("replay key %s names event %d, which is not in the log", it.SK(), seq)
		}
		ev, err := app.DecodeEvent(raw)
		if err != nil {
			return fmt.Errorf("replay key %s names event %d: %w", it.SK(), seq, err)
		}
		if ev.ReplayKey() != it.SK() {
			return fmt.Errorf("replay key %s names event %d, whose replay key is %s", it.SK(), seq, ev.ReplayKey())
		}
		if err := t.Delete(app.PKSeen, it.SK()); err != nil {
			return err
		}
		it.Set(app.AttrSK, app.S(app.SeenSK(ev)))
		if err := t.Put(it); err != nil {
			return err
		}
	}
	return nil
}

// keepIfLegacy keeps a copy of a file of an older layout, byte for byte as
// it is, before anything writes to it (app.KeptName "format-2" for version
// 1, "format-3" for version 2), and records where in s.kept.
func (s *Store) keepIfLegacy(now time.Time) error {
	var format string
	err := s.db.View(func(btx *bolt.Tx) error {
		if dev := btx.Bucket(bucketDevice); dev != nil {
			format = string(dev.Get(keyFormat))
		}
		return nil
	})
	if err != nil || format != formatLegacy && format != formatSeenByHash {
		return err
	}
	what := "format-2"
	if format == formatSeenByHash {
		what = "format-3"
	}
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
	buckets := [][]byte{bucketData, bucketGSI1}
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
