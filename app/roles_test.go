package app_test

import (
	"testing"

	"votedesk/app"
)

func TestRoleHasPermission(t *testing.T) {
	// want[role] lists the permissions the role has, as the foundation issue
	// specifies: VIEW_APPLICATION (OBSERVER+), VOTE (VOTER+), USE_APPLICATION
	// (USER+), MANAGE_USERS (ADMIN+), VIEW_SECRETS (AUDITOR+), TRANSFER_OWNER
	// (OWNER).
	want := map[app.Role][]app.Permission{
		app.RoleNoAccess: {},
		app.RoleObserver: {app.PermViewApplication},
		app.RoleVoter:    {app.PermViewApplication, app.PermVote},
		app.RoleUser:     {app.PermViewApplication, app.PermVote, app.PermUseApplication},
		app.RoleAdmin:    {app.PermViewApplication, app.PermVote, app.PermUseApplication, app.PermManageUsers},
		app.RoleAuditor:  {app.PermViewApplication, app.PermVote, app.PermUseApplication, app.PermManageUsers, app.PermViewSecrets},
		app.RoleOwner:    {app.PermViewApplication, app.PermVote, app.PermUseApplication, app.PermManageUsers, app.PermViewSecrets, app.PermTransferOwner},
	}
	for _, r := range app.Roles() {
		has := map[app.Permission]bool{}
		for _, p := range want[r] {
			has[p] = true
		}
		for _, p := range app.Permissions() {
			name := "Denied"
			if has[p] {
				name = "Granted"
			}
			t.Run(r.String()+"/"+p.String()+"/"+name, func(t *testing.T) {
				if got := r.Has(p); got != has[p] {
					t.Errorf("%s.Has(%s) = %v, want %v", r, p, got, has[p])
				}
			})
		}
	}
}

func TestParseRole(t *testing.T) {
	for _, r := range app.Roles() {
		got, err := app.ParseRole(r.String())
		if err != nil || got != r {
			t.Errorf("ParseRole(%q) = %v, %v", r.String(), got, err)
		}
	}
	t.Run("ErrUnknownRole", func(t *testing.T) {
		if _, err := app.ParseRole("KING"); app.ErrorCode(err) != app.CodeInvalid {
			t.Errorf("ParseRole(KING) error = %v, want invalid", err)
		}
	})
}
