package localstore

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"

	"votedesk/app"
)

// A database knows which device it is. The device bucket holds the
// device's signing key (device_key, an Ed25519 seed); the device id is
// app.DeviceIDOf its public key, and every event id it makes starts with
// it, so no other device can make events under its ids. It also holds the
// file's binding: the machine it was last opened on and the file's
// identity there (device and inode numbers). A database opened on another
// machine, or as another file (a copy, a restored backup), is a new device:
// before it writes anything it takes a new key (and so a new id) and
// records a DeviceJoined event saying why. The events it made before keep
// their ids, and are the same events wherever the copies push them.
//
// A copy the binding cannot tell (a backup copied over the database in
// place) is caught by sync: the cloud log then holds events of this
// device's id this database does not have (Integrate rotates the identity
// then, and gives its pending events of that id new ids).

// Keys of the device bucket for the identity.
var (
	keyDeviceKey = []byte("device_key")
	keyBinding   = []byte("binding")
)

// binding is where a database file lives.
type binding struct {
	Machine string `json:"machine"`
	Dev     uint64 `json:"dev"`
	Ino     uint64 `json:"ino"`
}

// currentBinding reads the machine's id and the file's identity.
func currentBinding(path string) (binding, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return binding{}, err
	}
	dev, ino := fileIdentity(fi)
	return binding{Machine: machineID(), Dev: dev, Ino: ino}, nil
}

// machineID identifies this machine: systemd's machine id, else D-Bus's,
// else the host name.
func machineID() string {
	for _, p := range []string{"/etc/machine-id", "/var/lib/dbus/machine-id"} {
		if b, err := os.ReadFile(p); err == nil && len(strings.TrimSpace(string(b))) > 0 {
			return strings.TrimSpace(string(b))
		}
	}
	h, _ := os.Hostname()
	return "host:" + h
}

// deviceKey returns the device's signing key.
func (t *tx) deviceKey() (ed25519.PrivateKey, error) {
	seed := t.dev.Get(keyDeviceKey)
	if len(seed) != ed25519.SeedSize {
		return nil, fmt.Errorf("localstore: this database has no device key")
	}
	return ed25519.NewKeyFromSeed(seed), nil
}

// newIdentity gives the database a new device key and id, with its event
// counter at 0, and returns the id it replaces.
func (t *tx) newIdentity() (old string, err error) {
	seed := make([]byte, ed25519.SeedSize)
	if _, err := rand.Read(seed); err != nil {
		return "", err
	}
	old = string(t.dev.Get(keyDeviceID))
	id := app.DeviceIDOf(ed25519.NewKeyFromSeed(seed).Public().(ed25519.PublicKey))
	for _, kv := range [][2][]byte{{keyDeviceKey, seed}, {keyDeviceID, []byte(id)}} {
		if err := t.dev.Put(kv[0], kv[1]); err != nil {
			return "", err
		}
	}
	return old, putUint(t.dev, keyDeviceSeq, 0)
}

// rotate gives the database a new identity and records why, in a
// DeviceJoined event at the head of the log.
func (t *tx) rotate(reason, detail string, now time.Time) error {
	old, err := t.newIdentity()
	if err != nil {
		return err
	}
	return app.AnnounceDevice(t, now, old, reason, detail)
}

// checkBinding compares the file's binding with where it is now: an
// unbound file (new, or made before bindings) is bound; a file bound
// elsewhere takes a new identity.
func (t *tx) checkBinding(path string, now time.Time) error {
	cur, err := currentBinding(path)
	if err != nil {
		return fmt.Errorf("localstore: identify %s: %w", path, err)
	}
	raw, _ := json.Marshal(cur)
	stored := t.dev.Get(keyBinding)
	if stored == nil {
		return t.dev.Put(keyBinding, raw)
	}
	var was binding
	if json.Unmarshal(stored, &was) == nil && was == cur {
		return nil
	}
	why := "the database file was copied or restored"
	if was.Machine != cur.Machine {
		why = "the database file was moved or copied to another machine"
	}
	if err := t.rotate(app.DeviceCopied, why, now); err != nil {
		return err
	}
	return t.dev.Put(keyBinding, raw)
}

// boundHere reports whether the file's stored binding is the file at path
// as it is now (checkBinding would change nothing).
func (t *tx) boundHere(path string) bool {
	cur, err := currentBinding(path)
	if err != nil {
		return false
	}
	var was binding
	stored := t.dev.Get(keyBinding)
	return stored != nil && json.Unmarshal(stored, &was) == nil && was == cur
}

// SignEvent signs an event with the device's key.
func (t *tx) SignEvent(ev *app.Event) error {
	k, err := t.deviceKey()
	if err != nil {
		return err
	}
	ev.SignAsDevice(k)
	return nil
}

// identify runs the identity checks of Open: a fresh file gets its key; a
// file of the layout before signing is upgraded (rebuilt, keyed, announced);
// a file bound elsewhere takes a new identity.
func (s *Store) identify(now time.Time) error {
	return s.db.Update(func(btx *bolt.Tx) error {
		t := newTx(btx)
		if t.dev.Get(keyDeviceKey) == nil {
			old, err := t.newIdentity()
			if err != nil {
				return err
			}
			if last, _ := t.log.Cursor().Last(); last != nil {
				// Events exist: this is an upgraded database. Its old id
				// leaves with an announcement.
				if err := app.AnnounceDevice(t, now, old, app.DeviceUpgraded, ""); err != nil {
					return err
				}
			}
		}
		if err := t.checkBinding(s.path, now); err != nil {
			return err
		}
		return t.flushUndo()
	})
}

// DeviceKey returns the device's public key, as events carry it.
func (s *Store) DeviceKey() (ed25519.PublicKey, error) {
	var pub ed25519.PublicKey
	err := s.db.View(func(btx *bolt.Tx) error {
		k, err := newTx(btx).deviceKey()
		if err == nil {
			pub = k.Public().(ed25519.PublicKey)
		}
		return err
	})
	return pub, err
}

// rebind binds a file VoteDesk itself rewrote (a compacted database, which
// stays the same device) to where it is now; renaming it keeps the binding.
func rebind(db *bolt.DB, path string) error {
	cur, err := currentBinding(path)
	if err != nil {
		return fmt.Errorf("localstore: identify %s: %w", path, err)
	}
	raw, _ := json.Marshal(cur)
	return db.Update(func(btx *bolt.Tx) error { return btx.Bucket(bucketDevice).Put(keyBinding, raw) })
}
