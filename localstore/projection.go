package localstore

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"votedesk/app"
)

// StateHash returns the hex SHA-256 of the projection: every item key and
// value in key order, but for the partitions that stay on the device (their
// content is derived from the log as well, but the cloud projection leaves
// it out). Two devices that applied the same log, and the cloud projection
// written from it, have the same state hash.
func (s *Store) StateHash(ctx context.Context) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	h := sha256.New()
	err := s.db.View(func(btx *bolt.Tx) error {
		return btx.Bucket(bucketData).ForEach(func(k, v []byte) error {
			if pk, _, _ := bytes.Cut(k, []byte{0}); app.LocalPartition(string(pk)) {
				return nil
			}
			var n [binary.MaxVarintLen64]byte
			h.Write(n[:binary.PutUvarint(n[:], uint64(len(k)))])
			h.Write(k)
			h.Write(n[:binary.PutUvarint(n[:], uint64(len(v)))])
			h.Write(v)
			return nil
		})
	})
	return hex.EncodeToString(h.Sum(nil)), err
}

// Rebuild throws the projection away and derives it again from the event
// log, replaying every event in order. It returns how many events the rules
// refused on the way (each recorded in the REJECTED partition).
func (s *Store) Rebuild(ctx context.Context) (refused int, err error) {
	err = s.db.Update(func(btx *bolt.Tx) error {
		refused, err = rebuild(ctx, btx)
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("localstore: rebuild projection: %w", err)
	}
	return refused, nil
}

// rebuild replaces the projection in btx with one replayed from its log.
func rebuild(ctx context.Context, btx *bolt.Tx) (refused int, err error) {
	if err := clearProjection(btx); err != nil {
		return 0, err
	}
	_, _, refused, err = replayFrom(ctx, btx, 1, 0)
	return refused, err
}

// clearProjection empties the projection, its index and the count cache.
func clearProjection(btx *bolt.Tx) error {
	if err := dropCache(btx); err != nil {
		return err
	}
	for _, b := range [][]byte{bucketData, bucketGSI1, bucketNames} {
		if err := btx.DeleteBucket(b); err != nil {
			return fmt.Errorf("localstore: clear %s: %w", b, err)
		}
		if _, err := btx.CreateBucket(b); err != nil {
			return fmt.Errorf("localstore: recreate %s: %w", b, err)
		}
	}
	return nil
}

// replayFrom replays the events of btx's log from sequence number from on,
// in order, into its projection; with a limit, it stops before the event
// that would take the payloads it replayed past limit bytes, and says where
// to go on (next, more). refused counts the events the rules refused.
func replayFrom(ctx context.Context, btx *bolt.Tx, from uint64, limit int) (next uint64, more bool, refused int, err error) {
	t := newTx(btx)
	next, size := from, 0
	err = t.Events(from, func(ev *app.Event) (bool, error) {
		if err := ctx.Err(); err != nil {
			return false, err
		}
		if limit > 0 && size > 0 && size+len(ev.Data)+len(ev.Sealed) > limit {
			more = true
			return false, nil
		}
		r, err := app.Replay(t, ev)
		if r != nil {
			refused++
		}
		next, size = ev.Seq+1, size+len(ev.Data)+len(ev.Sealed)
		return true, err
	})
	return next, more, refused, err
}
