package app

import (
	"context"
	"errors"
)

// ErrElectionRenamed marks a refusal because the election held was renamed
// (errors.Is): a caller that holds it by id, as a kiosk does, may look it up
// by id (ElectionByID) and go on under its new name.
var ErrElectionRenamed = errors.New("the election was renamed")

// ErrElectionGone marks a refusal because the election held was deleted or
// merged into another (errors.Is): nothing of it is left under its name. A
// caller that holds it by id, as a kiosk does, may go on in the election it
// joined (JoinedElection), or must stop when there is none.
var ErrElectionGone = errors.New("the election was deleted or merged")

// An election is named in commands and queries by its name, which a sync or
// another official can give to another election while a screen shows it:
// the rules give an election made offline under a name another device used
// a provisional name of its own, a rename frees a name that a second rename
// takes, a merge ends an election. A caller that shows an election says so
// with ForElection, and then a command naming it acts only while the name
// is still that election's; otherwise nothing changes and the error says
// what became of the election shown.

type shownKey struct{}

type shown struct{ name, id string }

// ForElection returns a context under which the Service acts on the
// election called name only while that name is the election with id id
// (Election.ID): what the caller shows under that name. An empty id pins
// nothing.
func ForElection(ctx context.Context, name, id string) context.Context {
	if id == "" {
		return ctx
	}
	return context.WithValue(ctx, shownKey{}, shown{name, id})
}

// electionFor is mustElection for a command or query run under ctx.
func electionFor(ctx context.Context, tx Tx, name string) (Election, error) {
	e, err := mustElection(tx, name) // not found: e.ID is ""
	if serr := checkShown(ctx, tx, name, e); serr != nil {
		return Election{}, serr
	}
	return e, err
}

// checkShown checks that e, which the name called resolved to, is the
// election ctx says the caller showed under that name.
func checkShown(ctx context.Context, tx Tx, name string, e Election) error {
	if want, ok := ctx.Value(shownKey{}).(shown); ok && want.name == name && e.ID != want.id {
		return whatBecameOf(tx, want, true)
	}
	return nil
}

// whatBecameOf says why the election shown is no longer the one its name
// calls: for a command refused (refused), or for a screen that reloads it.
func whatBecameOf(tx Tx, s shown, refused bool) error {
	after, nothing := "", ""
	if refused {
		after, nothing = " after it was shown here", "; nothing was changed"
	}
	r, ok, err := getElectionRecord(tx, s.id)
	switch {
	case err != nil:
		return err
	case ok && r.MergedInto != "": // a merge marks the election deleted too
		into, ok, err := electionByID(tx, s.id)
		if err != nil {
			return err
		}
		if ok {
			return gone(Errorf(CodeConflict, "election %q was merged into %q%s (by a sync or another official)%s: open %q", s.name, into.Name, after, nothing, into.Name))
		}
		return gone(Errorf(CodeNotFound, "election %q was merged into another election that no longer exists%s", s.name, nothing))
	case !ok || r.DeletedSeq != 0:
		return gone(Errorf(CodeNotFound, "election %q was deleted%s (by a sync or another official)%s", s.name, after, nothing))
	}
	moved := Errorf(CodeConflict, "election %q is now called %q: it was renamed%s (by a sync or another official), and the name %q is now another election's or nobody's%s: look at %q again", s.name, r.Name, after, s.name, nothing, r.Name)
	moved.Err = ErrElectionRenamed
	return moved
}

// gone marks e as ErrElectionGone.
func gone(e *Error) *Error {
	e.Err = ErrElectionGone
	return e
}

// HoldElection looks up the election called name and returns ctx held to
// it (ForElection), for a task that names it in several calls (read the
// candidates, then import; read the ballots, then the candidates; check,
// back up, then delete): a sync that gives the name to another election
// between them makes the later calls refuse, instead of acting on the
// other election.
func (s *Service) HoldElection(ctx context.Context, actor, name string) (context.Context, Election, error) {
	e, err := s.Election(ctx, actor, name)
	if err != nil {
		return ctx, Election{}, err
	}
	return ForElection(ctx, name, e.ID), e, nil
}

// Users are named by name too, and a sync can rename a user and give the
// name to another: a role granted from a list shown before would go to the
// other person. ForUser holds commands about a user the same way.

type shownUserKey struct{}

// ForUser returns a context under which a command about the user called
// name acts only while that name is the account with id id (User.ID): the
// user the caller listed. An empty id holds nothing.
func ForUser(ctx context.Context, name, id string) context.Context {
	if id == "" {
		return ctx
	}
	return context.WithValue(ctx, shownUserKey{}, shown{name, id})
}

// checkShownUser checks that id, the account the name called resolved to,
// is the one ctx says the caller listed under that name.
func checkShownUser(ctx context.Context, tx Tx, name, id string) error {
	want, ok := ctx.Value(shownUserKey{}).(shown)
	if !ok || want.name != name || want.id == id {
		return nil
	}
	acc, ok, err := getAccount(tx, want.id)
	switch {
	case err != nil:
		return err
	case !ok || acc.Removed:
		return Errorf(CodeNotFound, "user %q was removed after it was listed here (by a sync or another official); nothing was changed", name)
	}
	return Errorf(CodeConflict, "user %q is now called %q: renamed after it was listed here (by a sync or another official), and the name %q is now another account's or nobody's; nothing was changed: look at %q again", name, acc.Name, name, acc.Name)
}
