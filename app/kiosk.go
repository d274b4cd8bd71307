package app

import (
	"context"
	"strings"
	"time"
)

// KioskElection is what an official needs to start a kiosk: the election
// named nameOrCode (a name or a join code) and its candidates in ballot order.
// The official needs USE_APPLICATION (a kiosk casts for poll-book voters in
// their name) and the election must be launched and not finalized; a voting
// window that is closed right now does not stop a kiosk, it tells voters at
// check-in.
func (s *Service) KioskElection(ctx context.Context, actor, nameOrCode string) (Election, []Candidate, error) {
	var e Election
	var cands []Candidate
	err := s.view(ctx, "start kiosk", actor, PermUseApplication, func(tx Tx, _ User) (err error) {
		if e, err = findElection(tx, nameOrCode); err != nil {
			return err
		}
		switch e.Status {
		case StatusDraft:
			return Errorf(CodeConflict, "election %q is not launched yet; launch it before starting a kiosk", e.Name)
		case StatusFinalized:
			return Errorf(CodeConflict, "election %q is finalized; voting is over", e.Name)
		}
		cands, err = candidatesOf(tx, e.Name)
		return err
	})
	return e, cands, err
}

// CheckIn is a voter a kiosk may give a ballot to: their name as the poll
// book has it, and whether casting replaces a ballot they cast before.
type CheckIn struct {
	Voter  string
	Recast bool
}

// CheckInVoter looks a voter up for a kiosk, at the service clock's time.
// It refuses, with a message meant for the voter, when voting is not open,
// the name is not in the poll book (exact, or else the one entry that differs
// only in letter case), or the voter already voted and the election does not
// allow re-casting. It reads nothing of an earlier ballot but its existence.
func (s *Service) CheckInVoter(ctx context.Context, actor, election, voter string) (CheckIn, error) {
	var out CheckIn
	if strings.TrimSpace(voter) == "" {
		return out, Errorf(CodeInvalid, "Type the voter's name first.")
	}
	name, err := CleanName("voter name", voter)
	if err != nil {
		return out, Errorf(CodeInvalid, "That name cannot be in the poll book: %s.", ErrorMessage(err))
	}
	err = s.view(ctx, "check in voter", actor, PermUseApplication, func(tx Tx, _ User) error {
		e, err := electionFor(ctx, tx, election)
		if err != nil {
			return err
		}
		if err := kioskVotingOpen(e, s.clock.Now()); err != nil {
			return err
		}
		if out.Voter, err = pollBookName(tx, e, name); err != nil {
			return err
		}
		_, voted, err := tx.Get(electionPK(e.Name), ballotSK(out.Voter))
		if err != nil || !voted {
			return err
		}
		if !e.AllowRecast {
			return Errorf(CodeConflict, "%s has already voted in this election, and it does not allow changing a ballot. Please ask a poll worker.", out.Voter)
		}
		out.Recast = true
		return nil
	})
	if err != nil {
		return CheckIn{}, err
	}
	return out, nil
}

// pollBookName finds name in an election's poll book: exactly, or else the
// single entry equal to it as the domain compares names (letter case and
// spaces aside).
func pollBookName(tx Tx, e Election, name string) (string, error) {
	if _, ok, err := tx.Get(electionPK(e.Name), voterSK(name)); err != nil || ok {
		return name, err
	}
	var matches []string
	err := votersKeyed(tx, e.ID, NameKey(name), func(v string) bool {
		matches = append(matches, v)
		return true
	})
	switch {
	case err != nil:
		return "", err
	case len(matches) == 1:
		return matches[0], nil
	case len(matches) > 1:
		return "", Errorf(CodeConflict, "Several entries in the poll book match %q. Please type the name exactly as registered, or ask a poll worker.", name)
	}
	return "", Errorf(CodeNotFound, "%q is not in the poll book of this election. Please check the spelling, or ask a poll worker.", name)
}

// kioskVotingOpen is votingOpen in words for a voter at a kiosk, with times
// in the kiosk's local time zone.
func kioskVotingOpen(e Election, t time.Time) error {
	const layout = "15:04 on Monday 2 January 2006"
	switch {
	case e.Status == StatusDraft:
		return Errorf(CodeConflict, "Voting has not started: this election is not launched yet. Please ask a poll worker.")
	case e.Status == StatusFinalized:
		return Errorf(CodeConflict, "Voting is over: this election is finalized.")
	case e.Status == StatusClosed:
		return Errorf(CodeConflict, "Voting is over: the polls of this election are closed.")
	case !e.AllowVote:
		return Errorf(CodeConflict, "This election does not take ballots now. Please ask a poll worker.")
	case !e.NoVotingBefore.IsZero() && t.Before(e.NoVotingBefore):
		return Errorf(CodeConflict, "Voting is closed: it opens at %s.", e.NoVotingBefore.Local().Format(layout))
	case !e.NoVotingAfter.IsZero() && t.After(e.NoVotingAfter):
		return Errorf(CodeConflict, "Voting is closed: it closed at %s.", e.NoVotingAfter.Local().Format(layout))
	}
	return nil
}
