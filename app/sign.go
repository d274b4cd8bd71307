package app

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"runtime"
	"strconv"
	"strings"
	"sync"
)

// Signatures of format-2 events (see Event).
//
// The actor signs userMessage: a domain tag, then the format, time, actor
// (name and account id), type and data as canonical JSON. Not the id: an
// event keeps its actor's signature when its device has to give it a new id
// (a copied database, see localstore), and a copy of the event under another
// id is caught as a replay (its ReplayKey was seen).
//
// The device signs deviceMessage: a domain tag, the event id, and the
// SHA-256 of the user message. The device part of an id is DeviceIDOf the
// device's public key, so no device can make events with another's ids.
const (
	userSigTag   = "votedesk/event/v2/user\n"
	deviceSigTag = "votedesk/event/v2/device\n"
)

// encodeKey and decodeKey write keys and signatures as unpadded URL-safe
// base64.
var b64 = base64.RawURLEncoding

func encodeKey(b []byte) string { return b64.EncodeToString(b) }

// userMessage is what the actor signs.
func (e *Event) userMessage() []byte {
	b := make([]byte, 0, len(userSigTag)+160+len(e.Data))
	b = append(b, userSigTag...)
	b = append(b, `{"v":`...)
	b = strconv.AppendInt(b, int64(e.V), 10)
	b = append(b, `,"when":`...)
	b = appendJSONString(b, FormatTime(e.When))
	b = append(b, `,"actor":`...)
	b = appendJSONString(b, e.Actor)
	b = append(b, `,"actor_id":`...)
	b = appendJSONString(b, e.ActorID)
	b = append(b, `,"type":`...)
	b = appendJSONString(b, string(e.Type))
	b = append(b, `,"data":`...)
	b = append(b, e.Data...)
	return append(b, '}')
}

// deviceMessage is what the device signs.
func (e *Event) deviceMessage() []byte {
	sum := e.userMessageSum()
	b := make([]byte, 0, len(deviceSigTag)+len(e.ID)+66)
	b = append(b, deviceSigTag...)
	b = append(b, e.ID...)
	b = append(b, '\n')
	return hex.AppendEncode(b, sum[:])
}

// ReplayKey identifies what an actor did, whatever id the event travels
// under: the hex SHA-256 of the message the actor signed. The rules refuse
// a signed event whose replay key was already applied.
func (e *Event) ReplayKey() string {
	sum := e.userMessageSum()
	return hex.EncodeToString(sum[:])
}

// userMessageSum returns the SHA-256 of userMessage, computed once while
// the fields it covers stay as they were.
func (e *Event) userMessageSum() [sha256.Size]byte {
	k := userSumKey{v: e.V, when: e.When, actor: e.Actor, actorID: e.ActorID, typ: string(e.Type), data: e.Data}
	if !k.same(e.userSumFor) {
		e.userSum, e.userSumFor = sha256.Sum256(e.userMessage()), k
	}
	return e.userSum
}

// SignAsActor sets the event's format to 2, unless it is a later one, and
// signs it with the actor's key. The event's time, actor, type and data
// must be final.
func (e *Event) SignAsActor(k ed25519.PrivateKey) {
	e.V = max(e.V, FormatSigned)
	e.UserKey = encodeKey(k.Public().(ed25519.PublicKey))
	e.UserSig = encodeKey(ed25519.Sign(k, e.userMessage()))
}

// SignAsDevice signs the event, with its id, by the device's key. The
// device part of the id must be DeviceIDOf the key.
func (e *Event) SignAsDevice(k ed25519.PrivateKey) {
	e.V = max(e.V, FormatSigned)
	e.DevKey = encodeKey(k.Public().(ed25519.PublicKey))
	e.DevSig = encodeKey(ed25519.Sign(k, e.deviceMessage()))
}

// DeviceIDOf is the device id of a device key: the first 16 hex digits of
// the SHA-256 of the public key.
func DeviceIDOf(pub ed25519.PublicKey) string {
	sum := sha256.Sum256(pub)
	return hex.EncodeToString(sum[:8])
}

// EventDevice returns the device part of an event id ("{device}-{n}").
func EventDevice(id string) string {
	d, _, _ := strings.Cut(id, "-")
	return d
}

// VerifySignatures checks a format-2 event's signatures: the device key is
// the one its id names and signed the id and content; the actor's key (when
// the type has an actor) signed the content. Whether the actor's key is
// theirs is for the rules to say at the event's place in the log. A
// successful check is remembered on the event and in a process-wide cache,
// so checking in parallel before applying spares the check while applying.
func (e *Event) VerifySignatures() error {
	if !e.Signed() || e.verified {
		return nil
	}
	dkey, err := decodePublicKey(e.DevKey)
	if err != nil {
		return Errorf(CodeForbidden, "event %s: its device key is malformed", e.ID)
	}
	if DeviceIDOf(dkey) != EventDevice(e.ID) {
		return Errorf(CodeForbidden, "event %s: its id names device %s, but it was signed by device %s", e.ID, EventDevice(e.ID), DeviceIDOf(dkey))
	}
	if !verifyCached(dkey, e.deviceMessage(), e.DevSig) {
		return Errorf(CodeForbidden, "event %s: its device signature does not match (the event was changed or forged)", e.ID)
	}
	if e.Type != EvDeviceJoined || e.UserSig != "" {
		ukey, err := decodePublicKey(e.UserKey)
		if err != nil {
			return Errorf(CodeForbidden, "event %s: its actor's key is malformed", e.ID)
		}
		if !verifyCached(ukey, e.userMessage(), e.UserSig) {
			return Errorf(CodeForbidden, "event %s: the signature of %s does not match (the event was changed or forged)", e.ID, e.Actor)
		}
	}
	e.verified = true
	return nil
}

// VerifyAll checks the signatures of events on every core, so that applying
// them later does not check them one by one. A bad signature is not an
// error here: the rules refuse that event when it is applied.
func VerifyAll(evs []*Event) {
	workers := min(runtime.GOMAXPROCS(0), (len(evs)+63)/64)
	if workers <= 1 {
		for _, ev := range evs {
			_ = ev.VerifySignatures()
		}
		return
	}
	var wg sync.WaitGroup
	next := make(chan *Event, 256)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ev := range next {
				_ = ev.VerifySignatures()
			}
		}()
	}
	for _, ev := range evs {
		next <- ev
	}
	close(next)
	wg.Wait()
}

// MarkVerified records that the event's signatures were made here, by this
// process, so they need no check.
func (e *Event) markVerified() { e.verified = true }

func decodePublicKey(s string) (ed25519.PublicKey, error) {
	b, err := b64.DecodeString(s)
	if err != nil || len(b) != ed25519.PublicKeySize {
		return nil, Errorf(CodeInvalid, "malformed key")
	}
	return ed25519.PublicKey(b), nil
}

// sigCache remembers signatures already checked in this process (a device
// that pulls an event checks it once, however often it is replayed), up to
// a bound after which it starts again.
var sigCache = struct {
	sync.Mutex
	ok map[[32]byte]struct{}
}{ok: map[[32]byte]struct{}{}}

const sigCacheMax = 1 << 20

// ForgetCheckedSignatures empties the cache of signatures checked in this
// process, so the next events pulled are checked as a new device checks
// them (benchmarks of a first pull run in the process that signed them).
func ForgetCheckedSignatures() {
	sigCache.Lock()
	clear(sigCache.ok)
	sigCache.Unlock()
}

func verifyCached(pub ed25519.PublicKey, msg []byte, sig string) bool {
	s, err := b64.DecodeString(sig)
	if err != nil || len(s) != ed25519.SignatureSize {
		return false
	}
	h := sha256.New()
	h.Write(pub)
	h.Write(s)
	h.Write(msg)
	var k [32]byte
	h.Sum(k[:0])
	sigCache.Lock()
	_, hit := sigCache.ok[k]
	sigCache.Unlock()
	if hit {
		return true
	}
	if !ed25519.Verify(pub, msg, s) {
		return false
	}
	sigCache.Lock()
	if len(sigCache.ok) >= sigCacheMax {
		clear(sigCache.ok)
	}
	sigCache.ok[k] = struct{}{}
	sigCache.Unlock()
	return true
}

// ed25519Key is a private signing key.
type ed25519Key = ed25519.PrivateKey

// Keyring holds the signing keys of the users signed in to this process,
// by account id: derived from their passwords at sign-in, never written
// anywhere. Commands are signed with the actor's key from the service's
// keyring.
type Keyring struct {
	mu   sync.RWMutex
	keys map[string]ed25519.PrivateKey
}

// DefaultKeyring is the keyring of this process, which services use unless
// given another.
var DefaultKeyring = &Keyring{}

// Add keeps a user's key.
func (k *Keyring) Add(userID string, key ed25519.PrivateKey) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.keys == nil {
		k.keys = map[string]ed25519.PrivateKey{}
	}
	k.keys[userID] = key
}

// Forget drops a user's key (sign-out).
func (k *Keyring) Forget(userID string) {
	k.mu.Lock()
	defer k.mu.Unlock()
	delete(k.keys, userID)
}

// Key returns the key of a user signed in to this process.
func (k *Keyring) Key(userID string) (ed25519.PrivateKey, bool) { return k.key(userID) }

// key returns a user's key.
func (k *Keyring) key(userID string) (ed25519.PrivateKey, bool) {
	k.mu.RLock()
	defer k.mu.RUnlock()
	key, ok := k.keys[userID]
	return key, ok
}
