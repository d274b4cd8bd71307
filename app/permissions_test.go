package app_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"votedesk/app"
)

// gateCase is one command of the permission matrix: what it needs set up,
// how to run it as actor, and the lowest role that may run it (for an actor
// who does not own the elections involved: they are owned by "user").
type gateCase struct {
	name    string
	setup   func(e *env)
	run     func(e *env, actor string) error
	minimum app.Role
}

func gateCases() []gateCase {
	yes := true
	desc := "changed"
	return []gateCase{
		{name: "CreateElection", minimum: app.RoleUser,
			run: func(e *env, a string) error { return e.svc.CreateElection(e.ctx, a, "New "+a, "", false) }},
		{name: "UpdateElection", minimum: app.RoleAdmin,
			run: func(e *env, a string) error {
				return e.svc.UpdateElection(e.ctx, a, "Draft", 0, app.ElectionChanges{Description: &desc})
			}},
		{name: "LaunchElection", minimum: app.RoleAdmin,
			run: func(e *env, a string) error { return e.svc.LaunchElection(e.ctx, a, "Draft") }},
		{name: "FinalizeElection", minimum: app.RoleAdmin,
			run: func(e *env, a string) error { return e.svc.FinalizeElection(e.ctx, a, "Open") }},
		{name: "DeleteElection", minimum: app.RoleAdmin,
			run: func(e *env, a string) error { return e.svc.DeleteElection(e.ctx, a, "Draft") }},
		{name: "AddCandidates", minimum: app.RoleAdmin,
			run: func(e *env, a string) error { return e.svc.AddCandidates(e.ctx, a, "Draft", "D") }},
		{name: "RemoveCandidates", minimum: app.RoleAdmin,
			run: func(e *env, a string) error { return e.svc.RemoveCandidates(e.ctx, a, "Draft", "C") }},
		{name: "AddVoters", minimum: app.RoleAdmin,
			run: func(e *env, a string) error { return e.svc.AddVoters(e.ctx, a, "Draft", app.VoterEntry{Name: "v9"}) }},
		{name: "RemoveVoters", minimum: app.RoleAdmin,
			run: func(e *env, a string) error { return e.svc.RemoveVoters(e.ctx, a, "Draft", "v1") }},
		{name: "CastOwnBallot", minimum: app.RoleVoter,
			setup: func(e *env) {
				e.must(e.svc.UpdateElection(e.ctx, "user", "Open", 0, app.ElectionChanges{AllowEdit: &yes}))
				for _, role := range app.Roles() {
					if n := matrixActor(role); n != "voter" {
						e.must(e.svc.AddVoters(e.ctx, "user", "Open", app.VoterEntry{Name: n}))
					}
				}
			},
			run: func(e *env, a string) error { return cast(e, a, "Open", a, "A") }},
		{name: "CastForAnotherVoter", minimum: app.RoleUser,
			run: func(e *env, a string) error { return cast(e, a, "Open", "v1", "A") }},
		{name: "EnterPaperBallot", minimum: app.RoleUser,
			run: func(e *env, a string) error {
				_, err := e.svc.CastBallot(e.ctx, a, app.Cast{Election: "Open", Rankings: rank("B"), Source: app.SourcePaper, Transcribed: true})
				return err
			}},
		{name: "ImportBallots", minimum: app.RoleAdmin,
			run: func(e *env, a string) error {
				_, err := e.svc.ImportBallots(e.ctx, a, "Open", app.SourceCVR, []app.ImportedBallot{{SourceID: "1", Rankings: rank("C")}}, nil)
				return err
			}},
		{name: "ResolveConflict", minimum: app.RoleAdmin, setup: duplicateBallot,
			run: func(e *env, a string) error { return e.svc.ResolveConflict(e.ctx, a, "Open", conflictSeq(e), true, "") }},
		{name: "RegisterUser", minimum: app.RoleAdmin,
			run: func(e *env, a string) error {
				return e.svc.RegisterUser(e.ctx, a, "new-"+a, "new-"+a+"@example.org", "password-new")
			}},
		{name: "SetRole", minimum: app.RoleAdmin, setup: addTarget,
			run: func(e *env, a string) error { return e.svc.SetRole(e.ctx, a, "target", app.RoleObserver) }},
		{name: "RemoveUser", minimum: app.RoleAdmin, setup: addTarget,
			run: func(e *env, a string) error { return e.svc.RemoveUser(e.ctx, a, "target") }},
		{name: "ChangeOthersPassword", minimum: app.RoleAdmin, setup: addTarget,
			run: func(e *env, a string) error { return e.svc.ChangePassword(e.ctx, a, "target", "another-password") }},
		{name: "RenameOther", minimum: app.RoleAdmin, setup: addTarget,
			run: func(e *env, a string) error { return e.svc.RenameUser(e.ctx, a, "target", "renamed") }},
		{name: "ChangeOthersEmail", minimum: app.RoleAdmin, setup: addTarget,
			run: func(e *env, a string) error { return e.svc.ChangeEmail(e.ctx, a, "target", "moved@example.org") }},
		{name: "ChangeOwnEmail", minimum: app.RoleNoAccess,
			run: func(e *env, a string) error { return e.svc.ChangeEmail(e.ctx, a, a, "me-"+a+"@example.org") }},
		{name: "TransferOwnership", minimum: app.RoleOwner, setup: addTarget,
			run: func(e *env, a string) error { return e.svc.TransferOwnership(e.ctx, a, "target") }},
		{name: "ListElections", minimum: app.RoleObserver,
			run: func(e *env, a string) error { _, err := e.svc.Elections(e.ctx, a); return err }},
		{name: "ShowElection", minimum: app.RoleObserver,
			run: func(e *env, a string) error { _, err := e.svc.Election(e.ctx, a, "Open"); return err }},
		{name: "ListCandidates", minimum: app.RoleObserver,
			run: func(e *env, a string) error { _, err := e.svc.Candidates(e.ctx, a, "Open"); return err }},
		{name: "ListVoters", minimum: app.RoleObserver,
			run: func(e *env, a string) error { _, err := e.svc.Voters(e.ctx, a, "Open"); return err }},
		{name: "CheckVoter", minimum: app.RoleVoter,
			run: func(e *env, a string) error { _, err := e.svc.CheckVoter(e.ctx, a, "Open", "v1"); return err }},
		{name: "FindElectionByJoinCode", minimum: app.RoleObserver,
			run: func(e *env, a string) error {
				open, err := e.svc.Election(e.ctx, "owner", "Open")
				e.must(err)
				_, err = e.svc.FindElection(e.ctx, a, app.JoinCode(open))
				return err
			}},
		{name: "StartKiosk", minimum: app.RoleUser,
			run: func(e *env, a string) error { _, _, err := e.svc.KioskElection(e.ctx, a, "Open"); return err }},
		{name: "KioskCheckIn", minimum: app.RoleUser,
			run: func(e *env, a string) error { _, err := e.svc.CheckInVoter(e.ctx, a, "Open", "v1"); return err }},
		{name: "ListBallots", minimum: app.RoleObserver,
			run: func(e *env, a string) error { _, err := e.svc.Ballots(e.ctx, a, "Open"); return err }},
		{name: "ListUsers", minimum: app.RoleObserver,
			run: func(e *env, a string) error { _, err := e.svc.Users(e.ctx, a); return err }},
		{name: "ReadCounts", minimum: app.RoleObserver,
			run: func(e *env, a string) error { _, err := e.svc.Counts(e.ctx, a); return err }},
		{name: "ReadLog", minimum: app.RoleObserver,
			run: func(e *env, a string) error { return e.svc.Log(e.ctx, a, 1, func(*app.Event) error { return nil }) }},
		{name: "ListConflicts", minimum: app.RoleObserver,
			run: func(e *env, a string) error { _, err := e.svc.Conflicts(e.ctx, a, ""); return err }},
		{name: "ListRejections", minimum: app.RoleObserver,
			run: func(e *env, a string) error { _, err := e.svc.Rejections(e.ctx, a); return err }},
		{name: "CountElection", minimum: app.RoleObserver,
			setup: func(e *env) { e.must(cast(e, "user", "Open", "v1", "A")) },
			run: func(e *env, a string) error {
				_, _, err := e.svc.CountStored(e.ctx, a, "Open", "", nil, nil)
				return err
			}},
	}
}

func addTarget(e *env) {
	e.must(e.svc.RegisterUser(e.ctx, "owner", "target", "target@example.org", "password-target"))
	e.must(e.svc.SetRole(e.ctx, "owner", "target", app.RoleNoAccess))
}

// duplicateBallot makes a conflict in "Open": v1 votes, then a ballot for v1
// cast on another (offline) device arrives through the log.
func duplicateBallot(e *env) {
	e.must(cast(e, "user", "Open", "v1", "A"))
	el, err := e.svc.Election(e.ctx, "user", "Open")
	e.must(err)
	e.must(e.foreignEvent("user", app.EvBallotCast, map[string]any{"election": "Open", "election_id": el.ID, "voter": "v1",
		"confirmation": "11111111-2222-4333-8444-555555555555", "rankings": [][]string{{"B"}}, "source": "kiosk"}))
}

func conflictSeq(e *env) uint64 {
	cs, err := e.svc.Conflicts(context.Background(), "owner", "Open")
	e.must(err)
	if len(cs) != 1 {
		e.t.Fatalf("conflicts = %+v", cs)
	}
	return cs[0].Seq
}

// matrixActor is the user who acts with a role in the matrix: for USER,
// "other", who owns no election.
func matrixActor(r app.Role) string {
	if r == app.RoleUser {
		return "other"
	}
	return roleUsers[r]
}

// TestPermissionMatrix runs every command as every role, through the same
// gate the GUI, CLI, kiosk and sync use: allowed at and above the command's
// minimum role, refused as forbidden below it, and a refusal changes
// nothing.
func TestPermissionMatrix(t *testing.T) {
	for _, gc := range gateCases() {
		for _, role := range app.Roles() {
			want := "Allowed"
			if role < gc.minimum {
				want = "Forbidden"
			}
			t.Run(fmt.Sprintf("%s/%s/%s", gc.name, role, want), func(t *testing.T) {
				t.Parallel()
				e := newEnv(t)
				if gc.setup != nil {
					gc.setup(e)
				}
				before := e.snapshot()
				err := gc.run(e, matrixActor(role))
				if role >= gc.minimum {
					if err != nil {
						t.Errorf("%s as %s: %v", gc.name, role, err)
					}
					return
				}
				if app.ErrorCode(err) != app.CodeForbidden {
					t.Errorf("%s as %s: error %v, want forbidden", gc.name, role, err)
				}
				if e.snapshot() != before {
					t.Errorf("refused %s as %s changed the database", gc.name, role)
				}
			})
		}
	}
}

// TestElectionOwnerManagesOwnElection checks the other way to pass the
// election gate: "user" (USER) owns the template elections.
func TestElectionOwnerManagesOwnElection(t *testing.T) {
	for _, gc := range gateCases() {
		if gc.minimum != app.RoleAdmin || gc.setup != nil && gc.name != "ResolveConflict" {
			continue
		}
		switch gc.name {
		case "RegisterUser", "SetRole", "RemoveUser", "ChangeOthersPassword", "RenameOther", "ChangeOthersEmail":
			continue
		}
		t.Run(gc.name, func(t *testing.T) {
			e := newEnv(t)
			if gc.setup != nil {
				gc.setup(e)
			}
			if err := gc.run(e, "user"); err != nil {
				t.Errorf("owner %s: %v", gc.name, err)
			}
		})
	}
}

// TestRolePredicatesMatchTheCommands: the predicates the screens ask
// (RolesFor, MayRemoveUser) give, for every pair of roles, exactly what the
// commands then allow: a role is offered iff SetRole accepts it, Remove is
// offered iff RemoveUser succeeds.
func TestRolePredicatesMatchTheCommands(t *testing.T) {
	for _, actorRole := range app.Roles() {
		for _, targetRole := range app.Roles() {
			t.Run(fmt.Sprintf("%s/%s", actorRole, targetRole), func(t *testing.T) {
				t.Parallel()
				e := newEnv(t)
				actor, target := roleUsers[actorRole], roleUsers[targetRole]
				me, err := e.svc.User(e.ctx, "owner", actor)
				e.must(err)
				them, err := e.svc.User(e.ctx, "owner", target)
				e.must(err)
				offered := app.RolesFor(me, them)
				for _, r := range app.Roles() {
					err := e.svc.SetRole(e.ctx, actor, target, r)
					if want := slices.Contains(offered, r); (err == nil) != want {
						t.Errorf("%s giving %s the role %s: offered %v, command said %v", actorRole, targetRole, r, want, err)
					}
					if err == nil && r != targetRole {
						e.must(e.svc.SetRole(e.ctx, "owner", target, targetRole))
					}
				}
				err = e.svc.RemoveUser(e.ctx, actor, target)
				if want := app.MayRemoveUser(me, them); (err == nil) != want {
					t.Errorf("%s removing %s: offered %v, command said %v", actorRole, targetRole, want, err)
				}
			})
		}
	}
}
