package app

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/google/uuid"
)

// CreateElection creates a draft election owned by the actor.
func (s *Service) CreateElection(ctx context.Context, actor, name, description string, secret bool) error {
	name, err := CleanName("election name", name)
	if err != nil {
		return err
	}
	_, err = s.run(ctx, "create election "+name, actor, func(tx Tx) (decision, error) {
		// The rules keep apart an election made offline under a name
		// another device used; here, the name is simply taken.
		probe := &applier{tx: tx, ev: &Event{V: FormatSigned}}
		if existing, taken, err := probe.nameTaken(name); err != nil || taken {
			if err != nil {
				return decision{}, err
			}
			return decision{}, Errorf(CodeConflict, "an election named %q already exists", existing)
		}
		return decision{typ: EvElectionCreated, data: electionCreated{Name: name, Description: description, Secret: secret, ElectionID: uuid.NewString()}}, nil
	})
	return err
}

// electionCommand runs a command about the election called name: it looks
// the election up so the event names it by id, and builds the event's data.
func (s *Service) electionCommand(ctx context.Context, op, actor, name string, typ EventType, data func(e Election) (any, error)) error {
	_, err := s.run(ctx, op, actor, func(tx Tx) (decision, error) {
		e, err := electionFor(ctx, tx, name)
		if err != nil {
			return decision{}, err
		}
		d, err := data(e)
		if err != nil {
			return decision{}, err
		}
		return decision{typ: typ, data: d}, nil
	})
	return err
}

// named is the data of the lifecycle events.
func named(e Election) (any, error) { return electionNamed{Name: e.Name, ElectionID: e.ID}, nil }

// UpdateElection changes an election's settings. baseVersion is the version
// the caller last saw (0 = do not check); a local edit against a version that
// has since changed is refused, so nobody overwrites a change they never saw.
// The event records the value each changed setting had, so that an edit made
// offline conflicts on sync only with another edit of the same setting.
func (s *Service) UpdateElection(ctx context.Context, actor, name string, baseVersion int64, ch ElectionChanges) error {
	return s.electionCommand(ctx, "update election "+name, actor, name, EvElectionUpdated, func(e Election) (any, error) {
		if baseVersion != 0 && baseVersion != e.Version {
			return nil, Errorf(CodeConflict, "election %q changed (version %d, you saw %d); reload it and edit again", name, e.Version, baseVersion)
		}
		return electionUpdated{Name: name, ElectionID: e.ID, BaseVersion: e.Version, Base: ch.BaseOf(e), Changes: ch}, nil
	})
}

// LaunchElection opens a draft election for voting; it needs at least two
// candidates, and its settings freeze.
func (s *Service) LaunchElection(ctx context.Context, actor, name string) error {
	return s.electionCommand(ctx, "launch election "+name, actor, name, EvElectionLaunched, named)
}

// CloseElection closes the polls of a launched election: no more ballots,
// while counting, adjudication and audits go on until it is finalized.
func (s *Service) CloseElection(ctx context.Context, actor, name string) error {
	return s.electionCommand(ctx, "close election "+name, actor, name, EvElectionClosed, named)
}

// FinalizeElection certifies a launched or closed election: nothing in it
// changes any more.
func (s *Service) FinalizeElection(ctx context.Context, actor, name string) error {
	return s.electionCommand(ctx, "finalize election "+name, actor, name, EvElectionFinalized, named)
}

// DeleteElection removes an election with its candidates, poll book and
// ballots from the projection (the log keeps its history). Elections with
// ballots are kept while launched or closed; a finalized election is deleted
// only by the OWNER after its retention period (the caller makes a backup
// first).
func (s *Service) DeleteElection(ctx context.Context, actor, name string) error {
	return s.electionCommand(ctx, "delete election "+name, actor, name, EvElectionDeleted, named)
}

// ArchiveElection hides a finalized election from the lists; its records
// stay and RestoreElection shows it again.
func (s *Service) ArchiveElection(ctx context.Context, actor, name string) error {
	return s.electionCommand(ctx, "archive election "+name, actor, name, EvElectionArchived, named)
}

// RestoreElection shows an archived election in the lists again.
func (s *Service) RestoreElection(ctx context.Context, actor, name string) error {
	return s.electionCommand(ctx, "restore election "+name, actor, name, EvElectionRestored, named)
}

// RenameElection renames an election (for example one kept apart because
// another device had made an election of the same name).
func (s *Service) RenameElection(ctx context.Context, actor, name, newName string) error {
	newName, err := CleanName("election name", newName)
	if err != nil {
		return err
	}
	return s.electionCommand(ctx, "rename election "+name, actor, name, EvElectionRenamed, func(e Election) (any, error) {
		return electionRenamed{Name: e.Name, ElectionID: e.ID, NewName: newName}, nil
	})
}

// AddCandidates adds candidates to a draft election.
func (s *Service) AddCandidates(ctx context.Context, actor, election string, names ...string) error {
	names, err := cleanCandidates(names)
	if err != nil {
		return err
	}
	return s.electionCommand(ctx, "add candidates to "+election, actor, election, EvCandidatesAdded, func(e Election) (any, error) {
		return candidatesChanged{Election: e.Name, ElectionID: e.ID, Names: names}, nil
	})
}

// cleanCandidates cleans a list of candidate names.
func cleanCandidates(names []string) ([]string, error) {
	names, err := cleanNames("candidate", names)
	if err != nil {
		return nil, err
	}
	for _, n := range names {
		if _, err := CleanCandidateName(n); err != nil {
			return nil, err
		}
	}
	return names, nil
}

// RemoveCandidates removes candidates from a draft election with no ballots.
func (s *Service) RemoveCandidates(ctx context.Context, actor, election string, names ...string) error {
	names, err := cleanNames("candidate", names)
	if err != nil {
		return err
	}
	return s.electionCommand(ctx, "remove candidates from "+election, actor, election, EvCandidatesRemoved, func(e Election) (any, error) {
		return candidatesChanged{Election: e.Name, ElectionID: e.ID, Names: names}, nil
	})
}

// VoterBatch is how many poll-book entries one VotersAdded event carries,
// so that a big poll book travels to the cloud in events of moderate size.
const VoterBatch = 2000

// AddVoters adds entries to an election's poll book, all or nothing: a long
// list is recorded as several events in one transaction.
func (s *Service) AddVoters(ctx context.Context, actor, election string, voters ...VoterEntry) error {
	return s.addVoters(ctx, actor, election, voters, false)
}

// CheckVoters answers whether AddVoters would accept the entries, checking
// everything it checks (the actor's rights, the election's state, each
// entry), and writes nothing: a poll-book import's dry run.
func (s *Service) CheckVoters(ctx context.Context, actor, election string, voters ...VoterEntry) error {
	return s.addVoters(ctx, actor, election, voters, true)
}

// addVoters records the events that add voters; a dry run records them in a
// transaction it then rolls back.
func (s *Service) addVoters(ctx context.Context, actor, election string, voters []VoterEntry, dryRun bool) error {
	clean := make([]VoterEntry, len(voters))
	for i, v := range voters {
		n, err := CleanName("voter name", v.Name)
		if err != nil {
			return err
		}
		clean[i] = VoterEntry{Name: n}
		if v.Email != "" {
			if clean[i].Email, err = CleanEmail(v.Email); err != nil {
				return Errorf(CodeInvalid, "voter %q: %s", n, ErrorMessage(err))
			}
		}
	}
	if len(clean) == 0 {
		return Errorf(CodeInvalid, "no voters given")
	}
	// In the order of their name keys (NameKey, then the name): bbolt
	// holds a transaction's new keys of one page in one node and inserts
	// each in place, so a county's roll in the order of its voter ids
	// (names at random) moved half the poll book for every voter added
	// (500,000 voters: 220 s, against 7 s in order). In key order the name
	// index is written in its order, and the poll book, kept by name,
	// nearly so: a name out of step with its key ("de la Cruz" after
	// "Dean") lands among the few such. Sorted by name instead, those
	// names came last and each moved much of the index: 29.5 s for a roll
	// with 3% of them.
	type keyed struct {
		key string
		v   VoterEntry
	}
	byKey := make([]keyed, len(clean))
	for i, v := range clean {
		byKey[i] = keyed{NameKey(v.Name), v}
	}
	slices.SortStableFunc(byKey, func(a, b keyed) int {
		if c := strings.Compare(a.key, b.key); c != 0 {
			return c
		}
		return strings.Compare(a.v.Name, b.v.Name)
	})
	for i, k := range byKey {
		clean[i] = k.v
	}
	err := s.store.Update(ctx, func(tx Tx) error {
		e, err := electionFor(ctx, tx, election)
		if err != nil {
			return err
		}
		for start := 0; start < len(clean); start += VoterBatch {
			batch := clean[start:min(start+VoterBatch, len(clean))]
			if _, err := s.record(tx, actor, decision{typ: EvVotersAdded, data: votersAdded{Election: e.Name, ElectionID: e.ID, Voters: batch}}); err != nil {
				return err
			}
		}
		if dryRun {
			return errDryRun
		}
		return nil
	})
	if err != nil && !errors.Is(err, errDryRun) {
		return wrapOp("add voters to "+election, err)
	}
	return nil
}

// RemoveVoters removes entries from an election's poll book; voters who have
// voted stay.
func (s *Service) RemoveVoters(ctx context.Context, actor, election string, names ...string) error {
	names, err := cleanNames("voter", names)
	if err != nil {
		return err
	}
	return s.electionCommand(ctx, "remove voters from "+election, actor, election, EvVotersRemoved, func(e Election) (any, error) {
		return votersRemoved{Election: e.Name, ElectionID: e.ID, Names: names}, nil
	})
}

// LinkVoter links a poll-book entry to the account that may cast its ballot
// as a VOTER (user "" unlinks it). Only the election's managers link.
func (s *Service) LinkVoter(ctx context.Context, actor, election, voter, user string) error {
	voter, err := CleanName("voter name", voter)
	if err != nil {
		return err
	}
	_, err = s.run(ctx, "link voter "+voter, actor, func(tx Tx) (decision, error) {
		e, err := electionFor(ctx, tx, election)
		if err != nil {
			return decision{}, err
		}
		d := voterLinked{Election: e.Name, ElectionID: e.ID, Voter: voter}
		if user != "" {
			u, ok, err := findLogin(tx, user)
			if err != nil {
				return decision{}, err
			}
			if !ok {
				return decision{}, Errorf(CodeNotFound, "no user with name or email %q", user)
			}
			d.UserID, d.UserName = u.ID, u.Name
		}
		return decision{typ: EvVoterLinked, data: d}, nil
	})
	return err
}

// ResolveConflict settles a conflict officials were shown, with a reason:
// accept makes a duplicate ballot the one that counts, records a refused
// receipted ballot, or merges an election made under a taken name into the
// election of that name; dismiss leaves things as they are. election ""
// names a conflict outside the elections (a device that found a copy of
// itself). conflict is its number as listed now.
func (s *Service) ResolveConflict(ctx context.Context, actor, election string, conflict uint64, accept bool, reason string) error {
	_, err := s.DecideConflict(ctx, actor, Conflict{Election: election, Seq: conflict}, accept, reason)
	return err
}

// DecideConflict is ResolveConflict for a conflict as a list showed it. A
// conflict's number is the place in the log of the event that made it,
// which a sync moves when it lays other devices' events under a pending
// one; the decision follows the conflict shown (by that event's id and its
// voter) rather than the number, and records both, so it also stays with
// it when a later sync moves the events again (see findConflict). It
// returns the conflict decided, as it was before the decision, for the
// caller to say which it was (its kind and voter).
func (s *Service) DecideConflict(ctx context.Context, actor string, c Conflict, accept bool, reason string) (Conflict, error) {
	d := conflictResolved{Conflict: c.Seq, ConflictEvent: c.EventID, ConflictVoter: c.Voter, Accept: accept, Reason: reason}
	var decided Conflict
	op, pk := "resolve conflict", pkMetadata
	if c.Election != "" {
		op = "resolve conflict in " + c.Election
	}
	_, err := s.run(ctx, op, actor, func(tx Tx) (decision, error) {
		if c.Election != "" {
			e, err := electionFor(ctx, tx, c.Election)
			if err != nil {
				return decision{}, err
			}
			d.Election, d.ElectionID, pk = e.Name, e.ID, electionPK(e.Name)
		}
		// A conflict not found is left for the rules to refuse, with their
		// message, as every device would.
		it, ok, err := findConflict(tx, pk, d)
		if err != nil {
			return decision{}, err
		}
		if ok {
			d.Conflict, d.ConflictEvent, d.ConflictVoter = uint64(it.Int("seq")), it.Str("event_id"), it.Str("voter_name")
			decided = conflictFromItem(c.Election, it, false)
		}
		return decision{typ: EvConflictResolved, data: d}, nil
	})
	return decided, err
}
