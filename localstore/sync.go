package localstore

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"

	"votedesk/app"
)

// The local log for sync: events 1..C are confirmed (identical to the cloud
// log, C = confirmed_seq in the device bucket) and C+1..H are pending, the
// outbox of events this device made and has not yet seen in the cloud log.
// Every pending event has an undo record; confirmed events have none.
//
// Integrate lays a page of cloud events under the pending ones, and
// ConfirmPushed confirms pending events this device has just appended to the
// cloud log at the very sequence numbers they hold here. Each is one bbolt
// transaction that also moves confirmed_seq, so the checkpoint and the
// projection never disagree, whatever the moment of a crash.
//
// The cloud_dirty bucket remembers, for every item a confirmed event changed,
// the sequence number that changed it: the key is the number (8 bytes
// big-endian) then the item's key, the value empty, so marks are appended
// at the end in log order (a transaction marks an item once, with the last
// of its events that changed it; an item changed in several keeps a mark
// for each until they are pruned). CloudDelta reads the marks after a given
// sequence number to tell which items the cloud projection still needs;
// PruneCloudDirty forgets those the cloud projection already has, from the
// bucket's start. (Until layout version 3 the key was the item's and the
// value the number; opening such a file moves the marks, migrate.go.)

// bucketDirty is the cloud_dirty bucket.
var bucketDirty = []byte("cloud_dirty")

// syncKeyPrefix starts the device-bucket keys of sync settings and status.
const syncKeyPrefix = "sync."

// SyncHead returns the confirmed head (sequence number and hash) and the
// number of pending events.
func (s *Store) SyncHead(ctx context.Context) (confirmed uint64, hash string, pending int, err error) {
	if err := ctx.Err(); err != nil {
		return 0, "", 0, err
	}
	err = s.db.View(func(btx *bolt.Tx) error {
		t := newTx(btx)
		c, h, err := t.confirmedHead()
		if err != nil {
			return err
		}
		head, _, err := t.Head()
		if err != nil {
			return err
		}
		confirmed, hash, pending = c, h, int(head-c)
		return nil
	})
	return confirmed, hash, pending, err
}

// Pending returns up to max pending events (all when max <= 0), oldest first.
func (s *Store) Pending(ctx context.Context, max int) ([]*app.Event, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var out []*app.Event
	err := s.db.View(func(btx *bolt.Tx) error {
		t := newTx(btx)
		c := getUint(t.dev, keyConfirmed)
		return t.Events(c+1, func(ev *app.Event) (bool, error) {
			out = append(out, ev)
			return max <= 0 || len(out) < max, nil
		})
	})
	return out, err
}

// confirmedHead returns C and the hash of event C ("" when C is 0).
func (t *tx) confirmedHead() (uint64, string, error) {
	c := getUint(t.dev, keyConfirmed)
	if c == 0 {
		return 0, "", nil
	}
	v := t.log.Get(seqBytes(c))
	if v == nil {
		return 0, "", fmt.Errorf("localstore: confirmed event %d is missing from the log", c)
	}
	ev, err := app.DecodeEvent(v)
	if err != nil {
		return 0, "", fmt.Errorf("localstore: event %d: %w", c, err)
	}
	return c, ev.Hash, nil
}

// integrateResult says what integrating a page of cloud events did.
type integrateResult struct {
	Confirmed int // pending events of this device found in the page
	Rebased   int // pending events laid back on top, at new sequence numbers
	Refused   int // of those, how many the rules now refuse (recorded REJECTED)
	Renamed   int // of those, how many took a new id (see identity)
}

// Integrate applies a page of events read from the cloud log, which must
// continue the confirmed head: their sequence numbers follow it without a
// gap and their hashes chain to it. Pending events are taken off (undone),
// the page's events are written at their sequence numbers and replayed (an
// event with the id and the content of a pending one is that event, now
// confirmed), the remaining pending events are appended again after the new
// head, re-chained, and replayed, and confirmed_seq moves to the page's last
// event; all in one transaction. A page that does not continue the log
// changes nothing and the error names the first bad sequence number.
//
// The page may show that another copy of this database exists (see
// device.go): an event with the id of a pending one but other content (a
// collision), or a genuine event of this device's id that it does not hold
// (it was rewound). This device then takes a new identity, announced after
// the page, and its pending events of the old identity take new ids before
// they are laid back: nothing is lost, and no id names two events.
func (s *Store) Integrate(ctx context.Context, page []*app.Event) (rebased int, err error) {
	return s.IntegrateMarked(ctx, page, nil)
}

// keySyncMark keeps, beside confirmed_seq, where the sync layer's reading
// of each shard of the cloud log stands at the confirmed head (see
// sync/doc.go, "Shards"): set in the transaction that moves the head, so
// the two never disagree.
var keySyncMark = []byte("sync_mark")

// SyncMark returns the sync layer's mark kept with the confirmed head (nil
// when none was: a log read from one shard only).
func (s *Store) SyncMark(ctx context.Context) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var out []byte
	err := s.db.View(func(btx *bolt.Tx) error {
		if v := btx.Bucket(bucketDevice).Get(keySyncMark); v != nil {
			out = append([]byte(nil), v...)
		}
		return nil
	})
	return out, err
}

// putMark keeps mark with the confirmed head, or forgets the one kept when
// mark is nil.
func (t *tx) putMark(mark []byte) error {
	if mark == nil {
		return t.dev.Delete(keySyncMark)
	}
	return t.dev.Put(keySyncMark, mark)
}

// IntegrateMarked is Integrate, keeping mark with the new confirmed head
// in the same transaction (nil forgets the mark kept before).
//
// An empty page keeps mark alone (when it is not nil): the reading of the
// cloud log moved past entries that held no event.
func (s *Store) IntegrateMarked(ctx context.Context, page []*app.Event, mark []byte) (rebased int, err error) {
	var res integrateResult
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	if len(page) == 0 {
		if mark == nil {
			return 0, nil
		}
		return 0, s.db.Update(func(btx *bolt.Tx) error { return newTx(btx).putMark(mark) })
	}
	app.VerifyAll(page)
	err = s.db.Update(func(btx *bolt.Tx) error {
		res = integrateResult{}
		t := newTx(btx)
		c, hashC, err := t.confirmedHead()
		if err != nil {
			return err
		}
		if err := app.CheckRun(hashC, c+1, page); err != nil {
			return err
		}
		head, _, err := t.Head()
		if err != nil {
			return err
		}
		// The page may start with pending events of ours at the very place
		// they hold here: confirm those where they are.
		i := 0
		for ; i < len(page) && page[i].Seq <= head; i++ {
			v := t.log.Get(seqBytes(page[i].Seq))
			local, err := app.DecodeEvent(v)
			if err != nil {
				return fmt.Errorf("localstore: event %d: %w", page[i].Seq, err)
			}
			if local.ID != page[i].ID || local.Hash != page[i].Hash {
				break
			}
			if err := t.confirmInPlace(page[i].Seq); err != nil {
				return err
			}
			res.Confirmed++
		}
		if i < len(page) {
			r, err := t.rebase(page[i:], head)
			if err != nil {
				return err
			}
			res.Confirmed += r.Confirmed
			res.Rebased, res.Refused, res.Renamed = r.Rebased, r.Refused, r.Renamed
		}
		if err := putUint(t.dev, keyConfirmed, page[len(page)-1].Seq); err != nil {
			return err
		}
		if err := t.putMark(mark); err != nil {
			return err
		}
		return t.flushUndo()
	})
	if err != nil {
		return 0, fmt.Errorf("localstore: integrate cloud events %d-%d: %w", page[0].Seq, page[len(page)-1].Seq, err)
	}
	return res.Rebased, nil
}

// pendingEvent is a pending event and what identifies its content.
type pendingEvent struct {
	ev      *app.Event
	content string
}

// rebase takes the pending events from page[0].Seq to head off, applies the
// page, and puts the pending events that are not in the page back on top,
// under a new identity if the page shows another copy of this database.
func (t *tx) rebase(page []*app.Event, head uint64) (integrateResult, error) {
	var res integrateResult
	from := page[0].Seq
	var pending []pendingEvent
	for seq := from; seq <= head; seq++ {
		ev, err := app.DecodeEvent(t.log.Get(seqBytes(seq)))
		if err != nil {
			return res, fmt.Errorf("localstore: pending event %d: %w", seq, err)
		}
		pending = append(pending, pendingEvent{ev: ev, content: ev.ContentHash()})
	}
	for seq := head; seq >= from && seq > 0; seq-- {
		if err := t.rollback(seq); err != nil {
			return res, err
		}
		if err := t.log.Delete(seqBytes(seq)); err != nil {
			return res, err
		}
	}
	if err := t.reindexAfterRollback(from); err != nil {
		return res, err
	}
	t.headOK = false
	byID := make(map[string]int, len(pending))
	for i, p := range pending {
		byID[p.ev.ID] = i
	}
	confirmed := make([]bool, len(pending))
	renew := make([]bool, len(pending))
	dev := string(t.dev.Get(keyDeviceID))
	reason := ""
	for _, ev := range page {
		if i, ok := byID[ev.ID]; ok {
			if pending[i].content == ev.ContentHash() {
				confirmed[i] = true
				res.Confirmed++
			} else if ev.VerifySignatures() == nil {
				// Another copy of this database made an event under this id.
				renew[i] = true
				if app.EventDevice(ev.ID) == dev {
					reason = app.DeviceCollision
				}
			}
		} else if app.EventDevice(ev.ID) == dev && reason == "" && ev.VerifySignatures() == nil {
			reason = app.DeviceRewound
		}
		if err := t.putEvent(ev); err != nil {
			return res, err
		}
		t.dirtySeq = ev.Seq
		_, err := app.Replay(t, ev)
		t.dirtySeq = 0
		if err != nil {
			return res, fmt.Errorf("localstore: replay event %d: %w", ev.Seq, err)
		}
	}
	last := page[len(page)-1]
	t.head, t.headHash, t.headOK = last.Seq, last.Hash, true
	if reason != "" {
		detail := fmt.Sprintf("seen in the shared log at event %d", last.Seq)
		if err := t.rotate(reason, detail, time.Now()); err != nil {
			return res, err
		}
		for i, p := range pending {
			if app.EventDevice(p.ev.ID) == dev {
				renew[i] = true
			}
		}
	}
	for i, p := range pending {
		if confirmed[i] {
			continue
		}
		ev := p.ev
		if renew[i] {
			id, err := t.NewEventID()
			if err != nil {
				return res, err
			}
			ev.ID = id
			if err := t.SignEvent(ev); err != nil {
				return res, err
			}
			res.Renamed++
		}
		if err := t.AppendEvent(ev); err != nil {
			return res, err
		}
		refusal, err := app.Replay(t, ev)
		if err != nil {
			return res, fmt.Errorf("localstore: replay pending event %s: %w", ev.ID, err)
		}
		res.Rebased++
		if refusal != nil {
			res.Refused++
		}
	}
	return res, nil
}

// confirmInPlace confirms the pending event at seq where it is: the items it
// changed (its undo record's keys) become dirty for the cloud projection,
// and its undo record goes.
func (t *tx) confirmInPlace(seq uint64) error {
	rec := t.undo.Get(seqBytes(seq))
	if rec == nil {
		return fmt.Errorf("localstore: pending event %d has no undo record", seq)
	}
	keys, err := undoKeys(seq, rec)
	if err != nil {
		return err
	}
	for _, k := range keys {
		if err := t.markDirty(k, seq); err != nil {
			return err
		}
	}
	return t.undo.Delete(seqBytes(seq))
}

// ConfirmPushed confirms pending events this device has just appended to
// the cloud log: evs must be the first pending events, at the sequence
// numbers and with the hashes they hold here.
func (s *Store) ConfirmPushed(ctx context.Context, evs []*app.Event) error {
	return s.ConfirmPushedMarked(ctx, evs, nil)
}

// ConfirmPushedMarked is ConfirmPushed, keeping mark with the new confirmed
// head in the same transaction (nil forgets the mark kept before).
func (s *Store) ConfirmPushedMarked(ctx context.Context, evs []*app.Event, mark []byte) error {
	if len(evs) == 0 {
		return nil
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	err := s.db.Update(func(btx *bolt.Tx) error {
		t := newTx(btx)
		c := getUint(t.dev, keyConfirmed)
		for i, ev := range evs {
			if ev.Seq != c+1+uint64(i) {
				return fmt.Errorf("event %s was pushed as %d but the next pending sequence is %d", ev.ID, ev.Seq, c+1+uint64(i))
			}
			// The id and hash say which event it is; the rest need not be
			// read again (a million ballots' import is 110 MB of it).
			v := t.log.Get(seqBytes(ev.Seq))
			id, hash, ok := app.EventIDHash(v)
			if !ok {
				local, err := app.DecodeEvent(v)
				if err != nil {
					return fmt.Errorf("event %d: %w", ev.Seq, err)
				}
				id, hash = local.ID, local.Hash
			}
			if id != ev.ID || hash != ev.Hash {
				return fmt.Errorf("event %d here is %s, not the pushed %s", ev.Seq, id, ev.ID)
			}
			if err := t.confirmInPlace(ev.Seq); err != nil {
				return err
			}
		}
		if err := t.flushDirty(); err != nil {
			return err
		}
		if err := t.putMark(mark); err != nil {
			return err
		}
		return putUint(t.dev, keyConfirmed, evs[len(evs)-1].Seq)
	})
	if err != nil {
		return fmt.Errorf("localstore: confirm pushed events %d-%d: %w", evs[0].Seq, evs[len(evs)-1].Seq, err)
	}
	return nil
}

// CloudDelta returns the items the cloud projection needs to go from its
// state after event `after` to the confirmed head: the confirmed value of
// every item a confirmed event after `after` changed (puts), and the keys of
// those that no longer exist (deletes, as items holding only PK and SK).
// Confirmed values are read under the pending events: for an item a pending
// event changed, its before-image in the earliest such event's undo record.
func (s *Store) CloudDelta(ctx context.Context, after uint64) (head uint64, puts, deletes []app.Item, err error) {
	if err := ctx.Err(); err != nil {
		return 0, nil, nil, err
	}
	err = s.db.View(func(btx *bolt.Tx) error {
		t := newTx(btx)
		head = getUint(t.dev, keyConfirmed)
		if after >= head {
			return nil
		}
		under, err := t.confirmedImages(head)
		if err != nil {
			return err
		}
		// Marks are in log order: those after after are the bucket's
		// end. An item changed by several events has a mark for each
		// (at most one a transaction); its value is read once.
		seen := map[string]bool{}
		c := t.dirty.Cursor()
		for mark, _ := c.Seek(seqBytes(after + 1)); mark != nil; mark, _ = c.Next() {
			if len(mark) <= 8 {
				return fmt.Errorf("localstore: cloud_dirty mark %q names no item", mark)
			}
			k := mark[8:]
			if seen[string(k)] {
				continue
			}
			seen[string(k)] = true
			if pk, _, _ := bytes.Cut(k, []byte{0}); app.LocalPartition(string(pk)) {
				continue
			}
			val, shadowed := under[string(k)]
			if !shadowed {
				val = t.data.Get(k)
			}
			if val == nil {
				pk, sk, ok := bytes.Cut(k, []byte{0})
				if !ok {
					return fmt.Errorf("localstore: item key %q has no partition separator", k)
				}
				deletes = append(deletes, app.Item{{Name: app.AttrPK, Value: app.S(string(pk))}, {Name: app.AttrSK, Value: app.S(string(sk))}})
				continue
			}
			it, err := decodeItem(k, val)
			if err != nil {
				return fmt.Errorf("localstore: item %q: %w", k, err)
			}
			puts = append(puts, it)
		}
		return nil
	})
	if err != nil {
		return 0, nil, nil, fmt.Errorf("localstore: read changes for the cloud projection: %w", err)
	}
	return head, puts, deletes, nil
}

// confirmedImages returns, for each item a pending event changed, its value
// at the confirmed head (nil: it did not exist).
func (t *tx) confirmedImages(confirmed uint64) (map[string][]byte, error) {
	out := map[string][]byte{}
	c := t.undo.Cursor()
	for k, rec := c.Seek(seqBytes(confirmed + 1)); k != nil; k, rec = c.Next() {
		seq := binary.BigEndian.Uint64(k)
		images, err := undoImages(seq, rec)
		if err != nil {
			return nil, err
		}
		for _, img := range images {
			if _, seen := out[string(img.key)]; !seen {
				out[string(img.key)] = img.old
			}
		}
	}
	return out, nil
}

// PruneCloudDirty forgets the changed items the cloud projection already
// holds: those last changed at or before through.
func (s *Store) PruneCloudDirty(ctx context.Context, through uint64) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	// Marks are in log order: those through through are the bucket's
	// start.
	stale := func(k []byte) bool { return k != nil && binary.BigEndian.Uint64(seqPrefix(k)) <= through }
	any := false
	err := s.db.View(func(btx *bolt.Tx) error {
		k, _ := btx.Bucket(bucketDirty).Cursor().First()
		any = stale(k)
		return nil
	})
	if err != nil || !any {
		return err
	}
	return s.db.Update(func(btx *bolt.Tx) error {
		b := btx.Bucket(bucketDirty)
		var gone [][]byte
		c := b.Cursor()
		for k, _ := c.First(); stale(k); k, _ = c.Next() {
			gone = append(gone, k)
		}
		for _, k := range gone {
			if err := b.Delete(k); err != nil {
				return err
			}
		}
		return nil
	})
}

// seqPrefix returns the 8 bytes of sequence number a cloud_dirty mark
// starts with (zeros for a shorter key, which no mark is).
func seqPrefix(k []byte) []byte {
	if len(k) < 8 {
		return make([]byte, 8)
	}
	return k[:8]
}

// SyncSetting returns a sync setting or status value this device keeps
// (endpoint, table prefix, last status); ok is false when it was never set.
func (s *Store) SyncSetting(ctx context.Context, name string) (value []byte, ok bool, err error) {
	if err := ctx.Err(); err != nil {
		return nil, false, err
	}
	err = s.db.View(func(btx *bolt.Tx) error {
		if v := btx.Bucket(bucketDevice).Get([]byte(syncKeyPrefix + name)); v != nil {
			value, ok = append([]byte(nil), v...), true
		}
		return nil
	})
	return value, ok, err
}

// SetSyncSetting stores a sync setting or status value.
func (s *Store) SetSyncSetting(ctx context.Context, name string, value []byte) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return s.db.Update(func(btx *bolt.Tx) error {
		return btx.Bucket(bucketDevice).Put([]byte(syncKeyPrefix+name), value)
	})
}

// EventHashes calls fn with the sequence number and hash of each event of
// the log from `from` through `to`, in order (for comparing copies of the
// log).
func (s *Store) EventHashes(ctx context.Context, from, to uint64, fn func(seq uint64, hash string) error) error {
	return s.View(ctx, func(atx app.Tx) error {
		return atx.Events(from, func(ev *app.Event) (bool, error) {
			if ev.Seq > to {
				return false, nil
			}
			return true, fn(ev.Seq, ev.Hash)
		})
	})
}

// ConfirmedItems returns every item of the confirmed projection: the
// projection as it stands without the pending events (their effects read
// under them, from their undo records), and without the partitions that
// stay on the device. It is what the cloud projection must hold.
func (s *Store) ConfirmedItems(ctx context.Context) (head uint64, items []app.Item, err error) {
	if err := ctx.Err(); err != nil {
		return 0, nil, err
	}
	err = s.db.View(func(btx *bolt.Tx) error {
		t := newTx(btx)
		head = getUint(t.dev, keyConfirmed)
		under, err := t.confirmedImages(head)
		if err != nil {
			return err
		}
		add := func(k, v []byte) error {
			if pk, _, _ := bytes.Cut(k, []byte{0}); app.LocalPartition(string(pk)) || v == nil {
				return nil
			}
			it, err := decodeItem(k, v)
			if err != nil {
				return fmt.Errorf("localstore: item %q: %w", k, err)
			}
			items = append(items, it)
			return nil
		}
		if err := t.data.ForEach(func(k, v []byte) error {
			if old, shadowed := under[string(k)]; shadowed {
				return add(k, old)
			}
			return add(k, v)
		}); err != nil {
			return err
		}
		for k, old := range under {
			if t.data.Get([]byte(k)) == nil {
				if err := add([]byte(k), old); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		return 0, nil, fmt.Errorf("localstore: read the confirmed projection: %w", err)
	}
	return head, items, nil
}

// ProjectionBytes returns about how many bytes the projection holds: its
// keys and values as stored (the device's own partitions included).
func (s *Store) ProjectionBytes(ctx context.Context) (int, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	var n int
	err := s.db.View(func(btx *bolt.Tx) error {
		n = btx.Bucket(bucketData).Stats().LeafInuse
		return nil
	})
	return n, err
}
