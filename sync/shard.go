package cloudsync

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"votedesk/app"
)

// Shards (doc.go, "Shards"): the cloud log is one global shard (LOG#global:
// users, roles, devices, elections' set-up and lifecycle, and cuts) and one
// shard per election for its ballots (LOG#ELECTION#{id}). Each shard is a
// gap-free hash-chained run of entries with its own head. A cut, an entry
// of the global shard, orders another shard's events: those after the
// shard's last cut, up to the cut's To, stand in the log where the cut
// stands. Every device reads the global shard in order and, at each cut,
// the shard's events it covers, so every device holds the one merged log in
// the same order (the local log), numbered and hash-chained alike.

// globalShard names the global shard in marks and status.
const globalShard = "global"

// shardPK is the partition key of a shard: LOG#global, or
// LOG#ELECTION#{id}.
func shardPK(shard string) string { return "LOG#" + shard }

// electionShard is the shard of the election with id.
func electionShard(id string) string { return "ELECTION#" + id }

// validShard reports whether name is an election's shard.
func validShard(name string) bool {
	id, ok := strings.CutPrefix(name, "ELECTION#")
	return ok && id != "" && len(id) <= 100 && !strings.ContainsAny(id, "# \t\n")
}

// eventShard is the shard ev is appended to ("global" or an election's).
func eventShard(ev *app.Event) string {
	if id := app.ShardOf(ev); id != "" {
		return electionShard(id)
	}
	return globalShard
}

// entry is one place of a shard: an event, or (in the global shard) a cut.
type entry struct {
	ev  *app.Event
	cut *cut
}

// cut orders the events of Shard after its last cut, up to To (whose hash
// in that shard's chain is ToHash), at its own place in the global shard.
type cut struct {
	Seq      uint64 `json:"seq"`
	Cut      cutOf  `json:"cut"`
	PrevHash string `json:"prev_hash"`
	Hash     string `json:"hash"`
}

type cutOf struct {
	Shard  string `json:"shard"`
	To     uint64 `json:"to"`
	ToHash string `json:"to_hash"`
}

// computeHash is the cut's chain hash after an entry whose hash is prev.
func (c *cut) computeHash(prev string) string {
	h := sha256.New()
	h.Write([]byte(prev))
	h.Write([]byte("\ncut\n" + c.Cut.Shard + "\n" + strconv.FormatUint(c.Cut.To, 10) + "\n" + c.Cut.ToHash))
	return hex.EncodeToString(h.Sum(nil))
}

func eventEntries(evs []*app.Event) []entry {
	out := make([]entry, len(evs))
	for i, ev := range evs {
		out[i] = entry{ev: ev}
	}
	return out
}

func (e entry) seq() uint64 {
	if e.cut != nil {
		return e.cut.Seq
	}
	return e.ev.Seq
}

func (e entry) hash() string {
	if e.cut != nil {
		return e.cut.Hash
	}
	return e.ev.Hash
}

// prevHash is the hash the entry is chained to.
func (e entry) prevHash() string {
	if e.cut != nil {
		return e.cut.PrevHash
	}
	return e.ev.PrevHash
}

// id names the entry: an event's id, or what a cut covers (two cuts with
// the same name are the same cut).
func (e entry) id() string {
	if e.cut != nil {
		return "cut:" + e.cut.Cut.Shard + ":" + strconv.FormatUint(e.cut.Cut.To, 10) + ":" + e.cut.Cut.ToHash
	}
	return e.ev.ID
}

func (e entry) encode() ([]byte, error) {
	if e.cut != nil {
		return json.Marshal(e.cut)
	}
	return app.EncodeEvent(e.ev)
}

// placed returns a copy of e at place seq, chained after prev.
func (e entry) placed(seq uint64, prev string) entry {
	if e.cut != nil {
		c := *e.cut
		c.Seq, c.PrevHash = seq, prev
		c.Hash = c.computeHash(prev)
		return entry{cut: &c}
	}
	ev := *e.ev
	ev.Seq = seq
	ev.Chain(prev)
	return entry{ev: &ev}
}

// cutPrefix is how a cut's line starts after its sequence number; an
// event's line has its version or id there.
var cutPrefix = []byte(`,"cut":{`)

// decodeEntry reads one line of a segment.
func decodeEntry(line []byte) (entry, error) {
	rest, ok := bytes.CutPrefix(line, []byte(`{"seq":`))
	if ok {
		i := 0
		for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
			i++
		}
		if bytes.HasPrefix(rest[i:], cutPrefix) {
			var c cut
			dec := json.NewDecoder(bytes.NewReader(line))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&c); err != nil {
				return entry{}, app.Errorf(app.CodeInvalid, "a cut that cannot be read: %v", err)
			}
			switch {
			case !validShard(c.Cut.Shard):
				return entry{}, app.Errorf(app.CodeInvalid, "a cut of %q, which is not an election's shard", c.Cut.Shard)
			case c.Cut.To == 0 || len(c.Cut.ToHash) != 64:
				return entry{}, app.Errorf(app.CodeInvalid, "a cut of %s with no end (to %d, hash %q)", c.Cut.Shard, c.Cut.To, c.Cut.ToHash)
			}
			return entry{cut: &c}, nil
		}
	}
	ev, err := app.DecodeEvent(line)
	if err != nil {
		if k := unknownKey(line); k != "" {
			return entry{}, app.Errorf(app.CodeInvalid, "an entry with %q, which this VoteDesk does not know (a newer VoteDesk wrote it? update VoteDesk on this device)", k)
		}
		return entry{}, err
	}
	return entry{ev: ev}, nil
}

// entryKeys are the keys of an event's or a cut's line.
var entryKeys = map[string]bool{"seq": true, "v": true, "id": true, "when": true, "actor": true, "actor_id": true,
	"type": true, "data": true, "sealed": true, "ukey": true, "usig": true, "dkey": true, "dsig": true,
	"prev_hash": true, "hash": true, "cut": true}

// unknownKey returns a key of the JSON object line that neither an event
// nor a cut has ("" for none, or for a line that is no JSON object): a
// line a newer VoteDesk wrote, which should say so rather than "malformed".
func unknownKey(line []byte) string {
	var obj map[string]json.RawMessage
	if json.Unmarshal(line, &obj) != nil {
		return ""
	}
	var unknown []string
	for k := range obj {
		if !entryKeys[k] {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) == 0 {
		return ""
	}
	slices.Sort(unknown)
	return unknown[0]
}

// checkEntries checks that entries continue a shard whose entry next-1
// has hash prev: places next, next+1, ... with no gap, each chained to the
// one before with a hash that matches its content, every event whole (as
// app.CheckRun). The error names the shard and the first bad place.
func checkEntries(shard, prev string, next uint64, entries []entry) error {
	_, err := checkPrefix(shard, prev, next, entries)
	return err
}

// checkPrefix is checkEntries, also saying how many entries from the
// start are whole (all of them when it returns no error).
func checkPrefix(shard, prev string, next uint64, entries []entry) (int, error) {
	for i := 0; i < len(entries); {
		want := next + uint64(i)
		if c := entries[i].cut; c != nil {
			switch {
			case shard != globalShard:
				return i, app.Errorf(app.CodeInvalid, "cloud log, shard %s: event %d is a cut, which only the global shard holds", shard, want)
			case c.Seq != want:
				return i, app.Errorf(app.CodeInvalid, "cloud log%s event %d is missing: event %d is in its place (a gap or a repeat in the log)", shardWords(shard), want, c.Seq)
			case c.PrevHash != prev:
				return i, app.Errorf(app.CodeInvalid, "cloud log%s event %d: the hash chain is broken", shardWords(shard), want)
			case c.computeHash(prev) != c.Hash:
				return i, app.Errorf(app.CodeInvalid, "cloud log%s event %d: its hash does not match its content, so it was changed after it was written", shardWords(shard), want)
			}
			prev = c.Hash
			i++
			continue
		}
		if err := app.CheckRun(prev, want, []*app.Event{entries[i].ev}); err != nil {
			return i, app.Errorf(app.CodeInvalid, "cloud log%s %s", shardWords(shard), app.ErrorMessage(err))
		}
		prev = entries[i].ev.Hash
		i++
	}
	return len(entries), nil
}

// shardWords names a shard in messages ("" for the global one, which is
// what a log of one shard was called before).
func shardWords(shard string) string {
	if shard == globalShard {
		return ""
	}
	return ", shard " + shard + ","
}

// place is where a reading of a shard stands: its last entry read and that
// entry's hash.
type place struct {
	Seq  uint64 `json:"seq"`
	Hash string `json:"hash"`
}

// mark says, for the confirmed head of the local log, where the reading of
// each shard stands: the global shard's last entry, and for each election's
// shard the end of its last cut. It is kept with the head, in the same
// transaction (Local.IntegrateMarked).
type mark struct {
	Global place            `json:"global"`
	Shards map[string]place `json:"shards,omitempty"`
}

func (m mark) clone() mark {
	out := mark{Global: m.Global, Shards: make(map[string]place, len(m.Shards))}
	for k, v := range m.Shards {
		out.Shards[k] = v
	}
	return out
}

// shardNames lists the elections' shards read so far, in order.
func (m mark) shardNames() []string {
	names := make([]string, 0, len(m.Shards))
	for k := range m.Shards {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

// places lists how far each shard is read: the global shard, then the
// elections' in order of their ids.
func (m mark) places() []app.ShardPlace {
	out := []app.ShardPlace{{Shard: globalShard, Read: m.Global.Seq}}
	for _, k := range m.shardNames() {
		out = append(out, app.ShardPlace{Shard: k, ElectionID: strings.TrimPrefix(k, "ELECTION#"), Read: m.Shards[k].Seq})
	}
	return out
}

func (m mark) encode() []byte {
	b, _ := json.Marshal(m)
	return b
}

// decodeMark reads the mark kept with a confirmed head (confirmed, hash).
// A device that kept none has read one shard only: the global one, up to
// its confirmed head.
func decodeMark(b []byte, confirmed uint64, hash string) (mark, error) {
	if b == nil {
		return mark{Global: place{confirmed, hash}, Shards: map[string]place{}}, nil
	}
	var m mark
	if err := json.Unmarshal(b, &m); err != nil {
		return mark{}, app.Errorf(app.CodeInvalid, "this device's record of where it stands in the cloud log is damaged: %v", err)
	}
	if m.Shards == nil {
		m.Shards = map[string]place{}
	}
	return m, nil
}

// readRange reads the entries from up to to of shard, which a cut said are
// there: eventually consistent as far as that goes when there are enough
// of them (unless consistent), the rest consistently (doc.go, "Reading at
// half price").
func (c *Cloud) readRange(ctx context.Context, shard string, from, to uint64, consistent bool) ([]entry, error) {
	settled := to
	if consistent {
		settled = 0
	}
	out, err := c.readEntries(ctx, shard, from, to, settled)
	if err != nil {
		return nil, err
	}
	if len(out) > 0 && out[len(out)-1].seq() > to {
		return nil, app.Errorf(app.CodeInvalid, "cloud log, shard %s: a cut ends at %d, inside the segment that starts at %d", shard, to, out[len(out)-1].seq())
	}
	if uint64(len(out)) != to-from+1 {
		return nil, app.Errorf(app.CodeInvalid, "cloud log, shard %s: a cut covers events up to %d, but the shard holds only %d after %d", shard, to, len(out), from-1)
	}
	return out, nil
}

// merger lays the global shard's entries, and at each cut the events it
// covers, into the merged log: numbered from next, chained after prev.
type merger struct {
	c    *Cloud
	m    mark
	next uint64
	prev string
	// read holds, per shard, events read ahead of the cuts that order
	// them: a page's cuts of one shard are read with one query.
	read map[string][]entry
	// consistent reads the shards consistently, as the global shard was
	// (a tool's whole read of the log).
	consistent bool
	// bad holds, per shard, why what its cuts in this page cover cannot
	// be taken: the cut that meets it ends the page there.
	bad map[string]error
	// own holds, per shard, entries this device appended there in this
	// cycle (Syncer.appended), which need not be read back.
	own map[string][]entry
}

// take returns the merged events of a page of the global shard's entries,
// already checked as a run of that shard; m then stands after them. A cut
// whose events cannot be read, or are not what it says, ends the page
// before it: take returns the events before it, and why, naming the place
// in the merged log where the cut's first event would stand.
func (g *merger) take(ctx context.Context, page []entry) ([]*app.Event, error) {
	if err := g.readAhead(ctx, page); err != nil {
		return nil, err
	}
	var out []*app.Event
	for _, e := range page {
		// Where the global shard stands after e, taken before place
		// renumbers and rechains it as the merged log's.
		at := place{e.seq(), e.hash()}
		if e.cut == nil {
			g.m.learn(e.ev)
			out = append(out, g.place(e.ev))
		} else {
			evs, err := g.covered(e.cut)
			if err != nil {
				return out, &badAt{seq: g.next, err: err}
			}
			for _, ev := range evs {
				out = append(out, g.place(ev))
			}
		}
		g.m.Global = at
	}
	return out, nil
}

// learn adds to m the election's shard an event of the global shard tells
// of (a ballot, an election created), so that a device looks there for
// events no cut orders yet (sweep) even before any cut named it.
func (m mark) learn(ev *app.Event) {
	id := app.ShardNamed(ev)
	if id == "" {
		return
	}
	if sh := electionShard(id); validShard(sh) {
		if _, ok := m.Shards[sh]; !ok {
			m.Shards[sh] = place{}
		}
	}
}

// readAhead reads, for each shard the page's cuts order, every event they
// cover, with one query per shard, and checks them against the shard's
// chain.
func (g *merger) readAhead(ctx context.Context, page []entry) error {
	reach := map[string]uint64{}
	for _, e := range page {
		if e.cut != nil {
			reach[e.cut.Cut.Shard] = max(reach[e.cut.Cut.Shard], e.cut.Cut.To)
		}
	}
	g.read, g.bad = map[string][]entry{}, map[string]error{}
	for shard, to := range reach {
		at := g.m.Shards[shard]
		if to <= at.Seq {
			continue
		}
		if entries, ok := ownRange(g.own[shard], at, to); ok {
			g.read[shard] = entries
			continue
		}
		entries, err := g.c.readRange(ctx, shard, at.Seq+1, to, g.consistent)
		if err == nil {
			err = checkEntries(shard, at.Hash, at.Seq+1, entries)
		}
		if app.ErrorCode(err) == app.CodeInvalid {
			g.bad[shard] = err
			continue
		}
		if err != nil {
			return err
		}
		verifyEntries(entries)
		g.read[shard] = entries
	}
	return nil
}

// ownRange returns the entries of shard after at up to to when this
// device appended every one of them in this cycle (own, as it placed
// them): copies, since the merged log renumbers and rechains what it
// takes. A shard's places are written once, on condition that they are
// free, and an append counts as committed only when DynamoDB said so or
// the place holds this device's own entries with the hash it gave them,
// so these are what the shard holds there. A device that imported a
// million ballots so reads back only the cut that orders them, not the
// ballots (other devices read them, and check them, as any).
func ownRange(own []entry, at place, to uint64) ([]entry, bool) {
	if len(own) == 0 || to <= at.Seq {
		return nil, false
	}
	first, last := own[0].seq(), own[len(own)-1].seq()
	if at.Seq+1 < first || to > last {
		return nil, false
	}
	run := own[at.Seq+1-first : to-first+1]
	// What this cycle appended need not be one run (another device may
	// have appended between two of its appends): the places and the links
	// of the chain say whether these are the ones after at. Their hashes
	// need no checking again: this device computed them when it placed
	// them.
	out := make([]entry, len(run))
	prev := at
	for i, e := range run {
		if e.ev == nil || e.ev.Seq != prev.Seq+1 || e.ev.PrevHash != prev.Hash {
			return nil, false
		}
		ev := *e.ev
		out[i] = entry{ev: &ev}
		prev = place{ev.Seq, ev.Hash}
	}
	return out, true
}

// place numbers ev as the merged log's next event and chains it there (an
// event's content, id and signatures do not depend on its place).
func (g *merger) place(ev *app.Event) *app.Event {
	ev.Seq = g.next
	if ev.PrevHash != g.prev {
		ev.Chain(g.prev)
	}
	g.next, g.prev = g.next+1, ev.Hash
	return ev
}

// covered returns the events a cut orders: those of its shard after the
// shard's last cut, up to the cut's end (read ahead and checked), whose
// last must have the hash the cut gives it. A cut that covers nothing new
// (another cut went as far) orders nothing.
func (g *merger) covered(k *cut) ([]*app.Event, error) {
	at := g.m.Shards[k.Cut.Shard]
	if k.Cut.To <= at.Seq {
		return nil, nil
	}
	if err := g.bad[k.Cut.Shard]; err != nil {
		return nil, err
	}
	n := int(k.Cut.To - at.Seq)
	entries := g.read[k.Cut.Shard]
	if n > len(entries) {
		return nil, app.Errorf(app.CodeInvalid, "cloud log: the cut at %d orders %s up to %d, which was not read", k.Seq, k.Cut.Shard, k.Cut.To)
	}
	if last := entries[n-1].hash(); last != k.Cut.ToHash {
		return nil, app.Errorf(app.CodeInvalid, "cloud log: the cut at %d says %s ends at %d with hash %.12s…, but its event there has %.12s…", k.Seq, k.Cut.Shard, k.Cut.To, k.Cut.ToHash, last)
	}
	evs := make([]*app.Event, n)
	for i, e := range entries[:n] {
		evs[i] = e.ev
	}
	g.read[k.Cut.Shard] = entries[n:]
	g.m.Shards[k.Cut.Shard] = place{k.Cut.To, k.Cut.ToHash}
	return evs, nil
}

// readMerged reads the cloud log after mark m, whose merged head is
// next-1 with hash prev, and calls fn with each page of merged events and
// the mark after it. settled is the global shard's head as the cycle read
// it (readLog). A page of cuts that order nothing new still moves the mark.
// What cannot be read (a bad segment, a cut whose events are missing or
// changed) ends the read with an error; with upTo, fn first takes the
// events before it (a check of the whole log reports how far it is whole;
// a pull applies no part of a bad page).
func (c *Cloud) readMerged(ctx context.Context, m mark, next uint64, prev string, settled uint64, upTo bool, own map[string][]entry, fn func(page []*app.Event, m mark) error) error {
	g := &merger{c: c, m: m.clone(), next: next, prev: prev, consistent: settled == 0, own: own}
	gprev := m.Global.Hash
	check := func(page []entry) error {
		n, err := checkPrefix(globalShard, gprev, page[0].seq(), page)
		if err != nil {
			if upTo {
				return &partialPage{n: n, err: err}
			}
			return err
		}
		gprev = page[len(page)-1].hash()
		return nil
	}
	return c.readLog(ctx, m.Global.Seq+1, settled, check, func(page []entry) error {
		evs, err := g.take(ctx, page)
		var bad *badAt
		if err != nil && !errors.As(err, &bad) {
			return err
		}
		if err == nil || upTo && len(evs) > 0 {
			if ferr := fn(evs, g.m.clone()); ferr != nil {
				return ferr
			}
		}
		return err
	})
}

// partialPage is why a page of the global shard is not whole, and how
// many of its entries from the start are.
type partialPage struct {
	n   int
	err error
}

func (p *partialPage) Error() string { return p.err.Error() }
func (p *partialPage) Unwrap() error { return p.err }

// badAt is why the cloud log cannot be read past event seq of the merged
// log: a cut whose events are missing or not what it says.
type badAt struct {
	seq uint64
	err error
}

func (b *badAt) Error() string { return app.ErrorMessage(b.err) }
func (b *badAt) Unwrap() error { return b.err }

// readTail reads, consistently, what shard holds after the entry at known:
// every append that committed before the read.
func (c *Cloud) readTail(ctx context.Context, shard string, known place) ([]entry, error) {
	return c.readEntries(ctx, shard, known.Seq+1, 0, 0)
}

// readEntries reads the entries of shard from from on, up to to (0: to its
// end), checking their frames and places (scanLog says which queries are
// eventually consistent).
func (c *Cloud) readEntries(ctx context.Context, shard string, from, to, settled uint64) ([]entry, error) {
	var out []entry
	err := c.scanLog(ctx, shardPK(shard), from, to, settled, func(items []map[string]types.AttributeValue, next uint64) (uint64, error) {
		page, err := decodePage(items, next)
		if err != nil || len(page) == 0 {
			return next, err
		}
		out = append(out, page...)
		return page[len(page)-1].seq() + 1, nil
	})
	return out, err
}
