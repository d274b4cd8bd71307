package app_test

import (
	"strings"
	"testing"
	"time"

	"votedesk/app"
)

// TestRefusedCommandsChangeNothing runs every kind of refused command and
// checks its error code and message, and that neither the log nor the
// projection changed.
func TestRefusedCommandsChangeNothing(t *testing.T) {
	cases := []struct {
		name  string
		setup func(e *env)
		run   func(e *env) error
		code  app.Code
		msg   string
	}{
		{name: "ErrWrongRoleCreatesElection", code: app.CodeForbidden, msg: "needs USE_APPLICATION",
			run: func(e *env) error { return e.svc.CreateElection(e.ctx, "observer", "X", "", false) }},
		{name: "ErrNoAccessViews", code: app.CodeForbidden, msg: "needs VIEW_APPLICATION",
			run: func(e *env) error { _, err := e.svc.Elections(e.ctx, "noaccess"); return err }},
		{name: "ErrUnknownActor", code: app.CodeForbidden, msg: "not a user",
			run: func(e *env) error { return e.svc.CreateElection(e.ctx, "mallory", "X", "", false) }},
		{name: "ErrNotOwnerOfElection", code: app.CodeForbidden, msg: "only the election's owner",
			run: func(e *env) error { return e.svc.AddCandidates(e.ctx, "other", "Draft", "D") }},
		{name: "ErrElectionNotLaunched", code: app.CodeConflict, msg: "not launched",
			run: func(e *env) error { return cast(e, "user", "Draft", "v1", "A") }},
		{name: "ErrElectionFinalized", code: app.CodeConflict, msg: "finalized",
			setup: func(e *env) { e.must(e.svc.FinalizeElection(e.ctx, "user", "Open")) },
			run:   func(e *env) error { return cast(e, "user", "Open", "v1", "A") }},
		{name: "ErrWindowNotOpenYet", code: app.CodeConflict, msg: "opens at",
			setup: func(e *env) { launchWithWindow(e, "W", e.clock.Now().Add(24*time.Hour), time.Time{}) },
			run:   func(e *env) error { return cast(e, "user", "W", "v1", "A") }},
		{name: "ErrWindowClosed", code: app.CodeConflict, msg: "closed at",
			setup: func(e *env) { launchWithWindow(e, "W", time.Time{}, e.clock.Now().Add(time.Minute)) },
			run: func(e *env) error {
				e.clock.Set(e.clock.Now().Add(time.Hour))
				return cast(e, "user", "W", "v1", "A")
			}},
		{name: "ErrVoterNotEligible", code: app.CodeForbidden, msg: "not in the poll book",
			run: func(e *env) error { return cast(e, "user", "Open", "stranger", "A") }},
		{name: "ErrVoterCastsForOther", code: app.CodeForbidden, msg: "linked to their account",
			run: func(e *env) error { return cast(e, "voter", "Open", "v1", "A") }},
		{name: "ErrObserverCasts", code: app.CodeForbidden, msg: "needs VOTE",
			run: func(e *env) error { return cast(e, "observer", "Open", "v1", "A") }},
		{name: "ErrUnknownCandidate", code: app.CodeInvalid, msg: `"Z" is not a candidate`,
			run: func(e *env) error { return cast(e, "user", "Open", "v1", "A", "Z") }},
		{name: "ErrCandidateRankedTwice", code: app.CodeInvalid, msg: "ranked more than once",
			run: func(e *env) error { return cast(e, "user", "Open", "v1", "A", "B", "A") }},
		{name: "ErrRankBelowOne", code: app.CodeInvalid, msg: "not a positive number",
			run: func(e *env) error {
				_, err := e.svc.CastBallot(e.ctx, "user", app.Cast{Election: "Open", Voter: "v1", Rankings: []app.Ranking{{Candidate: "A", Rank: 0}}})
				return err
			}},
		{name: "ErrSecondBallotWithoutRecast", code: app.CodeConflict, msg: "does not allow re-casting",
			setup: func(e *env) { e.must(cast(e, "user", "Open", "v1", "A")) },
			run:   func(e *env) error { return cast(e, "user", "Open", "v1", "B") }},
		{name: "ErrLaunchWithOneCandidate", code: app.CodeConflict, msg: "needs at least 2",
			setup: func(e *env) {
				e.must(e.svc.CreateElection(e.ctx, "user", "Tiny", "", false))
				e.must(e.svc.AddCandidates(e.ctx, "user", "Tiny", "Only"))
			},
			run: func(e *env) error { return e.svc.LaunchElection(e.ctx, "user", "Tiny") }},
		{name: "ErrLaunchTwice", code: app.CodeConflict, msg: "already launched",
			run: func(e *env) error { return e.svc.LaunchElection(e.ctx, "user", "Open") }},
		{name: "ErrFinalizeDraft", code: app.CodeConflict, msg: "only a launched or closed election",
			run: func(e *env) error { return e.svc.FinalizeElection(e.ctx, "user", "Draft") }},
		{name: "ErrSettingsFrozenAtLaunch", code: app.CodeConflict, msg: "froze at launch",
			run: func(e *env) error {
				secret := true
				return e.svc.UpdateElection(e.ctx, "user", "Open", 0, app.ElectionChanges{Secret: &secret})
			}},
		{name: "ErrCandidatesAfterLaunch", code: app.CodeConflict, msg: "does not allow edits",
			run: func(e *env) error { return e.svc.AddCandidates(e.ctx, "user", "Open", "D") }},
		{name: "ErrVotersWhenEditOff", code: app.CodeConflict, msg: "does not allow edits",
			run: func(e *env) error { return e.svc.AddVoters(e.ctx, "user", "Open", app.VoterEntry{Name: "v9"}) }},
		{name: "ErrRemoveVoterWhoVoted", code: app.CodeConflict, msg: "already voted",
			setup: func(e *env) {
				e.must(cast(e, "user", "Open", "v1", "A"))
				allow := true
				e.must(e.svc.UpdateElection(e.ctx, "user", "Open", 0, app.ElectionChanges{AllowEdit: &allow}))
			},
			run: func(e *env) error { return e.svc.RemoveVoters(e.ctx, "user", "Open", "v1") }},
		{name: "ErrDuplicateElection", code: app.CodeConflict, msg: "already exists",
			run: func(e *env) error { return e.svc.CreateElection(e.ctx, "user", "Draft", "", false) }},
		{name: "ErrDuplicateCandidate", code: app.CodeConflict, msg: "already a candidate",
			run: func(e *env) error { return e.svc.AddCandidates(e.ctx, "user", "Draft", "A") }},
		{name: "ErrDuplicateVoter", code: app.CodeConflict, msg: "already in the poll book",
			run: func(e *env) error { return e.svc.AddVoters(e.ctx, "user", "Draft", app.VoterEntry{Name: "v1"}) }},
		{name: "ErrRemoveUnknownCandidate", code: app.CodeNotFound, msg: "not a candidate",
			run: func(e *env) error { return e.svc.RemoveCandidates(e.ctx, "user", "Draft", "Z") }},
		{name: "ErrUnknownElection", code: app.CodeNotFound, msg: "no election named",
			run: func(e *env) error { return cast(e, "user", "Nope", "v1", "A") }},
		{name: "ErrBadElectionName", code: app.CodeInvalid, msg: "may not start with '#'",
			run: func(e *env) error { return e.svc.CreateElection(e.ctx, "user", "#x", "", false) }},
		{name: "ErrEmptyElectionName", code: app.CodeInvalid, msg: "election name is empty",
			run: func(e *env) error { return e.svc.CreateElection(e.ctx, "user", "  ", "", false) }},
		{name: "ErrWindowBackwards", code: app.CodeInvalid, msg: "must open",
			run: func(e *env) error {
				from, to := "2026-11-05T00:00:00Z", "2026-11-04T00:00:00Z"
				return e.svc.UpdateElection(e.ctx, "user", "Draft", 0, app.ElectionChanges{NoVotingBefore: &from, NoVotingAfter: &to})
			}},
		{name: "ErrWindowNotRFC3339", code: app.CodeInvalid, msg: "not an RFC 3339 time",
			run: func(e *env) error {
				from := "tomorrow"
				return e.svc.UpdateElection(e.ctx, "user", "Draft", 0, app.ElectionChanges{NoVotingBefore: &from})
			}},
		{name: "ErrStaleEdit", code: app.CodeConflict, msg: "reload it",
			run: func(e *env) error {
				d := "new"
				return e.svc.UpdateElection(e.ctx, "user", "Draft", 1, app.ElectionChanges{Description: &d})
			}},
		{name: "ErrUnknownMethod", code: app.CodeInvalid, msg: "unknown counting method",
			run: func(e *env) error {
				m := "coinflip"
				return e.svc.UpdateElection(e.ctx, "user", "Draft", 0, app.ElectionChanges{Method: &m})
			}},
		{name: "ErrChangeOwnRole", code: app.CodeForbidden, msg: "their own role",
			run: func(e *env) error { return e.svc.SetRole(e.ctx, "admin", "admin", app.RoleObserver) }},
		{name: "ErrGrantOwnRole", code: app.CodeForbidden, msg: "only grant roles below their own",
			run: func(e *env) error { return e.svc.SetRole(e.ctx, "admin", "user", app.RoleAdmin) }},
		{name: "ErrGrantOwner", code: app.CodeForbidden, msg: "only grant roles below their own",
			run: func(e *env) error { return e.svc.SetRole(e.ctx, "owner", "user", app.RoleOwner) }},
		{name: "ErrManageHigherUser", code: app.CodeForbidden, msg: "ranked below them",
			run: func(e *env) error { return e.svc.SetRole(e.ctx, "admin", "auditor", app.RoleUser) }},
		{name: "ErrUserManagesUsers", code: app.CodeForbidden, msg: "needs MANAGE_USERS",
			run: func(e *env) error { return e.svc.SetRole(e.ctx, "user", "voter", app.RoleObserver) }},
		{name: "ErrRegisterWithoutManageUsers", code: app.CodeForbidden, msg: "needs MANAGE_USERS",
			run: func(e *env) error { return e.svc.RegisterUser(e.ctx, "user", "x", "x@example.org", "password-x") }},
		{name: "ErrDuplicateUserName", code: app.CodeConflict, msg: "already exists",
			run: func(e *env) error { return e.svc.RegisterUser(e.ctx, "owner", "user", "new@example.org", "password-x") }},
		{name: "ErrDuplicateEmail", code: app.CodeConflict, msg: "already used by user",
			run: func(e *env) error {
				return e.svc.RegisterUser(e.ctx, "owner", "newbie", "user@example.org", "password-x")
			}},
		{name: "ErrBadEmail", code: app.CodeInvalid, msg: "not an address",
			run: func(e *env) error { return e.svc.RegisterUser(e.ctx, "owner", "newbie", "nobody", "password-x") }},
		{name: "ErrShortPassword", code: app.CodeInvalid, msg: "at least 8",
			run: func(e *env) error { return e.svc.RegisterUser(e.ctx, "owner", "newbie", "n@example.org", "short") }},
		{name: "ErrRemoveOwner", code: app.CodeForbidden, msg: "OWNER cannot be removed",
			run: func(e *env) error { return e.svc.RemoveUser(e.ctx, "owner", "owner") }},
		{name: "ErrTransferWithoutOwnership", code: app.CodeForbidden, msg: "needs TRANSFER_OWNER",
			run: func(e *env) error { return e.svc.TransferOwnership(e.ctx, "auditor", "user") }},
		{name: "ErrRenameOtherWithoutRights", code: app.CodeForbidden, msg: "needs MANAGE_USERS",
			run: func(e *env) error { return e.svc.RenameUser(e.ctx, "user", "voter", "x") }},
		{name: "ErrResolveUnknownConflict", code: app.CodeNotFound, msg: "no conflict",
			run: func(e *env) error { return e.svc.ResolveConflict(e.ctx, "user", "Open", 99, true, "") }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			if tc.setup != nil {
				tc.setup(e)
			}
			before := e.snapshot()
			err := tc.run(e)
			if err == nil {
				t.Fatalf("command was accepted; want %s error", tc.code)
			}
			if got := app.ErrorCode(err); got != tc.code {
				t.Errorf("error code = %q, want %q (error: %v)", got, tc.code, err)
			}
			if !strings.Contains(app.ErrorMessage(err), tc.msg) {
				t.Errorf("message %q does not say %q", app.ErrorMessage(err), tc.msg)
			}
			if after := e.snapshot(); after != before {
				t.Errorf("refused command changed the database: before %+v, after %+v", before, after)
			}
		})
	}
}

func cast(e *env, actor, election, voter string, names ...string) error {
	_, err := e.svc.CastBallot(e.ctx, actor, app.Cast{Election: election, Voter: voter, Rankings: rank(names...)})
	return err
}

// launchWithWindow creates and launches election name with candidates A, B
// and voter v1, voting allowed only between from and to (zero = unbounded).
func launchWithWindow(e *env, name string, from, to time.Time) {
	e.must(e.svc.CreateElection(e.ctx, "user", name, "", false))
	e.must(e.svc.AddCandidates(e.ctx, "user", name, "A", "B"))
	e.must(e.svc.AddVoters(e.ctx, "user", name, app.VoterEntry{Name: "v1"}))
	var ch app.ElectionChanges
	if !from.IsZero() {
		s := from.Format(time.RFC3339)
		ch.NoVotingBefore = &s
	}
	if !to.IsZero() {
		s := to.Format(time.RFC3339)
		ch.NoVotingAfter = &s
	}
	e.must(e.svc.UpdateElection(e.ctx, "user", name, 0, ch))
	e.must(e.svc.LaunchElection(e.ctx, "user", name))
}
