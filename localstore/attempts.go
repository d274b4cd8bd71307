package localstore

import (
	"encoding/binary"
	"time"

	bolt "go.etcd.io/bbolt"
)

// bucketSignIn holds failed sign-ins on this device: login -> 8-byte count
// and 8-byte Unix nanoseconds of the last failure. It never leaves the device.
var bucketSignIn = []byte("signin_failures")

// Attempts is the store's app.AttemptLog: failed sign-ins survive restarts,
// so a guesser gains nothing by starting the command line again.
type Attempts struct{ s *Store }

// Attempts returns the store's record of failed sign-ins.
func (s *Store) Attempts() Attempts { return Attempts{s} }

// Failures returns how many sign-ins for login failed in a row, and when the
// last one did.
func (a Attempts) Failures(login string) (int, time.Time, error) {
	var n int
	var last time.Time
	err := a.s.db.View(func(btx *bolt.Tx) error {
		b := btx.Bucket(bucketSignIn)
		if b == nil {
			return nil
		}
		if v := b.Get([]byte(login)); len(v) == 16 {
			n = int(binary.BigEndian.Uint64(v[:8]))
			last = time.Unix(0, int64(binary.BigEndian.Uint64(v[8:])))
		}
		return nil
	})
	return n, last, err
}

// RecordFailure counts one more failure for login.
func (a Attempts) RecordFailure(login string, when time.Time) error {
	return a.s.db.Update(func(btx *bolt.Tx) error {
		b, err := btx.CreateBucketIfNotExists(bucketSignIn)
		if err != nil {
			return err
		}
		n := uint64(0)
		if v := b.Get([]byte(login)); len(v) == 16 {
			n = binary.BigEndian.Uint64(v[:8])
		}
		v := binary.BigEndian.AppendUint64(nil, n+1)
		v = binary.BigEndian.AppendUint64(v, uint64(when.UnixNano()))
		return b.Put([]byte(login), v)
	})
}

// ClearFailures forgets the failures of login after a success. With none
// to forget it writes nothing, so a command that only reads leaves the
// database file as it was, byte for byte.
func (a Attempts) ClearFailures(login string) error {
	if n, _, err := a.Failures(login); err != nil || n == 0 {
		return err
	}
	return a.s.db.Update(func(btx *bolt.Tx) error {
		if b := btx.Bucket(bucketSignIn); b != nil {
			return b.Delete([]byte(login))
		}
		return nil
	})
}
