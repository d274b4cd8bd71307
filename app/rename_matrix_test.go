package app_test

import (
	"fmt"
	"testing"

	"votedesk/app"
)

// TestRenameIntoAnotherIdentity: every actor tries to rename itself to
// every other user's name and email and to every poll-book voter's name;
// each is refused and changes nothing.
func TestRenameIntoAnotherIdentity(t *testing.T) {
	users := []string{"owner", "other"}
	for _, r := range app.Roles() {
		users = append(users, roleUsers[r])
	}
	for _, role := range app.Roles() {
		actor := matrixActor(role)
		t.Run(fmt.Sprintf("%s(%s)", actor, role), func(t *testing.T) {
			e := newEnv(t)
			before := e.snapshot()
			var targets []string
			for _, u := range users {
				if u != actor {
					targets = append(targets, u, u+"@example.org")
				}
			}
			targets = append(targets, "v1", "v2", "v3", "V1", "v3@example.org")
			if actor != "voter" {
				targets = append(targets, "voter")
			}
			for _, target := range targets {
				err := e.svc.RenameUser(e.ctx, actor, actor, target)
				if err == nil {
					t.Errorf("%s renamed itself to %q", actor, target)
					e.must(e.svc.RenameUser(e.ctx, "owner", target, actor))
					before = e.snapshot()
					continue
				}
				if c := app.ErrorCode(err); c != app.CodeConflict && c != app.CodeInvalid && c != app.CodeForbidden {
					t.Errorf("rename %s to %q: %v", actor, target, err)
				}
				if e.snapshot() != before {
					t.Fatalf("the refused rename of %s to %q changed the database", actor, target)
				}
			}
		})
	}
}

// TestRenamedIntoAFreedNameInheritsNothing: when a more privileged user
// (the AUDITOR, or the USER who owns every election) moves to another name,
// any other actor may take the freed name, but gains nothing by it: every
// command whose outcome would differ between the two accounts gives the
// actor's own outcome under the new name, and a refusal changes nothing.
func TestRenamedIntoAFreedNameInheritsNothing(t *testing.T) {
	ownerPasses := func(gc gateCase) bool {
		switch gc.name {
		case "RegisterUser", "SetRole", "RemoveUser", "ChangeOthersPassword", "RenameOther", "ChangeOthersEmail":
			return false
		}
		return gc.minimum == app.RoleAdmin && (gc.setup == nil || gc.name == "ResolveConflict")
	}
	for _, target := range []struct {
		name   string
		passes func(gateCase) bool
	}{
		{"auditor", func(gc gateCase) bool { return app.RoleAuditor >= gc.minimum }},
		{"user", func(gc gateCase) bool { return app.RoleUser >= gc.minimum || ownerPasses(gc) }},
	} {
		for _, role := range app.Roles() {
			actor := matrixActor(role)
			if actor == target.name {
				continue
			}
			for _, gc := range gateCases() {
				if role >= gc.minimum || !target.passes(gc) {
					continue // the same outcome either way: nothing to learn
				}
				t.Run(fmt.Sprintf("%s(%s)/as-%s/%s", actor, role, target.name, gc.name), func(t *testing.T) {
					t.Parallel()
					e := newEnv(t)
					if gc.setup != nil {
						gc.setup(e)
					}
					e.must(e.svc.RenameUser(e.ctx, "owner", target.name, target.name+"-moved"))
					if err := e.svc.RenameUser(e.ctx, actor, actor, target.name); err != nil {
						// The freed name is also a poll-book voter's (the
						// CastOwnBallot setup): it cannot be taken at all.
						if app.ErrorCode(err) != app.CodeConflict {
							t.Fatalf("rename %s to the freed %s: %v", actor, target.name, err)
						}
						return
					}
					before := e.snapshot()
					err := gc.run(e, target.name)
					if app.ErrorCode(err) != app.CodeForbidden {
						t.Errorf("%s, renamed %s, ran %s: %v, want forbidden", actor, target.name, gc.name, err)
					}
					if e.snapshot() != before {
						t.Error("the refused command changed the database")
					}
				})
			}
		}
	}
}
