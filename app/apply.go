package app

import (
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
	// mergeDups counts the duplicate ballots a merge found.
	mergeDups int
}

type handler func(a *applier) error

var handlers = map[EventType]handler{
	EvUserRegistered:        applyUserRegistered,
	EvUserRoleChanged:       applyUserRoleChanged,
	EvUserRemoved:           applyUserRemoved,
	EvUserPasswordChanged:   applyUserPasswordChanged,
	EvUserNameChanged:       applyUserNameChanged,
	EvUserEmailChanged:      applyUserEmailChanged,
	EvUserKeySet:            applyUserKeySet,
	EvOwnershipTransferred:  applyOwnershipTransferred,
	EvElectionCreated:       applyElectionCreated,
	EvElectionUpdated:       applyElectionUpdated,
	EvElectionLaunched:      applyElectionLaunched,
	EvElectionClosed:        applyElectionClosed,
	EvElectionFinalized:     applyElectionFinalized,
	EvElectionDeleted:       applyElectionDeleted,
	EvElectionArchived:      applyElectionArchived,
	EvElectionRestored:      applyElectionRestored,
	EvElectionRenamed:       applyElectionRenamed,
	EvCandidatesAdded:       applyCandidatesAdded,
	EvCandidatesRemoved:     applyCandidatesRemoved,
	EvVotersAdded:           applyVotersAdded,
	EvVotersRemoved:         applyVotersRemoved,
	EvVoterLinked:           applyVoterLinked,
	EvBallotCast:            applyBallotCast,
	EvBallotRankingsChanged: applyBallotRankingsChanged,
	EvBallotsImported:       applyBallotsImported,
	EvConflictResolved:      applyConflictResolved,
	EvDeviceJoined:          applyDeviceJoined,
	EvAuditStarted:          applyAuditStarted,
	EvAuditRoundStarted:     applyAuditRound,
	EvAuditBallotRead:       applyAuditBallotRead,
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
	a := &applier{tx: tx, ev: ev, pre: pre}
	if err := a.checkEnvelope(); err != nil {
		return err
	}
	if err := h(a); err != nil {
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
	rejectionDetail(ev, &it)
	if err := tx.Put(it); err != nil {
		return nil, err
	}
	if err := keepRefusedBallot(tx, ev, de); err != nil {
		return nil, err
	}
	return de, markApplied(tx, ev)
}

// markApplied records in METADATA/SYNC the last event the projection holds
// and, for a signed event, that its replay key was used and, at the first
// one, where the log's signed format begins.
func markApplied(tx Tx, ev *Event) error {
	if ev.Signed() {
		if err := markReplayKey(tx, ev); err != nil {
			return err
		}
	}
	it := newItem(pkMetadata, skSync, "SYNC")
	it.Set("last_event_id", N(int64(ev.Seq)))
	it.Set("last_event_hash", S(ev.Hash))
	return tx.Put(it)
}

// decode reads the event's data into v: its public data and, for a sealed
// event, its secret part (checked against its commitment).
func (a *applier) decode(v any) error {
	if a.pre != nil {
		dst := reflect.ValueOf(v).Elem()
		if src := reflect.ValueOf(a.pre); src.Type() == dst.Type() {
			dst.Set(src)
			return nil
		}
	}
	if err := unmarshalPayload(a.ev.Data, v); err != nil {
		return Errorf(CodeInvalid, "%s event %s has malformed data: %v", a.ev.Type, a.ev.ID, err)
	}
	secret, err := a.ev.OpenSealed()
	if err != nil {
		return err
	}
	if secret == nil {
		if c, _ := v.(interface{ commitment() string }); c != nil && c.commitment() != "" {
			return Errorf(CodeInvalid, "%s event %s arrived without its sealed part", a.ev.Type, a.ev.ID)
		}
		return nil
	}
	if d, ok := v.(*ballotsImported); ok {
		if ballots, ok := readImported(secret); ok {
			d.Ballots = ballots
			return nil
		}
	}
	if err := unmarshalPayload(secret, v); err != nil {
		return Errorf(CodeInvalid, "%s event %s has a malformed sealed part: %v", a.ev.Type, a.ev.ID, err)
	}
	return nil
}

// actor loads the acting user and checks that their role has p. A signed
// event names its actor by account and must be signed with the account's
// key; a format-1 event names its actor by name.
func (a *applier) actor(p Permission) (User, error) {
	u, err := a.actingUser()
	if err != nil {
		return User{}, err
	}
	if !u.Role.Has(p) {
		return User{}, authority(Errorf(CodeForbidden, "%s needs %s (role %s or higher); %s has role %s",
			describe(a.ev.Type), p, p.MinimumRole(), u.Name, u.Role))
	}
	return u, nil
}

// ErrAuthority marks a refusal because of the acting user's standing, not
// because of what they asked (errors.Is): their role does not allow it,
// this VoteDesk does not hold their signing key, an event is signed with a
// key the account had before a password change, or the account was
// removed. A device that had not heard of such a change may have made an
// event in good faith; a kiosk acting for the user must stop until an
// official signs in again.
var ErrAuthority = errors.New("the acting user's role, key or account does not allow it")

// authority marks e as ErrAuthority.
func authority(e *Error) *Error {
	e.Err = ErrAuthority
	return e
}

// manager loads the election and checks that the actor may manage it: the
// election's owner, or an ADMIN or higher, with USE_APPLICATION.
func (a *applier) manager(name, id string) (Election, User, error) {
	u, err := a.actor(PermUseApplication)
	if err != nil {
		return Election{}, User{}, err
	}
	e, err := a.election(name, id)
	if err != nil {
		return Election{}, User{}, err
	}
	if !a.owns(u, e) && u.Role < RoleAdmin {
		return Election{}, User{}, Errorf(CodeForbidden, "only the election's owner (%s) or an ADMIN may change election %q", e.Owner, e.Name)
	}
	return e, u, nil
}

// owns reports whether u owns e: by account for signed events, by name (as
// format-1 events were decided) otherwise.
func (a *applier) owns(u User, e Election) bool {
	if a.ev.Signed() {
		return e.OwnerID != "" && e.OwnerID == u.ID
	}
	return e.Owner == u.Name
}

// managedData decodes an event's data and loads the election it names,
// checking that the actor may manage that election.
func managedData[T electionEvent](a *applier) (T, Election, error) {
	var d T
	if err := a.decode(&d); err != nil {
		return d, Election{}, err
	}
	e, _, err := a.manager(d.electionRef())
	return d, e, err
}

// electionData decodes an event's data and loads the election it names;
// the caller authorizes.
func electionData[T electionEvent](a *applier) (T, Election, error) {
	var d T
	if err := a.decode(&d); err != nil {
		return d, Election{}, err
	}
	e, err := a.election(d.electionRef())
	return d, e, err
}

// election loads the election an event names: by id for a signed event
// that carries one (whatever its name is now), by name otherwise.
func (a *applier) election(name, id string) (Election, error) {
	if !a.ev.Signed() || id == "" {
		return mustElection(a.tx, name)
	}
	e, ok, err := electionByID(a.tx, id)
	if err != nil {
		return Election{}, err
	}
	if !ok {
		return Election{}, gone(Errorf(CodeNotFound, "election %q (id %s) no longer exists", name, id))
	}
	return e, nil
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
