package localstore

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"

	"votedesk/app"
)

// VerifyReport is app.VerifyReport.
type VerifyReport = app.VerifyReport

// Verify checks the database: the log's hash chain, event by event; the
// projection against a rebuild from the log, item by item; and the totals the
// projection keeps against the items it holds.
func (s *Store) Verify(ctx context.Context) (r VerifyReport, err error) {
	s.warm.start() // it reads every page
	err = guard(s.path, func() error {
		var badCache bool
		r, badCache, err = verifyDB(ctx, s.db)
		if err == nil && badCache {
			// The cache holds nothing that is not derived again on
			// demand: throw it away, so no count reads it.
			if err = s.db.Update(dropCache); err == nil {
				r.Notes = append(r.Notes, "the count cache was thrown away: counts read the ballots themselves again")
			}
		}
		return err
	})
	return r, nameFile(s.path, err)
}

// CheckFile verifies a database file that is not open (a backup), read-only.
func CheckFile(ctx context.Context, path string) (VerifyReport, error) {
	if _, err := os.Stat(path); err != nil {
		return VerifyReport{}, app.Errorf(app.CodeNotFound, "cannot read %s: %v", path, err)
	}
	if err := checkShape(path); err != nil {
		return VerifyReport{}, err
	}
	db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true, Timeout: OpenTimeout})
	if errors.Is(err, berrors.ErrTimeout) {
		return VerifyReport{}, &app.Error{Code: app.CodeUnavailable, Message: fmt.Sprintf("%s is open in another VoteDesk, which may be changing it; close that one first, or check a backup of it", path), Err: err}
	}
	if err != nil {
		return VerifyReport{}, &app.Error{Code: app.CodeInvalid, Message: fmt.Sprintf("%s is not a VoteDesk database", path), Err: err}
	}
	defer db.Close()
	w := newWarmer(path) // verifying reads every page
	w.start()
	defer w.close()
	var r VerifyReport
	err = guard(path, func() error {
		r, _, err = verifyDB(ctx, db)
		return err
	})
	return r, nameFile(path, err)
}

// badCache says the count cache does not hold what the projection does
// (app.CheckCountCache).
func verifyDB(ctx context.Context, db *bolt.DB) (r VerifyReport, badCache bool, err error) {
	var format string
	err = db.View(func(btx *bolt.Tx) error {
		for _, b := range [][]byte{bucketData, bucketGSI1, bucketLog, bucketUndo, bucketDevice} {
			if btx.Bucket(b) == nil {
				r.Problem("the file has no %s bucket: it is not a VoteDesk database", b)
			}
		}
		if !r.OK() {
			return nil
		}
		format = string(btx.Bucket(bucketDevice).Get(keyFormat))
		if !knownFormat(format) {
			r.Problem("layout version %q, want %q", format, formatVersion)
		}
		checkChain(ctx, btx.Bucket(bucketLog), &r)
		if err := checkCounts(newTx(btx), &r); err != nil {
			return err
		}
		problems, notes, err := app.CheckAudits(newTx(btx))
		if err != nil {
			return err
		}
		for _, p := range problems {
			r.Problem("%s", p)
		}
		r.Notes = append(r.Notes, notes...)
		if problems, err = app.CheckCountCache(newTx(btx)); err != nil {
			return err
		}
		badCache = len(problems) > 0
		for _, p := range problems {
			r.Problem("%s", p)
		}
		if format == formatVersion { // older files have no name index until opened (migrate)
			if problems, err = app.CheckPollBookIndex(newTx(btx)); err != nil {
				return err
			}
			for _, p := range problems {
				r.Problem("%s", p)
			}
		}
		r.Accounts, err = app.ReadAccounts(newTx(btx))
		return err
	})
	if err != nil || !r.OK() && r.Events == 0 {
		return r, badCache, err
	}
	return r, badCache, checkRebuild(ctx, db, format, &r)
}

// checkChain walks the log: sequence numbers from 1 without gaps, every
// event decodable, stored at its own sequence number, linked to the one
// before and hashing to its hash (app.CheckRun, as sync checks the cloud's).
func checkChain(ctx context.Context, log *bolt.Bucket, r *VerifyReport) {
	prev := ""
	want := uint64(1)
	c := log.Cursor()
	report, total := app.VerifyProgressOf(ctx), lastSeq(log)
	defer func() { report(app.VerifyChain, r.Events, total) }()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		if ctx.Err() != nil {
			r.Problem("verification cancelled")
			return
		}
		seq := getSeq(k)
		r.Events = seq
		if seq%progressEvery == 0 {
			report(app.VerifyChain, seq, total)
		}
		ev, err := app.DecodeEvent(v)
		switch {
		case seq != want:
			err = app.Errorf(app.CodeInvalid, "event %d: the sequence jumps from %d to %d", seq, want-1, seq)
		case err != nil:
			err = app.Errorf(app.CodeInvalid, "event %d cannot be read: %s", seq, app.ErrorMessage(err))
		default:
			err = app.CheckRun(prev, want, []*app.Event{ev})
		}
		if err != nil {
			r.FirstBadSeq = seq
			r.Problem("%s", app.ErrorMessage(err))
			return
		}
		prev, want = ev.Hash, want+1
	}
	r.HeadHash = prev
}

// checkCounts compares the totals kept in the projection with the items.
func checkCounts(t *tx, r *VerifyReport) error {
	users, elections := 0, 0
	var perElection []app.Item
	if err := t.Partitions("USER#", "METADATA", func(app.Item) (bool, error) { users++; return true, nil }); err != nil {
		return err
	}
	err := t.Partitions("ELECTION#", "METADATA", func(it app.Item) (bool, error) {
		elections++
		perElection = append(perElection, it)
		return true, nil
	})
	if err != nil {
		return err
	}
	counts, _, err := t.Get("METADATA", "COUNTS")
	if err != nil {
		return err
	}
	if got := counts.Int("user_count"); got != int64(users) {
		r.Problem("METADATA/COUNTS says %d users; there are %d", got, users)
	}
	if got := counts.Int("election_count"); got != int64(elections) {
		r.Problem("METADATA/COUNTS says %d elections; there are %d", got, elections)
	}
	for _, e := range perElection {
		for _, c := range []struct{ attr, prefix string }{
			{"candidate_count", "CANDIDATE#"}, {"voter_count", "VOTER#"}, {"ballot_count", "BALLOT#"},
		} {
			n := 0
			if c.prefix == "BALLOT#" {
				var err error
				if n, err = app.CountBallots(t, e.PK()); err != nil { // an import's chunks hold many
					return err
				}
			} else if err := t.QueryAttr(e.PK(), c.prefix, "entity_type", func([]byte) (bool, error) { n++; return true, nil }); err != nil {
				return err
			}
			if got := e.Int(c.attr); got != int64(n) {
				r.Problem("%s says %s = %d; it holds %d", strings.TrimPrefix(e.PK(), "ELECTION#"), c.attr, got, n)
			}
		}
	}
	return nil
}

// checkRebuild replays the log into a scratch database and compares its
// projection with the live one item by item. A file of layout version 1 (a
// backup made before the upgrade) is compared as version 1 kept it: without
// what version 2 adds (legacyView); one of version 2, without its replay
// keys (kept under other keys until opened).
//
// The scratch database is a file in the temporary folder, written without
// fsync and removed at the end, and the log is copied and replayed into it
// a step at a time (rebuildStep), each step its own transaction: bbolt
// keeps what a transaction writes in memory until it commits, so one
// transaction for the whole rebuild (as until 2026-11-28) held a
// projection's worth of memory, about 600 MB for a stored
// 1,000,000-ballot election and 3.6 GB for 6,000,000, in every verify,
// backup and restore.
func checkRebuild(ctx context.Context, db *bolt.DB, format string, r *VerifyReport) error {
	dir, err := os.MkdirTemp("", "votedesk-verify-")
	if err != nil {
		return scratchError(db, os.TempDir(), err)
	}
	defer os.RemoveAll(dir)
	scratch, err := Open(dir + "/rebuild.db")
	if err != nil {
		return scratchError(db, filepath.Dir(dir), err)
	}
	defer scratch.Close()
	scratch.db.NoSync = true // thrown away: nothing to make durable
	return db.View(func(live *bolt.Tx) error {
		if err := copyLog(ctx, live.Bucket(bucketLog), scratch.db, rebuildStep); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return scratchError(db, filepath.Dir(dir), err)
		}
		if _, err := replayInSteps(ctx, scratch.db, rebuildStep); err != nil {
			var refused replayError
			switch {
			case ctx.Err() != nil:
				return ctx.Err()
			case errors.As(err, &refused):
				r.Problem("the log cannot be replayed: %v", refused.err)
				return nil
			}
			return scratchError(db, filepath.Dir(dir), err)
		}
		app.VerifyProgressOf(ctx)(app.VerifyCompare, 0, 0)
		return scratch.db.View(func(dst *bolt.Tx) error {
			view := asIs
			switch format {
			case formatLegacy:
				view = legacyView
			case formatSeenByHash:
				// A file not yet opened by this version (a backup) keeps
				// its replay keys under their hashes alone; the rebuild
				// keeps them where this version does. Opening the file
				// moves them (migrate), and then they are compared.
				view = func(k, v []byte) ([]byte, bool) { return v, !bytes.HasPrefix(k, []byte(app.PKSeen+"\x00")) }
			}
			if format != formatVersion {
				// Opening the file writes its items as this version
				// does (migrate); until then they are compared so.
				v := view
				view = func(k, b []byte) ([]byte, bool) {
					w, keep := v(k, b)
					if keep && format != formatNoIndex5 {
						w = respelled(k, w)
					}
					return w, keep
				}
			}
			if k, what := firstDifference(live.Bucket(bucketData), dst.Bucket(bucketData), view); k != nil {
				pk, sk, _ := bytes.Cut(k, []byte{0})
				r.Problem("the projection differs from a rebuild from the log at item %s / %s (%s)", pk, sk, what)
			}
			// The poll books' name indexes, which a file of an older
			// layout gets when it is opened (migrate).
			if format != formatVersion {
				return nil
			}
			names := live.Bucket(bucketNames)
			if names == nil {
				r.Problem("the file has no %s bucket, which its layout version %s holds", bucketNames, format)
				return nil
			}
			if k, what := firstDifference(names, dst.Bucket(bucketNames), asIs); k != nil {
				pk, sk, _ := bytes.Cut(k, []byte{0})
				r.Problem("the poll books' name index differs from a rebuild from the log at item %s / %q (%s)", pk, sk, what)
			}
			return nil
		})
	})
}

// progressEvery is how many events a verify's step goes between reports
// of its progress.
const progressEvery = 4096

// lastSeq is the sequence number of the last event of log (0 for none).
func lastSeq(log *bolt.Bucket) uint64 {
	k, _ := log.Cursor().Last()
	return getSeq(k)
}

// replayError is an error of a verify's replay of the log, as against one
// of writing its scratch file.
type replayError struct{ err error }

func (e replayError) Error() string { return e.err.Error() }

// scratchError says that verify could not write its rebuild of db's log in
// the temporary folder dir: it has no room, or cannot be written. The file
// verified is fine as far as anyone knows.
func scratchError(db *bolt.DB, dir string, err error) error {
	return &app.Error{Code: app.CodeUnavailable, Err: err, Message: fmt.Sprintf(
		"verify could not write its rebuild of %s in the temporary folder %s: %v; nothing was changed (it needs room there for about the database's size: free some, or set TMPDIR to a folder that has it)",
		db.Path(), dir, err)}
}

// rebuildStep is about how many bytes of events one transaction of a
// verify's rebuild copies or replays before it commits (a variable for
// tests, which take a step an event). An import's batch of 100,000
// ballots is about 11 MB of events, and replayed it makes about three
// times that of items: steps of 8 MB keep the verify of a stored
// 1,000,000-ballot election at 190 MB of memory of its own (610 MB in one
// transaction).
var rebuildStep = 8 << 20

// copyLog copies the log bucket from into db's, about step bytes a
// transaction.
func copyLog(ctx context.Context, from *bolt.Bucket, db *bolt.DB, step int) error {
	c := from.Cursor()
	k, v := c.First()
	for k != nil {
		if err := ctx.Err(); err != nil {
			return err
		}
		err := db.Update(func(btx *bolt.Tx) error {
			log := btx.Bucket(bucketLog)
			log.FillPercent = 1.0 // keys in order: full pages
			for size := 0; k != nil && size < step; k, v = c.Next() {
				if err := log.Put(k, v); err != nil {
					return err
				}
				size += len(k) + len(v)
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("localstore: verify: copy log: %w", err)
		}
	}
	return nil
}

// replayInSteps rebuilds db's projection from its log (rebuild), about step
// bytes of events a transaction, and says in how many transactions. An
// error of the replay itself (the log cannot be replayed) is a
// replayError; any other is the scratch file's.
func replayInSteps(ctx context.Context, db *bolt.DB, step int) (steps int, err error) {
	var total uint64
	err = db.Update(func(btx *bolt.Tx) error {
		total = lastSeq(btx.Bucket(bucketLog))
		return clearProjection(btx)
	})
	if err != nil {
		return 0, err
	}
	report := app.VerifyProgressOf(ctx)
	for next, more := uint64(1), true; more; steps++ {
		err := db.Update(func(btx *bolt.Tx) (err error) {
			next, more, _, err = replayFrom(ctx, btx, next, step)
			if err != nil {
				return replayError{err}
			}
			return nil
		})
		if err != nil {
			return steps, err
		}
		report(app.VerifyRebuild, next-1, total)
	}
	return steps, nil
}

// firstDifference returns the first key at which two buckets differ, as
// view shows their items (view may leave an item out).
func firstDifference(a, b *bolt.Bucket, view func(k, v []byte) ([]byte, bool)) ([]byte, string) {
	ca, cb := a.Cursor(), b.Cursor()
	next := func(c *bolt.Cursor, first bool) (k, v []byte) {
		if first {
			k, v = c.First()
		} else {
			k, v = c.Next()
		}
		for k != nil {
			if w, keep := view(k, v); keep {
				return k, w
			}
			k, v = c.Next()
		}
		return nil, nil
	}
	ka, va := next(ca, true)
	kb, vb := next(cb, true)
	for ka != nil || kb != nil {
		switch {
		case kb == nil || ka != nil && bytes.Compare(ka, kb) < 0:
			return ka, "not in the rebuild"
		case ka == nil || bytes.Compare(kb, ka) < 0:
			return kb, "missing from the projection"
		case !bytes.Equal(va, vb):
			return ka, "different attributes"
		}
		ka, va = next(ca, false)
		kb, vb = next(cb, false)
	}
	return nil, ""
}

// asIs is firstDifference's view of items compared as they are stored.
func asIs(_, v []byte) ([]byte, bool) { return v, true }

// respelled shows an item of a file before layout version 5, which spells
// out every attribute name, as this version writes it (attrNames).
func respelled(k, v []byte) []byte {
	it, err := decodeItem(k, v)
	if err != nil {
		return v
	}
	return encodeItem(nil, it)
}

// What layout version 2 adds to the projection of a version-1 log: the
// partitions of accounts, names, election histories, devices and replay
// keys, METADATA/FORMAT, and a few attributes.
var (
	v2Partitions = []string{"ACCOUNT#", "USERNAME#", "ELECTIONID#", "ELECTIONNAME#", "DEVICE#", "SEEN\x00"}
	v2Attributes = []string{"user_id", "public_key", "election_id", "owner_id", "sealed_ballots", "finalized_when", "account_id"}
)

// legacyView shows an item as layout version 1 kept it.
func legacyView(k, v []byte) ([]byte, bool) {
	for _, p := range v2Partitions {
		if bytes.HasPrefix(k, []byte(p)) {
			return nil, false
		}
	}
	if bytes.Equal(k, []byte("METADATA\x00FORMAT")) {
		return nil, false
	}
	it, err := decodeItem(k, v)
	if err != nil {
		return v, true
	}
	for _, a := range v2Attributes {
		it.Remove(a)
	}
	return encodeItem(nil, it), true
}

func getSeq(k []byte) uint64 {
	if len(k) != 8 {
		return 0
	}
	return binary.BigEndian.Uint64(k)
}

// RebuiltConfirmed replays the confirmed part of the log (the cloud's) into
// a scratch database and returns its projection, without the partitions
// that stay on a device: what the cloud projection must hold, derived from
// the log alone.
func (s *Store) RebuiltConfirmed(ctx context.Context) ([]app.Item, error) {
	dir, err := os.MkdirTemp("", "votedesk-rebuild-")
	if err != nil {
		return nil, fmt.Errorf("localstore: rebuild: %w", err)
	}
	defer os.RemoveAll(dir)
	scratch, err := Open(dir + "/rebuild.db")
	if err != nil {
		return nil, err
	}
	defer scratch.Close()
	err = s.db.View(func(src *bolt.Tx) error {
		confirmed := getUint(src.Bucket(bucketDevice), keyConfirmed)
		return scratch.db.Update(func(dst *bolt.Tx) error {
			log := dst.Bucket(bucketLog)
			log.FillPercent = 1.0
			c := src.Bucket(bucketLog).Cursor()
			for k, v := c.First(); k != nil && getSeq(k) <= confirmed; k, v = c.Next() {
				if err := log.Put(k, v); err != nil {
					return err
				}
			}
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("localstore: rebuild: copy log: %w", err)
	}
	if _, err := scratch.Rebuild(ctx); err != nil {
		return nil, err
	}
	var out []app.Item
	err = scratch.db.View(func(btx *bolt.Tx) error {
		return btx.Bucket(bucketData).ForEach(func(k, v []byte) error {
			if pk, _, _ := bytes.Cut(k, []byte{0}); app.LocalPartition(string(pk)) {
				return nil
			}
			it, err := decodeItem(k, v)
			if err != nil {
				return err
			}
			out = append(out, it)
			return nil
		})
	})
	return out, err
}
