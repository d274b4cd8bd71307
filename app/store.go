package app

import (
	"context"
	"time"
)

// Store keeps the event log and the projection derived from it. localstore
// implements it over bbolt.
type Store interface {
	// Update runs fn in one read-write transaction. Everything fn writes
	// commits together and durably before Update returns, or, when fn returns
	// an error, nothing is written.
	Update(ctx context.Context, fn func(Tx) error) error
	// View runs fn in a read-only transaction over a consistent snapshot.
	View(ctx context.Context, fn func(Tx) error) error
}

// Tx is one transaction over the projection (items addressed by PK and SK, as
// in DynamoDB) and the event log.
type Tx interface {
	// Get returns the item with the given keys; ok is false when there is none.
	Get(pk, sk string) (it Item, ok bool, err error)
	// Put stores an item, replacing any with the same keys, and keeps GSI-1
	// (GSI1PK -> item) current.
	Put(it Item) error
	// PutNew stores n items of partition pk under the sort keys sks, which
	// must be in order and which no item may have yet: item(i) makes the
	// item with sort key sks[i]. A taken key refuses them all before any is
	// stored. It spares the store a lookup per item (an import stores a
	// million). item is called once per item, in order, on a goroutine of
	// the store's while it writes the items before: it must not use the
	// transaction.
	PutNew(pk string, sks []string, item func(i int) Item) error
	// Delete removes the item with the given keys, if any.
	Delete(pk, sk string) error
	// Query calls fn for each item of partition pk whose sort key begins with
	// skPrefix, in sort-key order, until fn returns false.
	Query(pk, skPrefix string, fn func(Item) (bool, error)) error
	// QueryAttr is Query for one string attribute: it calls fn with the raw
	// text of attribute attr (nil when absent) of each matching item, without
	// decoding the rest. The bytes are valid only during the call.
	QueryAttr(pk, skPrefix, attr string, fn func(v []byte) (bool, error)) error
	// QueryAttrs is QueryAttr for several string attributes, with each
	// item's sort key: fn gets the sort key and vals[i], the raw text of
	// attrs[i] (nil when absent). The bytes are valid only during the call.
	QueryAttrs(pk, skPrefix string, attrs []string, fn func(sk []byte, vals [][]byte) (bool, error)) error
	// Partitions calls fn with the item (P, sk) of every partition P that
	// begins with pkPrefix and holds such an item, in key order, until fn
	// returns false.
	Partitions(pkPrefix, sk string, fn func(Item) (bool, error)) error
	// ByGSI1 returns the first item whose GSI1PK equals key (GSI-1 is the
	// email index).
	ByGSI1(key string) (it Item, ok bool, err error)

	// Cached returns the value Cache keeps under key (nil when there is
	// none); the bytes are valid only during the transaction.
	Cached(key string) ([]byte, error)
	// Cache keeps b under key on this device, beside the projection but
	// not in it: no event writes it, and the state hash, the cloud, sync
	// and a rebuild's comparison never see it; replaying the log throws
	// every cached value away. A nil b drops key.
	Cache(key string, b []byte) error
	// EachCached calls fn with every key Cache keeps and its value, in key
	// order, until fn returns false.
	EachCached(fn func(key string, b []byte) (bool, error)) error

	// NewEventID returns a new event id, unique across devices: this device's
	// id (DeviceIDOf its signing key) and its next device sequence number.
	NewEventID() (string, error)
	// SignEvent signs an event, whose id NewEventID made, with this device's
	// key (Event.SignAsDevice).
	SignEvent(ev *Event) error
	// AppendEvent gives ev the next sequence number and its place in the hash
	// chain, and appends it to the log.
	AppendEvent(ev *Event) error
	// Head returns the sequence number and hash of the last event in the log
	// (0 and "" when it is empty).
	Head() (seq uint64, hash string, err error)
	// Events calls fn for each event with sequence number >= from, in order,
	// until fn returns false.
	Events(from uint64, fn func(*Event) (bool, error)) error
}

// Clock tells the time. Tests inject a fixed or stepping clock.
type Clock interface {
	Now() time.Time
}

// IDSource makes unique random ids (confirmation codes, ballot ids).
type IDSource interface {
	NewID() string
}

// ClockFunc adapts a function to Clock.
type ClockFunc func() time.Time

// Now calls f.
func (f ClockFunc) Now() time.Time { return f() }

// SystemClock is the wall clock.
var SystemClock Clock = ClockFunc(time.Now)
