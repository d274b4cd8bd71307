package app

import (
	"fmt"
	"strings"
)

// Role is a user's standing, ordered from lowest to highest.
type Role int

// The roles, lowest first. Their order is the permission order: every role has
// the permissions of the roles below it.
const (
	RoleNoAccess Role = iota
	RoleObserver
	RoleVoter
	RoleUser
	RoleAdmin
	RoleAuditor
	RoleOwner
)

var roleNames = [...]string{"NO_ACCESS", "OBSERVER", "VOTER", "USER", "ADMIN", "AUDITOR", "OWNER"}

// Roles lists every role, lowest first.
func Roles() []Role {
	return []Role{RoleNoAccess, RoleObserver, RoleVoter, RoleUser, RoleAdmin, RoleAuditor, RoleOwner}
}

// String returns the role's name as stored, e.g. "OWNER".
func (r Role) String() string {
	if r < 0 || int(r) >= len(roleNames) {
		return fmt.Sprintf("Role(%d)", int(r))
	}
	return roleNames[r]
}

// roleDescriptions say in plain words what each role may do, each adding
// to the one below it as its permission does (permissionInfo).
var roleDescriptions = [...]string{
	RoleNoAccess: "sees and does nothing: the account is kept but shut out",
	RoleObserver: "sees elections, candidates, poll books, turnout, the log and results; a secret election's ballots and counts only once its polls close, and never who voted how",
	RoleVoter:    "what an OBSERVER sees, and casts their own ballot as the poll-book voter an official linked to the account",
	RoleUser:     "runs elections: creates and edits them, launches, closes, counts and finalizes them, keys in paper ballots, imports cast vote records, starts kiosks",
	RoleAdmin:    "what a USER does, and adds users and gives them roles below ADMIN",
	RoleAuditor:  "what an ADMIN does, and sees secret ballots with who cast them (and counts while polls are open); backs up the database",
	RoleOwner:    "everything: also restores backups and hands ownership over (one OWNER per database)",
}

// Description says in plain words what the role may do.
func (r Role) Description() string {
	if r < 0 || int(r) >= len(roleDescriptions) {
		return ""
	}
	return roleDescriptions[r]
}

// ParseRole reads a role name, case-insensitively.
func ParseRole(s string) (Role, error) {
	for i, n := range roleNames {
		if strings.EqualFold(s, n) {
			return Role(i), nil
		}
	}
	return 0, Errorf(CodeInvalid, "unknown role %q (roles: %s)", s, strings.Join(roleNames[:], ", "))
}

// Permission is something a role allows.
type Permission int

// The permissions and the lowest role that has each.
const (
	PermViewApplication Permission = iota
	PermVote
	PermUseApplication
	PermManageUsers
	PermViewSecrets
	PermTransferOwner
)

var permissionInfo = [...]struct {
	name    string
	minimum Role
}{
	PermViewApplication: {"VIEW_APPLICATION", RoleObserver},
	PermVote:            {"VOTE", RoleVoter},
	PermUseApplication:  {"USE_APPLICATION", RoleUser},
	PermManageUsers:     {"MANAGE_USERS", RoleAdmin},
	PermViewSecrets:     {"VIEW_SECRETS", RoleAuditor},
	PermTransferOwner:   {"TRANSFER_OWNER", RoleOwner},
}

// Permissions lists every permission.
func Permissions() []Permission {
	return []Permission{PermViewApplication, PermVote, PermUseApplication, PermManageUsers, PermViewSecrets, PermTransferOwner}
}

// String returns the permission's name, e.g. "MANAGE_USERS".
func (p Permission) String() string {
	if p < 0 || int(p) >= len(permissionInfo) {
		return fmt.Sprintf("Permission(%d)", int(p))
	}
	return permissionInfo[p].name
}

// MinimumRole returns the lowest role that has the permission.
func (p Permission) MinimumRole() Role { return permissionInfo[p].minimum }

// Has reports whether the role has the permission.
func (r Role) Has(p Permission) bool {
	if p < 0 || int(p) >= len(permissionInfo) {
		return false
	}
	return r >= permissionInfo[p].minimum
}

// Manages reports whether a user of role actor may manage a user of role
// target (change their role, name, email or password, or remove them): the
// actor needs MANAGE_USERS and must rank above the target.
func Manages(actor, target Role) bool { return actor.Has(PermManageUsers) && target < actor }

// CanGrant reports whether a user of role actor may give another user role:
// only a manager, and only roles below their own.
func CanGrant(actor, role Role) bool { return actor.Has(PermManageUsers) && role < actor }

// Grantable lists the roles a user of role actor may give, lowest first.
func Grantable(actor Role) []Role {
	var out []Role
	for _, r := range Roles() {
		if CanGrant(actor, r) {
			out = append(out, r)
		}
	}
	return out
}

// RolesFor lists the roles actor may give target, lowest first: none for
// themself (nobody changes their own role) or for anyone they do not
// manage; otherwise the roles below their own.
func RolesFor(actor, target User) []Role {
	if sameUser(actor, target) || !Manages(actor.Role, target.Role) {
		return nil
	}
	return Grantable(actor.Role)
}

// MayRemoveUser reports whether actor may remove target's account: their
// own, or one they manage; never the OWNER's (ownership is handed over
// first).
func MayRemoveUser(actor, target User) bool {
	return target.Role != RoleOwner && (sameUser(actor, target) || Manages(actor.Role, target.Role))
}

// sameUser reports whether a and b are one account: by id where both have
// one, else by name.
func sameUser(a, b User) bool {
	if a.ID != "" && b.ID != "" {
		return a.ID == b.ID
	}
	return a.Name == b.Name
}

// MayManage reports whether u may manage election e (change its settings,
// candidates and poll book, run its lifecycle): its owning account, or an
// ADMIN or higher, with USE_APPLICATION.
func MayManage(u User, e Election) bool {
	if !u.Role.Has(PermUseApplication) {
		return false
	}
	owns := e.OwnerID != "" && e.OwnerID == u.ID || e.OwnerID == "" && e.Owner == u.Name
	return owns || u.Role >= RoleAdmin
}

// MayArchive reports whether u may archive (or show again) finalized
// election e: its owning account or the OWNER.
func MayArchive(u User, e Election) bool {
	owns := e.OwnerID != "" && e.OwnerID == u.ID || e.OwnerID == "" && e.Owner == u.Name
	return e.Status == StatusFinalized && u.Role.Has(PermUseApplication) && (owns || u.Role == RoleOwner)
}

// MayRunAudit reports whether u may start an audit of election e and its
// further rounds: whoever may manage the election.
func MayRunAudit(u User, e Election) bool { return MayManage(u, e) }

// MayReadAuditBallots reports whether u may sit on an audit board and
// record readings of sampled paper ballots: anyone who runs elections.
func MayReadAuditBallots(u User) bool { return u.Role.Has(PermUseApplication) }
