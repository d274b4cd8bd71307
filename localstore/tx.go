package localstore

import (
	"bytes"
	"encoding/binary"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"votedesk/app"
)

// tx implements app.Tx over one bbolt transaction. While an event is being
// applied it keeps the before-image of every item the event changes, so the
// event can be rolled back if the shared log later places other events before
// it (see doc.go).
type tx struct {
	btx   *bolt.Tx
	data  *bolt.Bucket
	names *bolt.Bucket // the poll books' name indexes (bucketNames)
	gsi   *bolt.Bucket
	log   *bolt.Bucket
	undo  *bolt.Bucket
	dev   *bolt.Bucket
	dirty *bolt.Bucket

	undoSeq  uint64
	undoBuf  []byte
	undoLast []byte

	// block is the current arena block keys and values are carved from, and
	// scratch a reusable encoding buffer (see keep).
	block   []byte
	scratch []byte

	// dirtySeq, while a confirmed event is applied, is its sequence number:
	// every item it changes is marked in cloud_dirty (see sync.go).
	dirtySeq uint64
	// dirtyKeys holds those marks (item key -> the last confirmed event
	// that changed it) until flushDirty writes them: once per item and in
	// key order, where a pulled page of ballots changes its election's
	// item and the sync item once per event.
	dirtyKeys map[string]uint64
	// dirtyNew holds the marks of markNew, cloud_dirty keys.
	dirtyNew [][]byte

	// warm, when set, is started by a scan that walks many items.
	warm *warmer

	// head caches the log's last sequence number and hash once known.
	head     uint64
	headHash string
	headOK   bool
}

func newTx(btx *bolt.Tx) *tx {
	t := &tx{
		btx:   btx,
		data:  btx.Bucket(bucketData),
		names: btx.Bucket(bucketNames),
		gsi:   btx.Bucket(bucketGSI1),
		log:   btx.Bucket(bucketLog),
		undo:  btx.Bucket(bucketUndo),
		dev:   btx.Bucket(bucketDevice),
		dirty: btx.Bucket(bucketDirty),
	}
	if btx.Writable() {
		// The log, undo records and cloud_dirty marks only ever grow at
		// the end, and most items arrive in key order (an import's
		// ballots): fill pages, do not leave them half empty.
		t.log.FillPercent, t.undo.FillPercent, t.data.FillPercent = 1.0, 1.0, 0.9
		if t.names != nil {
			t.names.FillPercent = 0.9
		}
		if t.dirty != nil {
			t.dirty.FillPercent = 1.0
		}
	}
	return t
}

// itemKey is the bbolt key of an item: PK, a zero byte, SK. Names hold no
// control characters, so the zero byte sorts a partition's items together
// and in sort-key order.
func itemKey(pk, sk string) []byte {
	k := make([]byte, 0, len(pk)+1+len(sk))
	k = append(k, pk...)
	k = append(k, 0)
	return append(k, sk...)
}

// items is the bucket that holds the items of partition pk (or of the
// key k, which begins with its partition): bucketNames for the poll books'
// name indexes, bucketData for the rest. A file not yet upgraded to hold
// the indexes (read, not opened) has none: its data bucket holds none.
func (t *tx) items(k []byte) *bolt.Bucket {
	if t.names != nil && bytes.HasPrefix(k, voterNamesPrefix) {
		return t.names
	}
	return t.data
}

var voterNamesPrefix = []byte(app.PrefixVoterNames)

func (t *tx) Get(pk, sk string) (app.Item, bool, error) {
	k := itemKey(pk, sk)
	v := t.items(k).Get(k)
	if v == nil {
		return nil, false, nil
	}
	it, err := decodeItem(k, v)
	if err != nil {
		return nil, false, fmt.Errorf("localstore: item %s/%s: %w", pk, sk, err)
	}
	return it, true, nil
}

func (t *tx) Put(it app.Item) error {
	pk, sk := it.PK(), it.SK()
	if pk == "" || sk == "" {
		return fmt.Errorf("localstore: item without PK or SK")
	}
	if err := storable(it); err != nil {
		return err
	}
	t.scratch = append(append(append(t.scratch[:0], pk...), 0), sk...)
	k := t.keep(t.scratch)
	old := t.items(k).Get(k)
	if err := t.remember(k, old); err != nil {
		return err
	}
	if err := t.unindex(k, old); err != nil {
		return err
	}
	return t.write(k, it)
}

// storable checks what the stored form needs of an item: its attributes
// sorted, none repeated, none with an empty name (DynamoDB allows none,
// and the stored form writes a name's index after a zero byte where a
// name's length would be: an empty name would read as an index).
func storable(it app.Item) error {
	switch {
	case !it.Sorted():
		return fmt.Errorf("localstore: item %s/%s has unsorted or repeated attributes", it.PK(), it.SK())
	case len(it) > 0 && it[0].Name == "":
		return fmt.Errorf("localstore: item %s/%s has an attribute with no name", it.PK(), it.SK())
	}
	return nil
}

// write stores an item's value under k and indexes it in GSI-1; the undo
// record and the old value's index entry are the caller's.
func (t *tx) write(k []byte, it app.Item) error {
	t.scratch = encodeItem(t.scratch[:0], it)
	if err := t.items(k).Put(k, t.keep(t.scratch)); err != nil {
		return fmt.Errorf("localstore: put %s/%s: %w", it.PK(), it.SK(), err)
	}
	if g, _ := it.Get(app.AttrGSI1PK); g.Kind == app.KindS && g.S != "" {
		return t.gsi.Put(gsiKey(g.S, it.Str(app.AttrGSI1SK), k), k)
	}
	return nil
}

func (t *tx) PutNew(pk string, sks []string, item func(i int) app.Item) error {
	if len(sks) == 0 {
		return nil
	}
	keys := make([][]byte, len(sks))
	for i, sk := range sks {
		if pk == "" || sk == "" {
			return fmt.Errorf("localstore: item without PK or SK")
		}
		t.scratch = append(append(append(t.scratch[:0], pk...), 0), sk...)
		keys[i] = t.keep(t.scratch)
		if i > 0 && bytes.Compare(keys[i-1], keys[i]) >= 0 {
			return fmt.Errorf("localstore: new items %s/%s and %s out of order", pk, sks[i-1], sk)
		}
	}
	// One walk finds any taken key: the cursor only moves forward, and
	// stays put while the keys fall in a gap (as an import's do).
	b := t.items(keys[0])
	c := b.Cursor()
	at, _ := c.Seek(keys[0])
	for i, k := range keys {
		for at != nil && bytes.Compare(at, k) < 0 {
			at, _ = c.Next()
		}
		if bytes.Equal(at, k) {
			return fmt.Errorf("localstore: item %s/%s already exists", pk, sks[i])
		}
	}
	// The items are made and encoded on a second goroutine while this one
	// writes them: bbolt takes writes from one goroutine only, and an
	// import's million items are then made on one core and written on the
	// other.
	chunks := make(chan newChunk, 4)
	stop := make(chan struct{})
	go encodeNew(pk, sks, keys, item, chunks, stop)
	defer func() {
		close(stop)
		for range chunks { // let the encoder end
		}
	}()
	if t.dirtySeq != 0 {
		if err := t.markNew(keys, t.dirtySeq); err != nil {
			return err
		}
	}
	i := 0
	for c := range chunks {
		if c.err != nil {
			return c.err
		}
		for j, v := range c.values {
			k := keys[i]
			if t.dirtySeq == 0 {
				if err := t.remember(k, nil); err != nil {
					return err
				}
			}
			if err := b.Put(k, v); err != nil {
				return fmt.Errorf("localstore: put %s/%s: %w", pk, sks[i], err)
			}
			if g := c.gsi[j]; g != nil {
				if err := t.gsi.Put(g, k); err != nil {
					return fmt.Errorf("localstore: put %s/%s: %w", pk, sks[i], err)
				}
			}
			i++
		}
	}
	return nil
}

// newChunk is a run of PutNew's items, encoded: each item's stored value,
// and its GSI-1 key (nil when it has none); or the error that ended them.
type newChunk struct {
	values, gsi [][]byte
	err         error
}

// newChunkItems is how many items a newChunk holds at most.
const newChunkItems = 256

// encodeNew makes PutNew's items (keys are their bbolt keys) in order,
// checks and encodes them, and sends them in chunks until they are done,
// one is refused, or stop is closed; then it closes chunks. The values live in blocks of its own
// (bbolt holds on to them until commit).
func encodeNew(pk string, sks []string, keys [][]byte, item func(i int) app.Item, chunks chan<- newChunk, stop <-chan struct{}) {
	defer close(chunks)
	var block []byte
	c := newChunk{}
	send := func() bool {
		select {
		case chunks <- c:
			c = newChunk{}
			return true
		case <-stop:
			return false
		}
	}
	for i, sk := range sks {
		it := item(i)
		switch {
		case it.PK() != pk || it.SK() != sk:
			c.err = fmt.Errorf("localstore: new item %d is %s/%s, not %s/%s", i, it.PK(), it.SK(), pk, sk)
		default:
			c.err = storable(it)
		}
		if c.err != nil {
			c.values, c.gsi = nil, nil
			send()
			return
		}
		if cap(block)-len(block) < arenaBlock/8 {
			block = make([]byte, 0, arenaBlock)
		}
		n := len(block)
		block = encodeItem(block, it)
		c.values = append(c.values, block[n:len(block):len(block)])
		var g []byte
		if v, _ := it.Get(app.AttrGSI1PK); v.Kind == app.KindS && v.S != "" {
			g = gsiKey(v.S, it.Str(app.AttrGSI1SK), keys[i])
		}
		c.gsi = append(c.gsi, g)
		if len(c.values) == newChunkItems && !send() {
			return
		}
	}
	if len(c.values) > 0 {
		send()
	}
}

// arenaBlock is the size of the blocks keep carves keys and values from.
const arenaBlock = 1 << 20

// keep returns a copy of b that lives as long as the transaction. bbolt holds
// on to the keys and values it is given until commit, so they cannot be
// reused; carving them from large blocks spares the allocator and the garbage
// collector one object per item (an import puts a million).
func (t *tx) keep(b []byte) []byte {
	if len(b) > cap(t.block)-len(t.block) {
		if len(b) > arenaBlock/8 {
			return append([]byte(nil), b...)
		}
		t.block = make([]byte, 0, arenaBlock)
	}
	n := len(t.block)
	t.block = append(t.block, b...)
	return t.block[n:len(t.block):len(t.block)]
}

func (t *tx) Delete(pk, sk string) error {
	k := itemKey(pk, sk)
	old := t.items(k).Get(k)
	if old == nil {
		return nil
	}
	if err := t.remember(k, old); err != nil {
		return err
	}
	if err := t.unindex(k, old); err != nil {
		return err
	}
	return t.items(k).Delete(k)
}

// gsiKey is the GSI-1 key of an item: GSI1PK, GSI1SK and the item's own key,
// zero-separated, so several items may share an index value.
func gsiKey(pk, sk string, itemKey []byte) []byte {
	k := make([]byte, 0, len(pk)+len(sk)+len(itemKey)+2)
	k = append(k, pk...)
	k = append(k, 0)
	k = append(k, sk...)
	k = append(k, 0)
	return append(k, itemKey...)
}

// unindex removes the GSI-1 entry of the stored item old (if it had one).
// It skims old for the two attributes (an item is rewritten far more often
// than it is indexed: a ballot event rewrites its election's item and the
// sync item), and decodes it whole only when the skim fails.
func (t *tx) unindex(k, old []byte) error {
	if old == nil {
		return nil
	}
	if pk, sk, ok := indexOf(old); ok {
		if pk == "" {
			return nil
		}
		return t.gsi.Delete(gsiKey(pk, sk, k))
	}
	it, err := decodeItem(k, old)
	if err != nil {
		return fmt.Errorf("localstore: item %q: %w", k, err)
	}
	if g, _ := it.Get(app.AttrGSI1PK); g.Kind == app.KindS && g.S != "" {
		return t.gsi.Delete(gsiKey(g.S, it.Str(app.AttrGSI1SK), k))
	}
	return nil
}

// indexOf returns the GSI-1 key a stored item value was indexed under, as
// write made it (GSI1PK a non-empty S, GSI1SK's text), without decoding
// the item; pk is "" when it was not indexed, and ok false when the value
// cannot be skimmed.
func indexOf(v []byte) (pk, sk string, ok bool) {
	kind, g, err := findText(v, app.AttrGSI1PK)
	if err != nil {
		return "", "", false
	}
	if kind != app.KindS || len(g) == 0 {
		return "", "", true
	}
	_, s, err := findText(v, app.AttrGSI1SK)
	if err != nil {
		return "", "", false
	}
	return string(g), string(s), true
}

func (t *tx) Query(pk, skPrefix string, fn func(app.Item) (bool, error)) error {
	prefix := itemKey(pk, skPrefix)
	c := t.items(prefix).Cursor()
	walked := scanCounter{w: t.warm}
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		walked.step()
		it, err := decodeItem(k, v)
		if err != nil {
			return fmt.Errorf("localstore: item %q: %w", k, err)
		}
		more, err := fn(it)
		if err != nil || !more {
			return err
		}
	}
	return nil
}

func (t *tx) QueryAttr(pk, skPrefix, attr string, fn func([]byte) (bool, error)) error {
	return t.QueryAttrs(pk, skPrefix, []string{attr}, func(_ []byte, vals [][]byte) (bool, error) {
		return fn(vals[0])
	})
}

func (t *tx) QueryAttrs(pk, skPrefix string, attrs []string, fn func(sk []byte, vals [][]byte) (bool, error)) error {
	prefix := itemKey(pk, skPrefix)
	c := t.items(prefix).Cursor()
	walked := scanCounter{w: t.warm}
	vals := make([][]byte, len(attrs))
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		walked.step()
		for i, a := range attrs {
			s, err := findString(v, a)
			if err != nil {
				return fmt.Errorf("localstore: item %q: %w", k, err)
			}
			vals[i] = s
		}
		more, err := fn(k[len(pk)+1:], vals)
		if err != nil || !more {
			return err
		}
	}
	return nil
}

func (t *tx) Partitions(pkPrefix, sk string, fn func(app.Item) (bool, error)) error {
	c := t.items([]byte(pkPrefix)).Cursor()
	k, _ := c.Seek([]byte(pkPrefix))
	for k != nil && bytes.HasPrefix(k, []byte(pkPrefix)) {
		end := bytes.IndexByte(k, 0)
		if end < 0 {
			return fmt.Errorf("localstore: item key %q has no partition separator", k)
		}
		pk := string(k[:end])
		it, ok, err := t.Get(pk, sk)
		if err != nil {
			return err
		}
		if ok {
			more, err := fn(it)
			if err != nil || !more {
				return err
			}
		}
		k, _ = c.Seek(append([]byte(pk), 1))
	}
	return nil
}

func (t *tx) ByGSI1(key string) (app.Item, bool, error) {
	prefix := append([]byte(key), 0)
	k, v := t.gsi.Cursor().Seek(prefix)
	if k == nil || !bytes.HasPrefix(k, prefix) {
		return nil, false, nil
	}
	raw := t.data.Get(v)
	if raw == nil {
		return nil, false, fmt.Errorf("localstore: GSI-1 entry %q points at no item", k)
	}
	it, err := decodeItem(v, raw)
	if err != nil {
		return nil, false, fmt.Errorf("localstore: item %q: %w", v, err)
	}
	return it, true, nil
}

func (t *tx) NewEventID() (string, error) {
	n := getUint(t.dev, keyDeviceSeq) + 1
	if err := putUint(t.dev, keyDeviceSeq, n); err != nil {
		return "", err
	}
	return fmt.Sprintf("%s-%010d", t.dev.Get(keyDeviceID), n), nil
}

func (t *tx) AppendEvent(ev *app.Event) error {
	seq, hash, err := t.Head()
	if err != nil {
		return err
	}
	ev.Seq = seq + 1
	ev.Chain(hash)
	if err := t.putEvent(ev); err != nil {
		return err
	}
	t.head, t.headHash, t.headOK = ev.Seq, ev.Hash, true
	return t.beginUndo(ev.Seq)
}

// putEvent stores an event at its sequence number.
func (t *tx) putEvent(ev *app.Event) error {
	b, err := app.EncodeEvent(ev)
	if err != nil {
		return fmt.Errorf("localstore: encode event %s: %w", ev.ID, err)
	}
	if err := t.log.Put(seqBytes(ev.Seq), b); err != nil {
		return fmt.Errorf("localstore: append event %d: %w", ev.Seq, err)
	}
	return nil
}

func (t *tx) Head() (uint64, string, error) {
	if t.headOK {
		return t.head, t.headHash, nil
	}
	k, v := t.log.Cursor().Last()
	if k == nil {
		return 0, "", nil
	}
	ev, err := app.DecodeEvent(v)
	if err != nil {
		return 0, "", fmt.Errorf("localstore: event %d: %w", binary.BigEndian.Uint64(k), err)
	}
	t.head, t.headHash, t.headOK = ev.Seq, ev.Hash, true
	return ev.Seq, ev.Hash, nil
}

func (t *tx) Events(from uint64, fn func(*app.Event) (bool, error)) error {
	c := t.log.Cursor()
	walked := scanCounter{w: t.warm}
	for k, v := c.Seek(seqBytes(from)); k != nil; k, v = c.Next() {
		walked.step()
		ev, err := app.DecodeEvent(v)
		if err != nil {
			return fmt.Errorf("localstore: event %d: %w", binary.BigEndian.Uint64(k), err)
		}
		more, err := fn(ev)
		if err != nil || !more {
			return err
		}
	}
	return nil
}

// seqBytes is the bbolt key of a log sequence number: 8 bytes big-endian, so
// byte order is numeric order.
func seqBytes(seq uint64) []byte {
	return binary.BigEndian.AppendUint64(nil, seq)
}

func getUint(b *bolt.Bucket, k []byte) uint64 {
	v := b.Get(k)
	if len(v) != 8 {
		return 0
	}
	return binary.BigEndian.Uint64(v)
}

func putUint(b *bolt.Bucket, k []byte, n uint64) error {
	return b.Put(k, binary.BigEndian.AppendUint64(nil, n))
}
