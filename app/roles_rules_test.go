package app

import (
	"slices"
	"testing"
)

// TestRolePredicatesOverEveryPair states the user-management rules once,
// for every pair of roles: a user manages (and may give roles to) only users
// ranked below them, and only with MANAGE_USERS; the roles they may give are
// exactly those below their own; nobody is offered a role for themself.
func TestRolePredicatesOverEveryPair(t *testing.T) {
	for _, actor := range Roles() {
		for _, target := range Roles() {
			wantManage := actor.Has(PermManageUsers) && target < actor
			if got := Manages(actor, target); got != wantManage {
				t.Errorf("Manages(%s, %s) = %v, want %v", actor, target, got, wantManage)
			}
			wantGrant := actor.Has(PermManageUsers) && target < actor
			if got := CanGrant(actor, target); got != wantGrant {
				t.Errorf("CanGrant(%s, %s) = %v, want %v", actor, target, got, wantGrant)
			}
			me := User{ID: "u1", Name: "Olga", Role: actor}
			other := User{ID: "u2", Name: "Adam", Role: target}
			got := RolesFor(me, other)
			if !wantManage && got != nil {
				t.Errorf("RolesFor(%s, %s) = %v, want none", actor, target, got)
			}
			for _, r := range Roles() {
				if slices.Contains(got, r) != (wantManage && r < actor) {
					t.Errorf("RolesFor(%s, %s) = %v: %s wrongly in or out", actor, target, got, r)
				}
			}
			if got, want := MayRemoveUser(me, other), wantManage && target != RoleOwner; got != want {
				t.Errorf("MayRemoveUser(%s, %s) = %v, want %v", actor, target, got, want)
			}
			if got, want := MayRemoveUser(me, User{ID: "u1", Name: "Olga", Role: actor}), actor != RoleOwner; got != want {
				t.Errorf("MayRemoveUser(a %s themself) = %v, want %v", actor, got, want)
			}
			// The same account, by id or (without ids) by name, is offered
			// nothing.
			if self := RolesFor(me, User{ID: "u1", Name: "Olga", Role: target}); self != nil {
				t.Errorf("RolesFor a %s themself = %v", actor, self)
			}
			if self := RolesFor(User{Name: "Olga", Role: actor}, User{Name: "Olga", Role: target}); self != nil {
				t.Errorf("RolesFor a %s themself by name = %v", actor, self)
			}
			// A renamed account is still itself; another account named
			// like it is not.
			if got := RolesFor(me, User{ID: "u2", Name: "Olga", Role: target}); wantManage != (got != nil) {
				t.Errorf("RolesFor(%s, another account named alike, %s) = %v", actor, target, got)
			}
		}
	}
}

// TestElectionPredicatesOverEveryRole: an election is managed by its owning
// account or by an ADMIN or higher, never without USE_APPLICATION; a
// finalized one is archived by its owning account or the OWNER.
func TestElectionPredicatesOverEveryRole(t *testing.T) {
	for _, role := range Roles() {
		for _, owns := range []bool{false, true} {
			u := User{ID: "u1", Name: "Olga", Role: role}
			e := Election{Name: "Mayor", OwnerID: "u9", Owner: "Someone", Status: StatusFinalized}
			if owns {
				e.OwnerID, e.Owner = "u1", "Olga"
			}
			use := role.Has(PermUseApplication)
			if got, want := MayManage(u, e), use && (owns || role >= RoleAdmin); got != want {
				t.Errorf("MayManage(%s, owns %v) = %v, want %v", role, owns, got, want)
			}
			if got, want := MayArchive(u, e), use && (owns || role == RoleOwner); got != want {
				t.Errorf("MayArchive(%s, owns %v) = %v, want %v", role, owns, got, want)
			}
			e.Status = StatusLaunched
			if MayArchive(u, e) {
				t.Errorf("MayArchive(%s) on a launched election", role)
			}
		}
	}
}
