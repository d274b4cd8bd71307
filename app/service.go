package app

import (
	"context"
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
	s := &Service{store: store, clock: clock, ids: ids, attempts: &MemoryAttempts{}}
	for _, o := range opts {
		o(s)
	}
	return s
}

// RandomIDs makes random (version 4) UUIDs. Confirmation codes are random, not
// time-ordered, so a list sorted by confirmation code says nothing about who
// voted when.
type RandomIDs struct{}

// NewID returns a new random UUID.
func (RandomIDs) NewID() string { return uuid.NewString() }

// Now returns the service clock's time.
func (s *Service) Now() time.Time { return s.clock.Now() }

// decision is what a command decided to record.
type decision struct {
	typ  EventType
	data any
	// as, when set, is the actor the event is recorded for instead of the
	// caller (the first user registers themself).
	as string
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
		if d.as != "" {
			actor = d.as
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

// record appends and applies one event inside tx.
func (s *Service) record(tx Tx, actor string, d decision) (*Event, error) {
	raw, err := encodeData(d.data)
	if err != nil {
		return nil, fmt.Errorf("encode %s: %w", d.typ, err)
	}
	id, err := tx.NewEventID()
	if err != nil {
		return nil, err
	}
	ev := &Event{ID: id, When: s.clock.Now().UTC(), Actor: actor, Type: d.typ, Data: raw}
	if err := tx.AppendEvent(ev); err != nil {
		return nil, err
	}
	if err := applyDecoded(tx, ev, d.data); err != nil {
		return nil, err
	}
	return ev, nil
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

// simple is a decide function for commands whose event needs no reading.
func simple(typ EventType, data any) func(Tx) (decision, error) {
	return func(Tx) (decision, error) { return decision{typ: typ, data: data}, nil }
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
		return User{}, Errorf(CodeForbidden, "sign in first (%q is not a user)", actor)
	}
	if !u.Role.Has(p) {
		return User{}, Errorf(CodeForbidden, "this needs %s (role %s or higher); %s has role %s", p, p.MinimumRole(), u.Name, u.Role)
	}
	return u, nil
}

// wrapOp names the operation that failed.
func wrapOp(op string, err error) error { return fmt.Errorf("%s: %w", op, err) }
