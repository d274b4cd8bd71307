package localstore

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"slices"

	"votedesk/app"
)

// An undo record holds, for one event not yet confirmed by the shared log,
// the before-image of every item the event changed, keys prefix-compressed
// against the key before (an import's ballot keys differ only at the end):
//
//	record = { uvarint(shared) uvarint(len(rest)) rest  present(1 byte)  [uvarint(len(value)) value] }
//
// The key is the first `shared` bytes of the previous key followed by rest;
// present is 0 when the item did not exist before the event.

// beginUndo starts capturing before-images for the event at seq.
func (t *tx) beginUndo(seq uint64) error {
	if err := t.flushUndo(); err != nil {
		return err
	}
	t.undoSeq = seq
	t.undoBuf = t.undoBuf[:0]
	t.undoLast = t.undoLast[:0]
	return nil
}

// remember keeps the before-image of item key k as the current event changes
// it. An item changed twice is remembered twice; rollback restores images in
// reverse order, so the image from before the event wins. While a confirmed
// event is applied, it marks the item dirty for the cloud projection instead.
func (t *tx) remember(k, old []byte) error {
	if t.dirtySeq != 0 {
		return t.markDirty(k, t.dirtySeq)
	}
	if t.undoSeq == 0 {
		return nil
	}
	t.undoBuf, t.undoLast = appendImage(t.undoBuf, t.undoLast, k, old)
	return nil
}

// appendImage appends to an undo record the before-image old of item key
// k (nil: it did not exist), its key compressed against last, the key
// before it; it returns the record and k as the next one's last.
func appendImage(rec, last, k, old []byte) ([]byte, []byte) {
	shared := 0
	for shared < len(k) && shared < len(last) && k[shared] == last[shared] {
		shared++
	}
	rec = binary.AppendUvarint(rec, uint64(shared))
	rec = binary.AppendUvarint(rec, uint64(len(k)-shared))
	rec = append(rec, k[shared:]...)
	last = append(last[:0], k...)
	if old == nil {
		return append(rec, 0), last
	}
	rec = append(rec, 1)
	rec = binary.AppendUvarint(rec, uint64(len(old)))
	return append(rec, old...), last
}

// maxDirtyKeys is how many dirty marks a transaction holds before it
// writes them (a rebuild replays the whole log in one); a variable for
// tests.
var maxDirtyKeys = 1 << 16

// markDirty marks item key k changed by confirmed event seq for the cloud
// projection; flushDirty writes the marks to cloud_dirty.
func (t *tx) markDirty(k []byte, seq uint64) error {
	if pk, _, _ := bytes.Cut(k, []byte{0}); app.LocalPartition(string(pk)) {
		return nil // never in the cloud projection
	}
	if t.dirtyKeys == nil {
		t.dirtyKeys = make(map[string]uint64)
	}
	t.dirtyKeys[string(k)] = seq // events are applied in order: the last is the latest
	return t.flushDirtyAt(maxDirtyKeys)
}

// markNew marks items new to confirmed event seq (PutNew's, keys in
// order) for the cloud projection, as markDirty does, without looking
// for an earlier mark of each in this transaction: a new item has one
// only if an event before deleted it, and a second mark costs only a
// second write of the item to the cloud (a push reads each item once).
// An import's ballots are so marked without a map or a sort: their marks
// come in the order cloud_dirty keeps.
func (t *tx) markNew(keys [][]byte, seq uint64) error {
	if pk, _, _ := bytes.Cut(keys[0], []byte{0}); app.LocalPartition(string(pk)) {
		return nil // one partition: all of them local
	}
	for _, k := range keys {
		t.scratch = appendDirtyKey(t.scratch[:0], seq, k)
		t.dirtyNew = append(t.dirtyNew, t.keep(t.scratch))
	}
	return t.flushDirtyAt(maxDirtyKeys)
}

// flushDirtyAt writes the marks once there are at least max.
func (t *tx) flushDirtyAt(max int) error {
	if len(t.dirtyKeys)+len(t.dirtyNew) >= max {
		return t.flushDirty()
	}
	return nil
}

// flushDirty writes the marks of markDirty and markNew to cloud_dirty: one
// entry an item, keyed by the event's sequence number and then the item's
// key, so that marks, made in log order, are appended at the bucket's end.
// Both kinds are put in one key order.
func (t *tx) flushDirty() error {
	if len(t.dirtyKeys) == 0 && len(t.dirtyNew) == 0 {
		return nil
	}
	keys := make([][]byte, 0, len(t.dirtyKeys))
	for k, seq := range t.dirtyKeys {
		keys = append(keys, dirtyKey(seq, k))
	}
	slices.SortFunc(keys, bytes.Compare)
	if !slices.IsSortedFunc(t.dirtyNew, bytes.Compare) {
		slices.SortFunc(t.dirtyNew, bytes.Compare)
	}
	for a, b := keys, t.dirtyNew; len(a)+len(b) > 0; {
		var k []byte
		if len(b) == 0 || len(a) > 0 && bytes.Compare(a[0], b[0]) < 0 {
			k, a = a[0], a[1:]
		} else {
			k, b = b[0], b[1:]
		}
		if err := t.dirty.Put(k, []byte{}); err != nil {
			return err
		}
	}
	t.dirtyKeys, t.dirtyNew = nil, t.dirtyNew[:0]
	return nil
}

// dirtyKey is the cloud_dirty key of a mark: the sequence number of the
// event that changed the item (8 bytes big-endian), then the item's key.
func dirtyKey(seq uint64, item string) []byte {
	return appendDirtyKey(nil, seq, item)
}

// appendDirtyKey appends dirtyKey(seq, item) to b.
func appendDirtyKey[K []byte | string](b []byte, seq uint64, item K) []byte {
	return append(binary.BigEndian.AppendUint64(b, seq), item...)
}

// flushUndo stores the undo record of the current event, and the dirty
// marks so far: every transaction that writes items ends with it.
func (t *tx) flushUndo() error {
	if err := t.flushDirty(); err != nil {
		return err
	}
	if t.undoSeq == 0 {
		return nil
	}
	rec := append([]byte(nil), t.undoBuf...)
	if err := t.undo.Put(seqBytes(t.undoSeq), rec); err != nil {
		return fmt.Errorf("localstore: save undo record %d: %w", t.undoSeq, err)
	}
	t.undoSeq = 0
	return nil
}

// image is one before-image of an undo record: an item's key and its value
// before the event (nil: it did not exist).
type image struct {
	key, old []byte
}

// undoImages decodes the undo record of the event at seq, in capture order.
func undoImages(seq uint64, rec []byte) ([]image, error) {
	var images []image
	var last []byte
	d := decoder{b: rec}
	for d.off < len(rec) {
		shared, err := d.uvarint()
		if err != nil || shared > uint64(len(last)) {
			return nil, fmt.Errorf("localstore: undo record %d is corrupt", seq)
		}
		rest, err := d.str()
		if err != nil || d.off >= len(rec) {
			return nil, fmt.Errorf("localstore: undo record %d is corrupt", seq)
		}
		key := append(append([]byte(nil), last[:shared]...), rest...)
		last = key
		present := rec[d.off]
		d.off++
		img := image{key: key}
		if present == 1 {
			v, err := d.str()
			if err != nil {
				return nil, fmt.Errorf("localstore: undo record %d is corrupt", seq)
			}
			img.old = []byte(v)
		}
		images = append(images, img)
	}
	return images, nil
}

// undoKeys returns the keys of the items the event at seq changed.
func undoKeys(seq uint64, rec []byte) ([][]byte, error) {
	images, err := undoImages(seq, rec)
	if err != nil {
		return nil, err
	}
	keys := make([][]byte, len(images))
	for i, img := range images {
		keys[i] = img.key
	}
	return keys, nil
}

// rollback restores the before-images of the event at seq, in reverse order
// of capture, and deletes its undo record.
func (t *tx) rollback(seq uint64) error {
	rec := t.undo.Get(seqBytes(seq))
	if rec == nil {
		return fmt.Errorf("localstore: event %d has no undo record", seq)
	}
	images, err := undoImages(seq, rec)
	if err != nil {
		return err
	}
	saved := t.undoSeq
	t.undoSeq = 0
	defer func() { t.undoSeq = saved }()
	for i := len(images) - 1; i >= 0; i-- {
		if err := t.restore(images[i].key, images[i].old); err != nil {
			return err
		}
	}
	return t.undo.Delete(seqBytes(seq))
}

// restore puts back one item (or removes it when old is nil), keeping GSI-1.
func (t *tx) restore(k, old []byte) error {
	if err := t.unindex(k, t.items(k).Get(k)); err != nil {
		return err
	}
	if old == nil {
		return t.items(k).Delete(k)
	}
	it, err := decodeItem(k, old)
	if err != nil {
		return fmt.Errorf("localstore: undo image of %q: %w", k, err)
	}
	return t.Put(it)
}
