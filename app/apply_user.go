package app

import "strings"

func applyUserRegistered(a *applier) error {
	var d userRegistered
	if err := a.decode(&d); err != nil {
		return err
	}
	counts, err := getCounts(a.tx)
	if err != nil {
		return err
	}
	role := RoleUser
	if counts.Users == 0 {
		role = RoleOwner
		if err := a.selfRegistration(d); err != nil {
			return err
		}
	} else if _, err := a.actor(PermManageUsers); err != nil {
		return err
	}
	if err := a.checkName("user name", d.Name); err != nil {
		return err
	}
	if _, err := CleanEmail(d.Email); err != nil {
		return err
	}
	if d.PasswordHash == "" {
		return Errorf(CodeInvalid, "user %q has no password", d.Name)
	}
	id := d.UserID
	if a.ev.Signed() {
		if id == "" || d.PublicKey == "" {
			return Errorf(CodeInvalid, "user %q has no account id or key", d.Name)
		}
		if _, ok, err := getAccount(a.tx, id); err != nil || ok {
			if err != nil {
				return err
			}
			return Errorf(CodeConflict, "account %s already exists", id)
		}
	} else {
		id = legacyUserID(a.ev.ID)
	}
	if err := a.userFree(d.Name, d.Email, ""); err != nil {
		return err
	}
	u := User{ID: id, Name: d.Name, Email: d.Email, Role: role, PasswordHash: d.PasswordHash, PublicKey: d.PublicKey, Created: a.ev.When}
	if err := putUser(a.tx, u); err != nil {
		return err
	}
	return addCounts(a.tx, a.ev.When, 1, 0)
}

// selfRegistration checks the first user's registration, which they make
// themselves: the event's actor is the new account, signed with its new key.
func (a *applier) selfRegistration(d userRegistered) error {
	if !a.ev.Signed() {
		if a.ev.Actor != d.Name {
			return Errorf(CodeForbidden, "the first user must register themselves")
		}
		return nil
	}
	if a.ev.ActorID != d.UserID || a.ev.UserKey != d.PublicKey || a.ev.Actor != d.Name {
		return Errorf(CodeForbidden, "the first user must register themselves, signed with their own key")
	}
	return nil
}

// userFree checks that a name and an email are free for account self (""
// for a new one). Signed events compare names as the domain does (letter
// case and spaces aside), refuse names with '@' (they would read as an
// email at sign-in), and refuse a poll-book voter's name unless that entry
// is linked to self; format-1 events compare exact names, as they did.
func (a *applier) userFree(name, email, self string) error {
	if u, ok, err := getUser(a.tx, name); err != nil || ok && u.ID != self {
		if err != nil {
			return err
		}
		return Errorf(CodeConflict, "a user named %q already exists", name)
	}
	if a.ev.Signed() {
		if strings.Contains(name, "@") {
			return Errorf(CodeInvalid, "user name %q may not contain '@' (sign-in would read it as an email)", name)
		}
		if u, ok, err := userByNameKey(a.tx, name); err != nil || ok && u.ID != self {
			if err != nil {
				return err
			}
			return Errorf(CodeConflict, "a user named %q already exists (names differ only in letter case or spaces)", u.Name)
		}
		if err := a.notAVoter(name, self); err != nil {
			return err
		}
	}
	if email == "" {
		return nil
	}
	return emailFree(a.tx, email, self)
}

// notAVoter refuses a user name that is, as the domain compares names
// (NameKey: letter case, spaces, normal form), the name of a poll-book
// voter not linked to account self, so the log never shows one person's
// name acting for another voter of that name.
func (a *applier) notAVoter(name, self string) error {
	var taken string
	err := a.tx.Partitions(prefixElection, skMetadata, func(it Item) (bool, error) {
		e := electionFromItem(it)
		// The poll book's first entry of that name, in its order.
		first := name // format 1 compared names as written
		if a.ev.Signed() {
			first = ""
			if err := votersKeyed(a.tx, e.ID, NameKey(name), func(v string) bool { first = v; return false }); err != nil {
				return false, err
			}
			if first == "" {
				return true, nil
			}
		}
		v, ok, err := a.tx.Get(electionPK(e.Name), voterSK(first))
		if err != nil || !ok {
			return err == nil, err
		}
		if link := v.Str("account_id"); link == "" || link != self {
			taken = e.Name
		}
		return taken == "", nil
	})
	if err != nil {
		return err
	}
	if taken != "" {
		return Errorf(CodeConflict, "%q is a voter in the poll book of %q; a user may take that name only when linked to that entry", name, taken)
	}
	return nil
}

func emailFree(tx Tx, email, self string) error {
	if u, ok, err := userByEmail(tx, email); err != nil || ok && u.ID != self {
		if err != nil {
			return err
		}
		return Errorf(CodeConflict, "email %s is already used by %s", email, u.Name)
	}
	return nil
}

// target loads the user a user event acts on: by account id for a signed
// event that names one, by name otherwise.
func (a *applier) target(name, id string) (User, error) {
	if a.ev.Signed() && id != "" {
		u, ok, err := userByID(a.tx, id)
		if err != nil {
			return User{}, err
		}
		if !ok {
			return User{}, Errorf(CodeNotFound, "no user %q (account %s)", name, id)
		}
		return u, nil
	}
	return mustUser(a.tx, name)
}

// isSelf reports whether the event's actor is the user u.
func (a *applier) isSelf(u User) bool {
	if a.ev.Signed() {
		return a.ev.ActorID == u.ID
	}
	return a.ev.Actor == u.Name
}

// selfOrManager loads the target of a change to a user's own details: the
// actor themself, or a user ranked below an actor with MANAGE_USERS.
func (a *applier) selfOrManager(name, id string) (User, error) {
	target, err := a.target(name, id)
	if err != nil {
		return User{}, err
	}
	if a.isSelf(target) {
		if _, err := a.actingUser(); err != nil {
			return User{}, err
		}
		return target, nil
	}
	return a.lowerUser(target)
}

// lowerUser checks that the actor manages target: the actor needs
// MANAGE_USERS and a role above the target's.
func (a *applier) lowerUser(target User) (User, error) {
	actor, err := a.actor(PermManageUsers)
	if err != nil {
		return User{}, err
	}
	if !Manages(actor.Role, target.Role) {
		return User{}, Errorf(CodeForbidden, "%s (%s) may only manage users ranked below them; %s is %s", actor.Name, actor.Role, target.Name, target.Role)
	}
	return target, nil
}

func applyUserRoleChanged(a *applier) error {
	var d userRoleChanged
	if err := a.decode(&d); err != nil {
		return err
	}
	role, err := ParseRole(d.Role)
	if err != nil {
		return err
	}
	target, err := a.target(d.Name, d.UserID)
	if err != nil {
		return err
	}
	if a.isSelf(target) {
		return Errorf(CodeForbidden, "nobody may change their own role")
	}
	if _, err := a.lowerUser(target); err != nil {
		return err
	}
	actor, err := a.actingUser()
	if err != nil {
		return err
	}
	if !CanGrant(actor.Role, role) {
		return Errorf(CodeForbidden, "%s (%s) may only grant roles below their own, not %s", actor.Name, actor.Role, role)
	}
	target.Role = role
	return a.tx.Put(target.item())
}

func applyOwnershipTransferred(a *applier) error {
	var d ownershipTransferred
	if err := a.decode(&d); err != nil {
		return err
	}
	owner, err := a.actor(PermTransferOwner)
	if err != nil {
		return err
	}
	target, err := a.target(d.To, d.UserID)
	if err != nil {
		return err
	}
	if target.ID == owner.ID {
		return Errorf(CodeInvalid, "%s already owns VoteDesk", owner.Name)
	}
	target.Role = RoleOwner
	owner.Role = RoleAuditor
	if err := a.tx.Put(target.item()); err != nil {
		return err
	}
	return a.tx.Put(owner.item())
}

func applyUserRemoved(a *applier) error {
	var d userNamed
	if err := a.decode(&d); err != nil {
		return err
	}
	target, err := a.selfOrManager(d.Name, d.UserID)
	if err != nil {
		return err
	}
	if target.Role == RoleOwner {
		return Errorf(CodeForbidden, "the OWNER cannot be removed; hand ownership over first")
	}
	if err := dropUser(a.tx, target, a.ev.When); err != nil {
		return err
	}
	return addCounts(a.tx, a.ev.When, -1, 0)
}

func applyUserPasswordChanged(a *applier) error {
	var d userPasswordChanged
	if err := a.decode(&d); err != nil {
		return err
	}
	target, err := a.selfOrManager(d.Name, d.UserID)
	if err != nil {
		return err
	}
	if d.PasswordHash == "" {
		return Errorf(CodeInvalid, "the new password of %q is empty", d.Name)
	}
	if a.ev.Signed() && d.PublicKey == "" {
		return Errorf(CodeInvalid, "the new password of %q comes without its signing key", d.Name)
	}
	if target.PublicKey != d.PublicKey {
		if err := retireKey(a.tx, target.ID, target.PublicKey, a.ev.When); err != nil {
			return err
		}
	}
	target.PasswordHash, target.PublicKey = d.PasswordHash, d.PublicKey
	return a.tx.Put(target.item())
}

// applyUserKeySet gives an account made before events were signed its
// signing key, at its first sign-in with this VoteDesk: the user signs
// with the key they set. An account that has a key changes it only with
// its password.
func applyUserKeySet(a *applier) error {
	var d userKeySet
	if err := a.decode(&d); err != nil {
		return err
	}
	if !a.ev.Signed() || a.ev.ActorID != d.UserID || a.ev.UserKey != d.PublicKey {
		return Errorf(CodeForbidden, "a signing key is set by its own user, signed with it")
	}
	u, ok, err := userByID(a.tx, d.UserID)
	if err != nil {
		return err
	}
	if !ok {
		return Errorf(CodeNotFound, "no account %s", d.UserID)
	}
	if u.PublicKey != "" {
		return Errorf(CodeConflict, "%s already has a signing key; it changes with the password", u.Name)
	}
	if d.PasswordHash == "" {
		return Errorf(CodeInvalid, "the signing key of %s comes without its password hash", u.Name)
	}
	u.PublicKey, u.PasswordHash = d.PublicKey, d.PasswordHash
	return a.tx.Put(u.item())
}

func applyUserEmailChanged(a *applier) error {
	var d userEmailChanged
	if err := a.decode(&d); err != nil {
		return err
	}
	target, err := a.selfOrManager(d.Name, d.UserID)
	if err != nil {
		return err
	}
	if _, err := CleanEmail(d.Email); err != nil {
		return err
	}
	if d.Email == target.Email {
		return nil
	}
	if err := emailFree(a.tx, d.Email, target.ID); err != nil {
		return err
	}
	target.Email = d.Email
	return a.tx.Put(target.item())
}

func applyUserNameChanged(a *applier) error {
	var d userNameChanged
	if err := a.decode(&d); err != nil {
		return err
	}
	target, err := a.selfOrManager(d.Name, d.UserID)
	if err != nil {
		return err
	}
	if err := a.checkName("user name", d.NewName); err != nil {
		return err
	}
	if err := a.userFree(d.NewName, "", target.ID); err != nil {
		return err
	}
	owned, err := electionsOwnedBy(a.tx, target)
	if err != nil {
		return err
	}
	if err := a.tx.Delete(userPK(target.Name), skMetadata); err != nil {
		return err
	}
	if err := dropUserName(a.tx, target); err != nil {
		return err
	}
	target.Name = d.NewName
	if err := putUser(a.tx, target); err != nil {
		return err
	}
	for _, e := range owned {
		e.Owner = d.NewName
		if err := a.tx.Put(e.item()); err != nil {
			return err
		}
	}
	return nil
}

// electionsOwnedBy lists the elections a user owns.
func electionsOwnedBy(tx Tx, u User) ([]Election, error) {
	var out []Election
	err := tx.Partitions(prefixElection, skMetadata, func(it Item) (bool, error) {
		if e := electionFromItem(it); e.OwnerID == u.ID || e.OwnerID == "" && e.Owner == u.Name {
			out = append(out, e)
		}
		return true, nil
	})
	return out, err
}
