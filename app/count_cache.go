package app

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unsafe"

	"votedesk/tally"
)

// The count cache. Counting a stored election reads every ballot item out of
// bbolt and parses its rankings: for a million ballots a walk of some 400 MB
// of pages, most of the time a count takes. Once an election's polls are
// closed its ballots stop changing, and officials count it again and again
// (other rules, the reports, the Results tab, audits). So the first count
// of a closed or finalized election keeps what it read (every ballot's
// marks, and its precinct, batch and record id) in one value of the
// device's cache (Tx.Cache), a tenth of the size, and later counts read
// that instead.
//
// A cached value is stamped with the log position it was read at (the
// head's sequence number and hash) and the election's id and candidates, and
// is used only while all of them are still the same. The projection is the
// log replayed, so an unchanged head means unchanged ballots: anything that
// changes them (a ballot, a resolved conflict, a rename, a pull, undoing
// pending events) appends to the log or rewrites it, and replaying the log
// again drops the cache. verify reads the ballots again and compares them
// with every value stamped with the current head (CheckCountCache).
//
// Layout (integers little-endian; string = uvarint length, bytes):
//
//	"VDCC" version(1 byte)
//	string election id, uvarint head sequence, string head hash
//	uvarint candidates { string name }
//	uvarint ballots, uvarint marks
//	ends  ballots x uint32
//	marks marks x (uint16 rank, uint16 candidate)
//	flags(1 byte): 1 precincts, 2 batches, 4 record ids
//	precincts, batches: uvarint distinct { string } then ballots x uint32
//	record ids: uvarint text length, text, ballots x uint32 ends

const (
	countCacheMagic   = "VDCC"
	countCacheVersion = 1
	countCachePrefix  = "count/"
)

const (
	cachedPrecincts = 1 << iota
	cachedBatches
	cachedIDs
)

// countStamp is what a cached value was read from.
type countStamp struct {
	election string
	headSeq  uint64
	headHash string
	cands    []string
}

// cacheable reports whether a count of e keeps what it read: once its polls
// are closed its ballots are done.
func cacheable(e Election) bool { return e.PollsClosed() && e.ID != "" }

func countCacheKey(id string) string { return countCachePrefix + id }

// cachedBallots returns the cached columns of election e when the cache
// holds them for the current head and candidates.
func cachedBallots(tx Tx, st countStamp, ids bool) (ballotColumns, bool, error) {
	b, err := tx.Cached(countCacheKey(st.election))
	if err != nil || b == nil {
		return ballotColumns{}, false, err
	}
	got, c, err := decodeCountCache(b, ids)
	if err != nil || !got.same(st) {
		// Stale or unreadable: read the ballots again, and the count
		// that does so replaces it.
		return ballotColumns{}, false, nil
	}
	return c, true, nil
}

func (a countStamp) same(b countStamp) bool {
	return a.election == b.election && a.headSeq == b.headSeq && a.headHash == b.headHash && slices.Equal(a.cands, b.cands)
}

// keepCount stores b under the election's key, if the log is still at the
// head it was read at, and drops every value stamped with another head
// (none can be used again). The cache only saves time: when it cannot be
// written (a file opened read-only, a full disk) the count goes on.
func (s *Service) keepCount(ctx context.Context, st countStamp, b []byte) {
	_ = s.store.Update(ctx, func(tx Tx) error {
		head, hash, err := tx.Head()
		if err != nil || head != st.headSeq || hash != st.headHash {
			return err
		}
		var stale []string
		err = tx.EachCached(func(key string, v []byte) (bool, error) {
			if got, ok := countCacheStampOf(v); strings.HasPrefix(key, countCachePrefix) && (!ok || got.headSeq != head || got.headHash != hash) {
				stale = append(stale, key)
			}
			return true, nil
		})
		if err != nil {
			return err
		}
		for _, k := range stale {
			if err := tx.Cache(k, nil); err != nil {
				return err
			}
		}
		return tx.Cache(countCacheKey(st.election), b)
	})
}

// encodeCountCache lays out c stamped with st.
func encodeCountCache(st countStamp, c ballotColumns) []byte {
	size := 64 + len(st.election) + len(st.headHash) + 4*len(c.ends) + 4*len(c.marks)
	for _, n := range st.cands {
		size += len(n) + 2
	}
	if c.precincts != nil {
		size += 4 * len(c.ends)
	}
	if c.batches != nil {
		size += 4 * len(c.ends)
	}
	if c.ids != nil {
		data, _ := c.ids.Raw()
		size += len(data) + 4*len(c.ends) + 8
	}
	b := make([]byte, 0, size)
	b = append(b, countCacheMagic...)
	b = append(b, countCacheVersion)
	b = appendCacheString(b, st.election)
	b = binary.AppendUvarint(b, st.headSeq)
	b = appendCacheString(b, st.headHash)
	b = binary.AppendUvarint(b, uint64(len(st.cands)))
	for _, n := range st.cands {
		b = appendCacheString(b, n)
	}
	b = binary.AppendUvarint(b, uint64(len(c.ends)))
	b = binary.AppendUvarint(b, uint64(len(c.marks)))
	for _, e := range c.ends {
		b = binary.LittleEndian.AppendUint32(b, e)
	}
	for _, m := range c.marks {
		b = binary.LittleEndian.AppendUint16(b, m.Rank)
		b = binary.LittleEndian.AppendUint16(b, m.Candidate)
	}
	var flags byte
	if c.precincts != nil {
		flags |= cachedPrecincts
	}
	if c.batches != nil {
		flags |= cachedBatches
	}
	if c.ids != nil {
		flags |= cachedIDs
	}
	b = append(b, flags)
	for _, col := range [][]string{c.precincts, c.batches} {
		if col != nil {
			b = appendInterned(b, col)
		}
	}
	if c.ids != nil {
		data, ends := c.ids.Raw()
		b = appendCacheString(b, unsafe.String(unsafe.SliceData(data), len(data)))
		for _, e := range ends {
			b = binary.LittleEndian.AppendUint32(b, e)
		}
	}
	return b
}

func appendCacheString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// appendInterned lays out a column of few distinct values: the values,
// then each entry's place among them.
func appendInterned(b []byte, col []string) []byte {
	place := map[string]uint32{}
	var distinct []string
	for _, v := range col {
		if _, ok := place[v]; !ok {
			place[v] = uint32(len(distinct))
			distinct = append(distinct, v)
		}
	}
	b = binary.AppendUvarint(b, uint64(len(distinct)))
	for _, v := range distinct {
		b = appendCacheString(b, v)
	}
	for _, v := range col {
		b = binary.LittleEndian.AppendUint32(b, place[v])
	}
	return b
}

var errCountCache = errors.New("malformed count cache")

// cacheReader reads the layout, checking every length against what is left.
type cacheReader struct {
	b   []byte
	off int
	err error
}

func (r *cacheReader) fail() { r.err, r.off = errCountCache, len(r.b) }

func (r *cacheReader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b[r.off:])
	if n <= 0 {
		r.fail()
		return 0
	}
	r.off += n
	return v
}

// count reads a number of things each at least size bytes long, which the
// rest of the value must be able to hold.
func (r *cacheReader) count(size int) int {
	v := r.uvarint()
	if r.err == nil && v > uint64((len(r.b)-r.off)/size) {
		r.fail()
		return 0
	}
	return int(v)
}

func (r *cacheReader) bytes(n int) []byte {
	if r.err != nil || n > len(r.b)-r.off {
		r.fail()
		return nil
	}
	v := r.b[r.off : r.off+n]
	r.off += n
	return v
}

func (r *cacheReader) str() string { return string(r.bytes(r.count(1))) }

func (r *cacheReader) uint32s(n int) []uint32 {
	raw := r.bytes(4 * n)
	if r.err != nil {
		return nil
	}
	out := make([]uint32, n)
	if littleEndian && n > 0 {
		copy(unsafe.Slice((*byte)(unsafe.Pointer(&out[0])), 4*n), raw)
		return out
	}
	for i := range out {
		out[i] = binary.LittleEndian.Uint32(raw[4*i:])
	}
	return out
}

// littleEndian says this machine keeps integers as the layout does, so
// columns are copied in whole rather than number by number.
var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// marks reads n marks.
func (r *cacheReader) marks(n int) []tally.Mark {
	raw := r.bytes(4 * n)
	if r.err != nil {
		return nil
	}
	out := make([]tally.Mark, n)
	if littleEndian && n > 0 && unsafe.Sizeof(tally.Mark{}) == 4 && unsafe.Offsetof(tally.Mark{}.Candidate) == 2 {
		copy(unsafe.Slice((*byte)(unsafe.Pointer(&out[0])), 4*n), raw)
		return out
	}
	for i := range out {
		out[i] = tally.Mark{Rank: binary.LittleEndian.Uint16(raw[4*i:]), Candidate: binary.LittleEndian.Uint16(raw[4*i+2:])}
	}
	return out
}

// countCacheStampOf reads only a value's stamp.
func countCacheStampOf(b []byte) (countStamp, bool) {
	r := &cacheReader{b: b}
	st := r.stamp()
	return st, r.err == nil
}

func (r *cacheReader) stamp() countStamp {
	if !bytes.HasPrefix(r.b, []byte(countCacheMagic)) || len(r.b) < len(countCacheMagic)+1 || r.b[len(countCacheMagic)] != countCacheVersion {
		r.fail()
		return countStamp{}
	}
	r.off = len(countCacheMagic) + 1
	st := countStamp{election: r.str(), headSeq: r.uvarint(), headHash: r.str()}
	st.cands = make([]string, r.count(1))
	for i := range st.cands {
		st.cands[i] = r.str()
	}
	return st
}

// decodeCountCache reads a cached value, with its record ids only when ids
// is set. Whatever it returns is well formed: ends in order and within the
// marks, every mark of a ballot at a rank from 1 up, in rank order, naming
// a candidate of the stamp or an overvote, one precinct, batch and id per
// ballot.
func decodeCountCache(b []byte, ids bool) (countStamp, ballotColumns, error) {
	r := &cacheReader{b: b}
	st := r.stamp()
	n := r.count(4)
	m := r.count(4)
	var c ballotColumns
	c.ends = r.uint32s(n)
	c.marks = r.marks(m)
	if r.err != nil {
		return st, c, r.err
	}
	if err := checkCachedMarks(c, len(st.cands)); err != nil {
		return st, c, err
	}
	flags := r.bytes(1)
	if r.err != nil || flags[0]&^(cachedPrecincts|cachedBatches|cachedIDs) != 0 {
		return st, c, errCountCache
	}
	if flags[0]&cachedPrecincts != 0 {
		c.precincts = r.interned(n)
	}
	if flags[0]&cachedBatches != 0 {
		c.batches = r.interned(n)
	}
	if flags[0]&cachedIDs != 0 && !ids {
		// Passed over, checked but not copied.
		size := r.count(1)
		r.bytes(size)
		if ends := r.bytes(4 * n); r.err == nil && !endsWithin(ends, size) {
			r.fail()
		}
	} else if flags[0]&cachedIDs != 0 {
		data := bytes.Clone(r.bytes(r.count(1)))
		ends := r.uint32s(n)
		if r.err == nil {
			ids, err := tally.TextsFromRaw(data, ends)
			if err != nil {
				return st, c, errCountCache
			}
			c.ids = ids
		}
	}
	if r.err == nil && r.off != len(b) {
		r.fail()
	}
	return st, c, r.err
}

// endsWithin reports whether raw, uint32s laid out, are in order and at
// most size, as tally.TextsFromRaw checks them.
func endsWithin(raw []byte, size int) bool {
	prev := uint32(0)
	for i := 0; i+4 <= len(raw); i += 4 {
		e := binary.LittleEndian.Uint32(raw[i:])
		if e < prev || int(e) > size {
			return false
		}
		prev = e
	}
	return true
}

func (r *cacheReader) interned(n int) []string {
	distinct := make([]string, r.count(1))
	for i := range distinct {
		distinct[i] = r.str()
	}
	places := r.uint32s(n)
	if r.err != nil {
		return nil
	}
	col := make([]string, n)
	for i, p := range places {
		if int(p) >= len(distinct) {
			r.fail()
			return nil
		}
		col[i] = distinct[p]
	}
	return col
}

func checkCachedMarks(c ballotColumns, cands int) error {
	start := uint32(0)
	for _, end := range c.ends {
		if end < start || int(end) > len(c.marks) {
			return errCountCache
		}
		prev := uint16(1)
		for _, mk := range c.marks[start:end] {
			if mk.Rank < prev || mk.Candidate != tally.Overvote && int(mk.Candidate) >= cands {
				return errCountCache
			}
			prev = mk.Rank
		}
		start = end
	}
	if int(start) != len(c.marks) {
		return errCountCache
	}
	return nil
}

// CheckCountCache compares every count the cache keeps for the current head
// with the ballots the projection holds, for verify: a value that differs
// would give a count other than the ballots'. Values stamped with an
// earlier head are never used, and are not read.
func CheckCountCache(tx Tx) (problems []string, err error) {
	head, hash, err := tx.Head()
	if err != nil {
		return nil, err
	}
	err = tx.EachCached(func(key string, v []byte) (bool, error) {
		if !strings.HasPrefix(key, countCachePrefix) {
			return true, nil
		}
		st, ok := countCacheStampOf(v)
		if ok && (st.headSeq != head || st.headHash != hash) {
			return true, nil
		}
		where := fmt.Sprintf("the count cache %q", key)
		st, cached, err := decodeCountCache(v, true)
		if err != nil {
			problems = append(problems, where+" cannot be read")
			return true, nil
		}
		e, found, err := electionByID(tx, st.election)
		if err != nil {
			return false, err
		}
		if !found || e.ID != st.election || key != countCacheKey(e.ID) {
			problems = append(problems, where+" names no election of the database")
			return true, nil
		}
		cands, err := candidatesOf(tx, e.Name)
		if err != nil {
			return false, err
		}
		if !slices.Equal(st.cands, candidateNames(cands)) {
			problems = append(problems, fmt.Sprintf("%s: its candidates are not those of %q", where, e.Name))
			return true, nil
		}
		fresh, err := readBallotColumns(tx, e, cands, true)
		if err != nil {
			return false, err
		}
		if !sameColumns(cached, fresh) {
			problems = append(problems, fmt.Sprintf("%s does not hold the ballots of %q: a count would read other ballots than the election's", where, e.Name))
		}
		return true, nil
	})
	return problems, err
}

func sameColumns(a, b ballotColumns) bool {
	if !slices.Equal(a.ends, b.ends) || !slices.Equal(a.marks, b.marks) || !slices.Equal(a.precincts, b.precincts) || !slices.Equal(a.batches, b.batches) {
		return false
	}
	if (a.ids == nil) != (b.ids == nil) {
		return false
	}
	if a.ids == nil {
		return true
	}
	ad, ae := a.ids.Raw()
	bd, be := b.ids.Raw()
	return bytes.Equal(ad, bd) && slices.Equal(ae, be)
}
