package app

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
		if a.ev.Actor != d.Name {
			return Errorf(CodeForbidden, "the first user must register themselves")
		}
	} else if _, err := a.actor(PermManageUsers); err != nil {
		return err
	}
	if _, err := CleanName("user name", d.Name); err != nil {
		return err
	}
	if _, err := CleanEmail(d.Email); err != nil {
		return err
	}
	if d.PasswordHash == "" {
		return Errorf(CodeInvalid, "user %q has no password", d.Name)
	}
	if err := userFree(a.tx, d.Name, d.Email); err != nil {
		return err
	}
	u := User{Name: d.Name, Email: d.Email, Role: role, PasswordHash: d.PasswordHash, Created: a.ev.When}
	if err := a.tx.Put(u.item()); err != nil {
		return err
	}
	return addCounts(a.tx, a.ev.When, 1, 0)
}

// userFree checks that neither the name nor the email is taken.
func userFree(tx Tx, name, email string) error {
	if _, ok, err := getUser(tx, name); err != nil || ok {
		if err != nil {
			return err
		}
		return Errorf(CodeConflict, "a user named %q already exists", name)
	}
	return emailFree(tx, email)
}

func emailFree(tx Tx, email string) error {
	if u, ok, err := userByEmail(tx, email); err != nil || ok {
		if err != nil {
			return err
		}
		return Errorf(CodeConflict, "email %s is already used by %s", email, u.Name)
	}
	return nil
}

// selfOrManager loads the target of a change to a user's own details: the
// actor themself, or a user ranked below an actor with MANAGE_USERS.
func (a *applier) selfOrManager(name string) (User, error) {
	if name == a.ev.Actor {
		return mustUser(a.tx, name)
	}
	return a.lowerUser(name)
}

// lowerUser loads a user the actor manages: the actor needs MANAGE_USERS and
// a role above the target's.
func (a *applier) lowerUser(name string) (User, error) {
	actor, err := a.actor(PermManageUsers)
	if err != nil {
		return User{}, err
	}
	target, err := mustUser(a.tx, name)
	if err != nil {
		return User{}, err
	}
	if target.Role >= actor.Role {
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
	if d.Name == a.ev.Actor {
		return Errorf(CodeForbidden, "nobody may change their own role")
	}
	target, err := a.lowerUser(d.Name)
	if err != nil {
		return err
	}
	actor, err := mustUser(a.tx, a.ev.Actor)
	if err != nil {
		return err
	}
	if role >= actor.Role {
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
	if d.To == owner.Name {
		return Errorf(CodeInvalid, "%s already owns VoteDesk", owner.Name)
	}
	target, err := mustUser(a.tx, d.To)
	if err != nil {
		return err
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
	target, err := a.selfOrManager(d.Name)
	if err != nil {
		return err
	}
	if target.Role == RoleOwner {
		return Errorf(CodeForbidden, "the OWNER cannot be removed; hand ownership over first")
	}
	if err := a.tx.Delete(userPK(target.Name), skMetadata); err != nil {
		return err
	}
	return addCounts(a.tx, a.ev.When, -1, 0)
}

func applyUserPasswordChanged(a *applier) error {
	var d userPasswordChanged
	if err := a.decode(&d); err != nil {
		return err
	}
	target, err := a.selfOrManager(d.Name)
	if err != nil {
		return err
	}
	if d.PasswordHash == "" {
		return Errorf(CodeInvalid, "the new password of %q is empty", d.Name)
	}
	target.PasswordHash = d.PasswordHash
	return a.tx.Put(target.item())
}

func applyUserEmailChanged(a *applier) error {
	var d userEmailChanged
	if err := a.decode(&d); err != nil {
		return err
	}
	target, err := a.selfOrManager(d.Name)
	if err != nil {
		return err
	}
	if _, err := CleanEmail(d.Email); err != nil {
		return err
	}
	if d.Email == target.Email {
		return nil
	}
	if err := emailFree(a.tx, d.Email); err != nil {
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
	target, err := a.selfOrManager(d.Name)
	if err != nil {
		return err
	}
	if _, err := CleanName("user name", d.NewName); err != nil {
		return err
	}
	if _, ok, err := getUser(a.tx, d.NewName); err != nil || ok {
		if err != nil {
			return err
		}
		return Errorf(CodeConflict, "a user named %q already exists", d.NewName)
	}
	owned, err := electionsOwnedBy(a.tx, target.Name)
	if err != nil {
		return err
	}
	if err := a.tx.Delete(userPK(target.Name), skMetadata); err != nil {
		return err
	}
	target.Name = d.NewName
	if err := a.tx.Put(target.item()); err != nil {
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
func electionsOwnedBy(tx Tx, owner string) ([]Election, error) {
	var out []Election
	err := tx.Partitions(prefixElection, skMetadata, func(it Item) (bool, error) {
		if e := electionFromItem(it); e.Owner == owner {
			out = append(out, e)
		}
		return true, nil
	})
	return out, err
}
