package app

import (
	"context"
	"errors"
)

// CreateElection creates a draft election owned by the actor.
func (s *Service) CreateElection(ctx context.Context, actor, name, description string, secret bool) error {
	name, err := CleanName("election name", name)
	if err != nil {
		return err
	}
	_, err = s.run(ctx, "create election "+name, actor, simple(EvElectionCreated, electionCreated{Name: name, Description: description, Secret: secret}))
	return err
}

// UpdateElection changes an election's settings. baseVersion is the version
// the caller last saw (0 = do not check); a local edit against a version that
// has since changed is refused, so nobody overwrites a change they never saw.
func (s *Service) UpdateElection(ctx context.Context, actor, name string, baseVersion int64, ch ElectionChanges) error {
	_, err := s.run(ctx, "update election "+name, actor, func(tx Tx) (decision, error) {
		e, err := mustElection(tx, name)
		if err != nil {
			return decision{}, err
		}
		if baseVersion != 0 && baseVersion != e.Version {
			return decision{}, Errorf(CodeConflict, "election %q changed (version %d, you saw %d); reload it and edit again", name, e.Version, baseVersion)
		}
		return decision{typ: EvElectionUpdated, data: electionUpdated{Name: name, BaseVersion: e.Version, Changes: ch}}, nil
	})
	return err
}

// LaunchElection opens a draft election for voting; it needs at least two
// candidates, and its settings freeze.
func (s *Service) LaunchElection(ctx context.Context, actor, name string) error {
	_, err := s.run(ctx, "launch election "+name, actor, simple(EvElectionLaunched, electionNamed{Name: name}))
	return err
}

// FinalizeElection closes a launched election for good.
func (s *Service) FinalizeElection(ctx context.Context, actor, name string) error {
	_, err := s.run(ctx, "finalize election "+name, actor, simple(EvElectionFinalized, electionNamed{Name: name}))
	return err
}

// DeleteElection removes an election with its candidates, poll book and
// ballots from the projection (the log keeps its history).
func (s *Service) DeleteElection(ctx context.Context, actor, name string) error {
	_, err := s.run(ctx, "delete election "+name, actor, simple(EvElectionDeleted, electionNamed{Name: name}))
	return err
}

// AddCandidates adds candidates to a draft election.
func (s *Service) AddCandidates(ctx context.Context, actor, election string, names ...string) error {
	names, err := cleanNames("candidate", names)
	if err != nil {
		return err
	}
	_, err = s.run(ctx, "add candidates to "+election, actor, simple(EvCandidatesAdded, candidatesChanged{Election: election, Names: names}))
	return err
}

// RemoveCandidates removes candidates from a draft election with no ballots.
func (s *Service) RemoveCandidates(ctx context.Context, actor, election string, names ...string) error {
	names, err := cleanNames("candidate", names)
	if err != nil {
		return err
	}
	_, err = s.run(ctx, "remove candidates from "+election, actor, simple(EvCandidatesRemoved, candidatesChanged{Election: election, Names: names}))
	return err
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
	err := s.store.Update(ctx, func(tx Tx) error {
		for start := 0; start < len(clean); start += VoterBatch {
			batch := clean[start:min(start+VoterBatch, len(clean))]
			if _, err := s.record(tx, actor, decision{typ: EvVotersAdded, data: votersAdded{Election: election, Voters: batch}}); err != nil {
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
	_, err = s.run(ctx, "remove voters from "+election, actor, simple(EvVotersRemoved, votersRemoved{Election: election, Names: names}))
	return err
}

// ResolveConflict settles a conflict officials were shown: accept makes a
// duplicate ballot the one that counts; otherwise the first ballot stays.
func (s *Service) ResolveConflict(ctx context.Context, actor, election string, conflict uint64, accept bool) error {
	_, err := s.run(ctx, "resolve conflict in "+election, actor, simple(EvConflictResolved, conflictResolved{Election: election, Conflict: conflict, Accept: accept}))
	return err
}
