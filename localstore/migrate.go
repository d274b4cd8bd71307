package localstore

import (
	"fmt"
	"path/filepath"
	"time"

	bolt "go.etcd.io/bbolt"

	"votedesk/app"
)

// migrate upgrades a file of layout version 1 (written before events were
// signed and users and elections had ids) to version 2, in place, after
// keeping a copy of it beside it ("{file}.before-format-2-{time}"). The log
// stays as it was, byte for byte: its events keep their hashes and replay by
// the rules they were made under. The projection is rebuilt from it, so it
// gains what version 2 keeps (account and election ids, history items,
// replay keys), and the undo records of pending events are made again to
// match. identify then gives the device its signing key.
func (s *Store) migrate(now time.Time) error {
	if s.kept == "" {
		return nil
	}
	err := s.db.Update(func(btx *bolt.Tx) error {
		if err := s.replayAll(btx, true); err != nil {
			return err
		}
		return btx.Bucket(bucketDevice).Put(keyFormat, []byte(formatVersion))
	})
	if err != nil {
		return fmt.Errorf("localstore: upgrade %s to layout version %s (it is kept as it was in %s): %w", s.path, formatVersion, s.kept, err)
	}
	return nil
}

// keepIfLegacy keeps a copy of a file of layout version 1, byte for byte
// as it is, before anything writes to it (app.KeptName "format-2"), and
// records where in s.kept.
func (s *Store) keepIfLegacy(now time.Time) error {
	var legacy bool
	err := s.db.View(func(btx *bolt.Tx) error {
		if dev := btx.Bucket(bucketDevice); dev != nil {
			legacy = string(dev.Get(keyFormat)) == formatLegacy
		}
		return nil
	})
	if err != nil || !legacy {
		return err
	}
	kept := app.KeptName(s.path, "format-2", now)
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
