package app

import (
	"context"
	"time"
)

// RegisterUser adds a user. On an empty database anyone may register, and the
// first user becomes the OWNER (the actor is then ignored); later users are
// added by someone with MANAGE_USERS and start as USER.
func (s *Service) RegisterUser(ctx context.Context, actor, name, email, password string) error {
	name, err := CleanName("user name", name)
	if err != nil {
		return err
	}
	if email, err = CleanEmail(email); err != nil {
		return err
	}
	if err := CheckPassword(password); err != nil {
		return err
	}
	hash, err := HashSecret(password)
	if err != nil {
		return err
	}
	_, err = s.run(ctx, "register user "+name, actor, func(tx Tx) (decision, error) {
		c, err := getCounts(tx)
		if err != nil {
			return decision{}, err
		}
		d := decision{typ: EvUserRegistered, data: userRegistered{Name: name, Email: email, PasswordHash: hash}}
		if c.Users == 0 {
			d.as = name
		}
		return d, nil
	})
	return err
}

// SignIn checks a name (or email) and password and returns the user. After
// FreeAttempts failures in a row for a login, further tries are refused until
// a growing wait has passed, without checking the password.
func (s *Service) SignIn(ctx context.Context, login, password string) (User, error) {
	key := attemptKey(login)
	n, last, err := s.attempts.Failures(key)
	if err != nil {
		return User{}, err
	}
	if wait := lockout(n) - s.clock.Now().Sub(last); wait > 0 {
		return User{}, Errorf(CodeForbidden, "too many failed sign-ins for %q; try again in %s", login, wait.Round(time.Second))
	}
	u, err := s.checkPassword(ctx, login, password)
	if err != nil {
		if IsCode(err, CodeForbidden) {
			if rerr := s.attempts.RecordFailure(key, s.clock.Now()); rerr != nil {
				return User{}, rerr
			}
		}
		return User{}, err
	}
	if n > 0 {
		if err := s.attempts.ClearFailures(key); err != nil {
			return User{}, err
		}
	}
	if u.Role == RoleNoAccess {
		return User{}, Errorf(CodeForbidden, "%s has no access (role NO_ACCESS)", u.Name)
	}
	return u, nil
}

// checkPassword finds the user by name or email and checks the password.
func (s *Service) checkPassword(ctx context.Context, login, password string) (User, error) {
	var u User
	err := s.store.View(ctx, func(tx Tx) error {
		var ok bool
		var err error
		if u, ok, err = getUser(tx, login); err != nil || ok {
			return err
		}
		if email, e := CleanEmail(login); e == nil {
			if u, ok, err = userByEmail(tx, email); err != nil || ok {
				return err
			}
		}
		return Errorf(CodeForbidden, "wrong name or password")
	})
	if err != nil {
		return User{}, err
	}
	if !VerifySecret(u.PasswordHash, password) {
		return User{}, Errorf(CodeForbidden, "wrong name or password")
	}
	return u, nil
}

// SetRole changes another user's role, within the rules: only roles below the
// actor's own, only for users ranked below the actor, never their own.
func (s *Service) SetRole(ctx context.Context, actor, name string, role Role) error {
	_, err := s.run(ctx, "change role of "+name, actor, simple(EvUserRoleChanged, userRoleChanged{Name: name, Role: role.String()}))
	return err
}

// TransferOwnership makes another user the OWNER; the old owner becomes an
// AUDITOR.
func (s *Service) TransferOwnership(ctx context.Context, actor, to string) error {
	_, err := s.run(ctx, "transfer ownership to "+to, actor, simple(EvOwnershipTransferred, ownershipTransferred{To: to}))
	return err
}

// RemoveUser removes a user: oneself, or a user below an actor with
// MANAGE_USERS. The OWNER cannot be removed.
func (s *Service) RemoveUser(ctx context.Context, actor, name string) error {
	_, err := s.run(ctx, "remove user "+name, actor, simple(EvUserRemoved, userNamed{Name: name}))
	return err
}

// ChangePassword sets a new password for oneself or a user one manages.
func (s *Service) ChangePassword(ctx context.Context, actor, name, password string) error {
	if err := CheckPassword(password); err != nil {
		return err
	}
	hash, err := HashSecret(password)
	if err != nil {
		return err
	}
	_, err = s.run(ctx, "change password of "+name, actor, simple(EvUserPasswordChanged, userPasswordChanged{Name: name, PasswordHash: hash}))
	return err
}

// RenameUser changes a user's name.
func (s *Service) RenameUser(ctx context.Context, actor, name, newName string) error {
	newName, err := CleanName("user name", newName)
	if err != nil {
		return err
	}
	_, err = s.run(ctx, "rename user "+name, actor, simple(EvUserNameChanged, userNameChanged{Name: name, NewName: newName}))
	return err
}

// ChangeEmail changes a user's email.
func (s *Service) ChangeEmail(ctx context.Context, actor, name, email string) error {
	email, err := CleanEmail(email)
	if err != nil {
		return err
	}
	_, err = s.run(ctx, "change email of "+name, actor, simple(EvUserEmailChanged, userEmailChanged{Name: name, Email: email}))
	return err
}
