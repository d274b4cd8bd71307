package app

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
)

// Service is the one gate every command and query passes through, from the
// GUI, the CLI, a kiosk or sync: it authorizes, validates, appends the event
// and applies it, all in one store transaction.
type Service struct {
	store    Store
	clock    Clock
	ids      IDSource
	attempts AttemptLog
	keys     *Keyring
}

// NewService builds the domain service over a store. A nil clock means the
// system clock; nil ids means random UUIDs. Failed sign-ins are kept in
// memory unless an option says otherwise.
func NewService(store Store, clock Clock, ids IDSource, opts ...Option) *Service {
	if clock == nil {
		clock = SystemClock
	}
	if ids == nil {
		ids = RandomIDs{}
	}
	s := &Service{store: store, clock: clock, ids: ids, attempts: &MemoryAttempts{}, keys: DefaultKeyring}
	for _, o := range opts {
		o(s)
	}
	return s
}

// RandomIDs makes random (version 4) UUIDs, from which confirmation codes
// are drawn: random, not time-ordered, so a list sorted by confirmation code
// says nothing about who voted when.
type RandomIDs struct{}

// NewID returns a new random UUID.
func (RandomIDs) NewID() string { return uuid.NewString() }

// Now returns the service clock's time.
func (s *Service) Now() time.Time { return s.clock.Now() }

// decision is what a command decided to record.
type decision struct {
	typ  EventType
	data any
	// as, when set, is the account the event is recorded for, and signed
	// by, instead of the caller (the first user registers themself; a user
	// made before signing sets their key).
	as *signer
}

// signer is an account and its signing key.
type signer struct {
	user User
	key  ed25519.PrivateKey
}

// run decides a command against the projection and records it: the event is
// appended and applied in the same transaction, or nothing is written.
func (s *Service) run(ctx context.Context, op, actor string, decide func(tx Tx) (decision, error)) (*Event, error) {
	var out *Event
	err := s.store.Update(ctx, func(tx Tx) error {
		d, err := decide(tx)
		if err != nil {
			return err
		}
		ev, err := s.record(tx, actor, d)
		out = ev
		return err
	})
	if err != nil {
		return nil, wrapOp(op, err)
	}
	return out, nil
}

// errDryRun rolls back a command that was only to be checked.
var errDryRun = errors.New("dry run")

// record appends and applies one event inside tx: the actor's event,
// sealed where it carries ballot contents, signed by the actor's key (from
// the service's keyring: the actor signed in here) and by the device.
func (s *Service) record(tx Tx, actor string, d decision) (*Event, error) {
	enc, err := encodeDecision(d)
	if err != nil {
		return nil, err
	}
	return s.recordEncoded(tx, actor, enc)
}

// encodedDecision is a decision's event data made ready to record: the
// public part encoded, the secret part sealed.
type encodedDecision struct {
	decision
	public []byte
	sealed json.RawMessage
}

// encodeDecision encodes a decision's data and seals its secret part. It
// needs no transaction, so an import encodes its next batch while the one
// before is applied.
func encodeDecision(d decision) (encodedDecision, error) {
	enc := encodedDecision{decision: d}
	public, secret, sealed := sealParts(d.data)
	if sealed {
		raw, err := encodeData(secret)
		if err != nil {
			return enc, fmt.Errorf("encode %s: %w", d.typ, err)
		}
		commit, part, err := seal(raw)
		if err != nil {
			return enc, fmt.Errorf("seal %s: %w", d.typ, err)
		}
		public, enc.sealed = withCommit(public, commit), part
	}
	raw, err := encodeData(public)
	if err != nil {
		return enc, fmt.Errorf("encode %s: %w", d.typ, err)
	}
	enc.public = raw
	return enc, nil
}

// recordEncoded is record for a decision already encoded.
func (s *Service) recordEncoded(tx Tx, actor string, d encodedDecision) (*Event, error) {
	who := d.as
	if who == nil {
		var err error
		if who, err = s.signerFor(tx, actor); err != nil {
			return nil, err
		}
	}
	ev := &Event{V: formatFor(d.typ), When: s.clock.Now().UTC(), Actor: who.user.Name, ActorID: who.user.ID, Type: d.typ,
		Data: d.public, Sealed: d.sealed, sealedHere: d.sealed != nil}
	ev.SignAsActor(who.key)
	var err error
	if ev.ID, err = tx.NewEventID(); err != nil {
		return nil, err
	}
	if err := tx.SignEvent(ev); err != nil {
		return nil, err
	}
	ev.markVerified()
	if err := tx.AppendEvent(ev); err != nil {
		return nil, err
	}
	if err := applyDecoded(tx, ev, d.data); err != nil {
		return nil, err
	}
	return ev, nil
}

// signerFor finds the account an actor name stands for and its key in the
// service's keyring.
func (s *Service) signerFor(tx Tx, actor string) (*signer, error) {
	u, ok, err := getUser(tx, actor)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, authority(Errorf(CodeForbidden, "sign in first (%q is not a user)", actor))
	}
	key, ok := s.keys.key(u.ID)
	if !ok || u.PublicKey == "" || encodeKey(key.Public().(ed25519.PublicKey)) != u.PublicKey {
		return nil, authority(Errorf(CodeForbidden, "%s must sign in again: this VoteDesk does not hold their signing key (it comes from the password at sign-in)", u.Name))
	}
	return &signer{user: u, key: key}, nil
}

// jsonAppender is event data that writes its own compact JSON, faster than
// reflection (import batches).
type jsonAppender interface {
	appendJSON(b []byte) ([]byte, error)
}

// encodeData writes event data as compact JSON.
func encodeData(data any) ([]byte, error) {
	if a, ok := data.(jsonAppender); ok {
		return a.appendJSON(nil)
	}
	return json.Marshal(data)
}

// view runs a query for an actor who needs permission p.
func (s *Service) view(ctx context.Context, op, actor string, p Permission, fn func(tx Tx, u User) error) error {
	err := s.store.View(ctx, func(tx Tx) error {
		u, err := viewer(tx, actor, p)
		if err != nil {
			return err
		}
		return fn(tx, u)
	})
	if err != nil {
		return wrapOp(op, err)
	}
	return nil
}

// viewer loads the user behind a query and checks their permission.
func viewer(tx Tx, actor string, p Permission) (User, error) {
	u, ok, err := getUser(tx, actor)
	if err != nil {
		return User{}, err
	}
	if !ok {
		return User{}, authority(Errorf(CodeForbidden, "sign in first (%q is not a user)", actor))
	}
	if !u.Role.Has(p) {
		return User{}, authority(Errorf(CodeForbidden, "this needs %s (role %s or higher); %s has role %s", p, p.MinimumRole(), u.Name, u.Role))
	}
	return u, nil
}

// wrapOp names the operation that failed.
func wrapOp(op string, err error) error { return fmt.Errorf("%s: %w", op, err) }
