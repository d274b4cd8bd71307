package app

import (
	"encoding/json"
	"errors"
	"reflect"
)

// applier applies one event to the projection. Every handler first checks
// (authorization, then the rules, reading only) and only then writes, so a
// refused event writes nothing.
type applier struct {
	tx Tx
	ev *Event
	// pre, when set, is the event's data already decoded (a command just
	// encoded it), which spares decoding it again.
	pre any
}

type handler func(a *applier) error

var handlers = map[EventType]handler{
	EvUserRegistered:        applyUserRegistered,
	EvUserRoleChanged:       applyUserRoleChanged,
	EvUserRemoved:           applyUserRemoved,
	EvUserPasswordChanged:   applyUserPasswordChanged,
	EvUserNameChanged:       applyUserNameChanged,
	EvUserEmailChanged:      applyUserEmailChanged,
	EvOwnershipTransferred:  applyOwnershipTransferred,
	EvElectionCreated:       applyElectionCreated,
	EvElectionUpdated:       applyElectionUpdated,
	EvElectionLaunched:      applyElectionLaunched,
	EvElectionFinalized:     applyElectionFinalized,
	EvElectionDeleted:       applyElectionDeleted,
	EvCandidatesAdded:       applyCandidatesAdded,
	EvCandidatesRemoved:     applyCandidatesRemoved,
	EvVotersAdded:           applyVotersAdded,
	EvVotersRemoved:         applyVotersRemoved,
	EvBallotCast:            applyBallotCast,
	EvBallotRankingsChanged: applyBallotRankingsChanged,
	EvBallotsImported:       applyBallotsImported,
	EvConflictResolved:      applyConflictResolved,
}

// apply checks an event against the projection at this point of the log and,
// when the rules allow it, applies its effects. A refusal is a domain error
// and writes nothing.
func apply(tx Tx, ev *Event) error { return applyDecoded(tx, ev, nil) }

// applyDecoded is apply with the event's data already decoded into pre (a
// value of the event type's data type), or nil.
func applyDecoded(tx Tx, ev *Event, pre any) error {
	h, ok := handlers[ev.Type]
	if !ok {
		return Errorf(CodeInvalid, "unknown event type %q", ev.Type)
	}
	if err := h(&applier{tx: tx, ev: ev, pre: pre}); err != nil {
		return err
	}
	return markApplied(tx, ev)
}

// Replay applies an event read from the log: its effects, or, when the rules
// refuse it at this point of the log (its actor lost the role, the election
// was finalized meanwhile, ...), a record of the refusal in the REJECTED
// partition. Either way the event counts as applied. refusal is the rules'
// reason; err is a failure of the store.
func Replay(tx Tx, ev *Event) (refusal error, err error) {
	err = apply(tx, ev)
	var de *Error
	if err == nil || !errors.As(err, &de) {
		return nil, err
	}
	it := newItem(pkRejected, rejectedSK(ev.Seq), "REJECTED")
	it.Set("seq", N(int64(ev.Seq)))
	it.Set("event_id", S(ev.ID))
	it.Set("event_type", S(string(ev.Type)))
	it.Set("actor", S(ev.Actor))
	it.Set("when", Time(ev.When))
	it.Set("code", S(string(de.Code)))
	it.Set("reason", S(de.Message))
	if err := tx.Put(it); err != nil {
		return nil, err
	}
	return de, markApplied(tx, ev)
}

// markApplied records in METADATA/SYNC the last event the projection holds.
func markApplied(tx Tx, ev *Event) error {
	it := newItem(pkMetadata, skSync, "SYNC")
	it.Set("last_event_id", N(int64(ev.Seq)))
	it.Set("last_event_hash", S(ev.Hash))
	return tx.Put(it)
}

// decode reads the event's data into v.
func (a *applier) decode(v any) error {
	if a.pre != nil {
		dst := reflect.ValueOf(v).Elem()
		if src := reflect.ValueOf(a.pre); src.Type() == dst.Type() {
			dst.Set(src)
			return nil
		}
	}
	if err := json.Unmarshal(a.ev.Data, v); err != nil {
		return Errorf(CodeInvalid, "%s event %s has malformed data: %v", a.ev.Type, a.ev.ID, err)
	}
	return nil
}

// actor loads the acting user and checks that their role has p.
func (a *applier) actor(p Permission) (User, error) {
	u, ok, err := getUser(a.tx, a.ev.Actor)
	if err != nil {
		return User{}, err
	}
	if !ok {
		return User{}, Errorf(CodeForbidden, "%q is not a user", a.ev.Actor)
	}
	if !u.Role.Has(p) {
		return User{}, Errorf(CodeForbidden, "%s needs %s (role %s or higher); %s has role %s",
			describe(a.ev.Type), p, p.MinimumRole(), u.Name, u.Role)
	}
	return u, nil
}

// manager loads the election and checks that the actor may manage it: the
// election's owner, or an ADMIN or higher, with USE_APPLICATION.
func (a *applier) manager(election string) (Election, User, error) {
	u, err := a.actor(PermUseApplication)
	if err != nil {
		return Election{}, User{}, err
	}
	e, err := mustElection(a.tx, election)
	if err != nil {
		return Election{}, User{}, err
	}
	if e.Owner != u.Name && u.Role < RoleAdmin {
		return Election{}, User{}, Errorf(CodeForbidden, "only the election's owner (%s) or an ADMIN may change election %q", e.Owner, e.Name)
	}
	return e, u, nil
}

// managedData decodes an event's data and loads the election it names,
// checking that the actor may manage that election.
func managedData[T electionEvent](a *applier) (T, Election, error) {
	var d T
	if err := a.decode(&d); err != nil {
		return d, Election{}, err
	}
	e, _, err := a.manager(d.electionName())
	return d, e, err
}

// electionData decodes an event's data and loads the election it names;
// the caller authorizes.
func electionData[T electionEvent](a *applier) (T, Election, error) {
	var d T
	if err := a.decode(&d); err != nil {
		return d, Election{}, err
	}
	e, err := mustElection(a.tx, d.electionName())
	return d, e, err
}

// requireAll checks, for each name, whether the election's item at sk(name)
// exists (want true) or not (want false); refuse says why a name fails.
func (a *applier) requireAll(e Election, names []string, sk func(string) string, want bool, refuse func(name string) error) error {
	for _, n := range names {
		_, ok, err := a.tx.Get(electionPK(e.Name), sk(n))
		if err != nil {
			return err
		}
		if ok != want {
			return refuse(n)
		}
	}
	return nil
}

// describe names what an event type does, for messages.
func describe(t EventType) string {
	switch t {
	case EvUserRegistered:
		return "adding a user"
	case EvUserRoleChanged:
		return "changing a role"
	case EvUserRemoved:
		return "removing a user"
	case EvBallotCast, EvBallotRankingsChanged:
		return "casting a ballot"
	case EvBallotsImported:
		return "importing ballots"
	default:
		return "this change"
	}
}
