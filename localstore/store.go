package localstore

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"

	"votedesk/app"
)

// Store is the domain's store: the compiler checks it stays so.
var _ app.Store = (*Store)(nil)

// Bucket names. The first three mirror the cloud tables; the others hold what
// never leaves the device.
var (
	bucketData   = []byte("vote_data")
	bucketGSI1   = []byte("vote_data_gsi1")
	bucketLog    = []byte("vote_event_log")
	bucketUndo   = []byte("undo")
	bucketDevice = []byte("device")
	// bucketCache holds what app.Tx.Cache keeps: values derived from the
	// projection, made when needed, thrown away with it.
	bucketCache = []byte("cache")
	// bucketNames holds the items of the poll books' name indexes
	// (app.PrefixVoterNames), keyed as items are: a partition of the
	// projection that stays on the device, in a bucket of its own because
	// bbolt keeps a transaction's new keys of one page in one node until
	// it commits, and inserts each in place. A poll book's voters and
	// their index entries, in one bucket, went into the same node of a
	// small file, where each voter added moved every index entry added
	// before it: 200,000 voters took 73 s instead of 2.
	bucketNames = []byte("voter_names")
)

// Keys of the device bucket.
var (
	keyDeviceID  = []byte("device_id")
	keyDeviceSeq = []byte("device_seq")
	keyConfirmed = []byte("confirmed_seq")
	keyFormat    = []byte("format")
	// keyNamesBehind is the last event, when an upgrade to layout
	// version 6 found events pending, whose undo record holds no images
	// of the poll books' name indexes (indexPollBooks).
	keyNamesBehind = []byte("names_undo_behind")
)

// formatVersion is the layout version written into new files. Version 1
// files (written before events were signed) are upgraded when opened, and
// so are version 2 files (replay keys stored under their hash alone),
// version 3 files (a projection made by rules since corrected), version 4
// files (every attribute name spelled out in every item), version 5
// files (no poll-book name index) and version 6 files (no chunks of
// imported ballots): see migrate.
const (
	formatVersion    = "7"
	formatNoChunks6  = "6"
	formatLegacy     = "1"
	formatSeenByHash = "2"
	formatRules3     = "3"
	formatNames4     = "4"
	formatNoIndex5   = "5"
)

// OpenTimeout is how long Open waits for another process to release the file.
const OpenTimeout = time.Second

// Store is a VoteDesk database file: the projection, the event log and this
// device's own state, in one bbolt file.
type Store struct {
	db   *bolt.DB
	path string
	// kept is where Open kept the file before upgrading its layout.
	kept string
	// warm reads the file into memory ahead of a long scan (warm.go).
	warm *warmer
}

// Open opens (creating if needed, with mode 0600) the database at path. When
// another process has it open, Open fails within OpenTimeout with an
// "unavailable" error saying so.
func Open(path string) (*Store, error) {
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, &app.Error{Code: app.CodeUnavailable, Message: fmt.Sprintf("cannot create the folder of the database %s: %v", path, errors.Unwrap(err)), Err: err}
		}
	}
	if err := checkShape(path); err != nil {
		return nil, err
	}
	var s *Store
	err := guard(path, func() error {
		var err error
		s, err = open(path)
		return err
	})
	if err != nil {
		return nil, nameFile(path, err)
	}
	return s, nil
}

// pageSize is the size of the pages of a database file this VoteDesk
// creates (a file keeps the page size it was created with). bbolt writes
// each changed page with a call of its own: an import of a million
// ballots writes some 480 MB, 120,000 calls at the system's 4 KB, 30,000
// at 16 KB. Measured (BenchmarkImportCVR1M/genericCsv, interleaved): 4 KB
// 3.27-3.49 s, 16 KB 2.61-2.89 s, 64 KB 2.51-2.55 s; reading a million
// ballots for a count 172-193 -> 132-158 ms; a durable cast the same
// (p99 3.2-4.1 ms either way), though it writes four times the bytes.
const pageSize = 16 << 10

// boltOptions are how a database file is opened.
func boltOptions() *bolt.Options {
	return &bolt.Options{
		Timeout:         OpenTimeout,
		FreelistType:    bolt.FreelistMapType,
		InitialMmapSize: 1 << 30,
		PageSize:        pageSize,
	}
}

// open opens the checked file at path: bbolt, buckets, layout, identity.
func open(path string) (*Store, error) {
	db, err := bolt.Open(path, 0o600, boltOptions())
	if errors.Is(err, berrors.ErrTimeout) {
		return nil, &app.Error{Code: app.CodeUnavailable, Message: fmt.Sprintf("the database %s is already open by another VoteDesk; close that one first", path), Err: err}
	}
	if err != nil {
		return nil, &app.Error{Code: app.CodeUnavailable, Message: fmt.Sprintf("cannot open the database %s: %v (is it a VoteDesk database?)", path, err), Err: err}
	}
	defer func() {
		// A damaged page panics (see guard): release the file first.
		if p := recover(); p != nil {
			db.Close()
			panic(p)
		}
	}()
	if err := os.Chmod(path, 0o600); err != nil {
		db.Close()
		return nil, fmt.Errorf("localstore: restrict %s to its owner: %w", path, err)
	}
	s := &Store{db: db, path: path, warm: newWarmer(path)}
	now := time.Now()
	if err := s.keepIfLegacy(now); err != nil {
		db.Close()
		return nil, err
	}
	if s.settled() {
		// Nothing to set up: opening writes nothing, so a command that
		// only reads leaves the file as it was, byte for byte.
		return s, nil
	}
	if err := s.init(); err != nil {
		db.Close()
		return nil, err
	}
	if err := s.migrate(now); err != nil {
		db.Close()
		return nil, err
	}
	if err := s.identify(now); err != nil {
		db.Close()
		return nil, fmt.Errorf("localstore: %s: %w", path, err)
	}
	return s, nil
}

// init creates the buckets and this device's id on first use, and checks the
// layout version of an existing file.
func (s *Store) init() error {
	return s.db.Update(func(btx *bolt.Tx) error {
		for _, b := range [][]byte{bucketData, bucketGSI1, bucketLog, bucketUndo, bucketDevice, bucketDirty, bucketNames} {
			if _, err := btx.CreateBucketIfNotExists(b); err != nil {
				return fmt.Errorf("localstore: create bucket %s: %w", b, err)
			}
		}
		dev := btx.Bucket(bucketDevice)
		if f := dev.Get(keyFormat); f != nil && !knownFormat(string(f)) {
			return app.Errorf(app.CodeUnavailable, "%s has layout version %s; this VoteDesk reads versions %s to %s", s.path, f, formatLegacy, formatVersion)
		}
		if dev.Get(keyFormat) == nil {
			return dev.Put(keyFormat, []byte(formatVersion))
		}
		return nil
	})
}

// knownFormat reports whether this VoteDesk reads (and, when older,
// upgrades) files of layout version f.
func knownFormat(f string) bool {
	return f == formatVersion || f == formatNoChunks6 || f == formatNoIndex5 || f == formatNames4 || f == formatRules3 || f == formatSeenByHash || f == formatLegacy
}

// settled reports whether the file needs nothing from Open: every bucket,
// the current layout version, this device's key, and a binding to this
// file where it is now.
func (s *Store) settled() bool {
	ok := false
	_ = s.db.View(func(btx *bolt.Tx) error {
		for _, b := range [][]byte{bucketData, bucketGSI1, bucketLog, bucketUndo, bucketDevice, bucketDirty, bucketNames} {
			if btx.Bucket(b) == nil {
				return nil
			}
		}
		t := newTx(btx)
		if string(t.dev.Get(keyFormat)) != formatVersion || t.dev.Get(keyDeviceKey) == nil {
			return nil
		}
		ok = t.boundHere(s.path)
		return nil
	})
	return ok
}

// Close closes the file.
func (s *Store) Close() error {
	s.warm.close()
	return s.db.Close()
}

// Path returns the file's path.
func (s *Store) Path() string { return s.path }

// DeviceID returns this database's device id, part of every event id it makes.
func (s *Store) DeviceID() string {
	var id string
	_ = s.db.View(func(btx *bolt.Tx) error {
		id = string(btx.Bucket(bucketDevice).Get(keyDeviceID))
		return nil
	})
	return id
}

// Update runs fn in a read-write transaction that commits durably (fsync)
// before Update returns; an error from fn rolls everything back.
func (s *Store) Update(ctx context.Context, fn func(app.Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return s.db.Update(func(btx *bolt.Tx) error {
		t := s.tx(btx)
		if err := fn(t); err != nil {
			return err
		}
		return t.flushUndo()
	})
}

// View runs fn in a read-only transaction.
func (s *Store) View(ctx context.Context, fn func(app.Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return s.db.View(func(btx *bolt.Tx) error { return fn(s.tx(btx)) })
}

// tx is a transaction of this store: a long scan in it warms the file.
func (s *Store) tx(btx *bolt.Tx) *tx {
	t := newTx(btx)
	t.warm = s.warm
	return t
}
