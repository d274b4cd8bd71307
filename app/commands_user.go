package app

import (
	"context"
	"time"

	"github.com/google/uuid"
)

// RegisterUser adds a user. On an empty database anyone may register, and the
// first user becomes the OWNER (the actor is then ignored); later users are
// added by someone with MANAGE_USERS and start as USER. The new account's
// signing key, derived from the password, joins the service's keyring: the
// process that set the password knows it.
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
	pk, err := NewPasswordKey(password)
	if err != nil {
		return err
	}
	id := uuid.NewString()
	_, err = s.run(ctx, "register user "+name, actor, func(tx Tx) (decision, error) {
		c, err := getCounts(tx)
		if err != nil {
			return decision{}, err
		}
		d := decision{typ: EvUserRegistered, data: userRegistered{Name: name, Email: email, PasswordHash: pk.Hash, UserID: id, PublicKey: pk.PublicKey()}}
		if c.Users == 0 {
			d.as = &signer{user: User{ID: id, Name: name}, key: pk.Key}
		}
		return d, nil
	})
	if err != nil {
		return err
	}
	s.keys.Add(id, pk.Key)
	return nil
}

// SignIn checks a name (or email) and password and returns the user. After
// FreeAttempts failures in a row for an account (counted together for its
// name and email) or for an unknown login, further tries are refused until a
// growing wait has passed, without checking the password. An unknown login
// takes as long to refuse as a wrong password. The user's signing key joins
// the service's keyring; an account made before events were signed gets its
// key now (a UserKeySet event).
func (s *Service) SignIn(ctx context.Context, login, password string) (User, error) {
	var u User
	var found bool
	err := s.store.View(ctx, func(tx Tx) (err error) {
		u, found, err = findLogin(tx, login)
		return err
	})
	if err != nil {
		return User{}, err
	}
	key := attemptKey(u, found, login)
	n, last, err := s.attempts.Failures(key)
	if err != nil {
		return User{}, err
	}
	if wait := lockout(n) - s.clock.Now().Sub(last); wait > 0 {
		return User{}, Errorf(CodeForbidden, "too many failed sign-ins for %q; try again in %s", login, wait.Round(time.Second))
	}
	hash := dummyHash
	if found {
		hash = u.PasswordHash
	}
	signing, ok := UnlockPassword(hash, password)
	if !found || !ok {
		if rerr := s.attempts.RecordFailure(key, s.clock.Now()); rerr != nil {
			return User{}, rerr
		}
		return User{}, Errorf(CodeForbidden, "wrong name or password")
	}
	if n > 0 {
		if err := s.attempts.ClearFailures(key); err != nil {
			return User{}, err
		}
	}
	if u.Role == RoleNoAccess {
		return User{}, Errorf(CodeForbidden, "%s has no access (role NO_ACCESS)", u.Name)
	}
	if signing == nil {
		if u, signing, err = s.setKey(ctx, u, password); err != nil {
			return User{}, err
		}
	}
	s.keys.Add(u.ID, signing)
	u.PasswordHash = ""
	return u, nil
}

// setKey gives an account made before events were signed its signing key.
func (s *Service) setKey(ctx context.Context, u User, password string) (User, ed25519Key, error) {
	pk, err := NewPasswordKey(password)
	if err != nil {
		return User{}, nil, err
	}
	_, err = s.run(ctx, "set the signing key of "+u.Name, u.Name, func(Tx) (decision, error) {
		return decision{typ: EvUserKeySet, data: userKeySet{UserID: u.ID, PasswordHash: pk.Hash, PublicKey: pk.PublicKey()},
			as: &signer{user: u, key: pk.Key}}, nil
	})
	if err != nil {
		return User{}, nil, err
	}
	u.PublicKey = pk.PublicKey()
	return u, pk.Key, nil
}

// SignOut forgets a user's signing key in this process.
func (s *Service) SignOut(u User) { s.keys.Forget(u.ID) }

// userRef looks up the account a command about a user names, for the
// event to carry its id.
func userRef(tx Tx, name string) (string, error) {
	u, ok, err := getUser(tx, name)
	if err != nil {
		return "", err
	}
	if !ok {
		return "", Errorf(CodeNotFound, "no user named %q", name)
	}
	return u.ID, nil
}

// userCommand runs a command about the user called name: it looks the
// account up so the event names it by id, and builds the event's data.
func (s *Service) userCommand(ctx context.Context, op, actor, name string, typ EventType, data func(id string) any) error {
	_, err := s.run(ctx, op, actor, func(tx Tx) (decision, error) {
		id, err := userRef(tx, name)
		if err == nil || IsCode(err, CodeNotFound) {
			if serr := checkShownUser(ctx, tx, name, id); serr != nil {
				err = serr
			}
		}
		if err != nil {
			return decision{}, err
		}
		return decision{typ: typ, data: data(id)}, nil
	})
	return err
}

// SetRole changes another user's role, within the rules: only roles below the
// actor's own, only for users ranked below the actor, never their own.
func (s *Service) SetRole(ctx context.Context, actor, name string, role Role) error {
	return s.userCommand(ctx, "change role of "+name, actor, name, EvUserRoleChanged, func(id string) any {
		return userRoleChanged{Name: name, Role: role.String(), UserID: id}
	})
}

// TransferOwnership makes another user the OWNER; the old owner becomes an
// AUDITOR.
func (s *Service) TransferOwnership(ctx context.Context, actor, to string) error {
	return s.userCommand(ctx, "transfer ownership to "+to, actor, to, EvOwnershipTransferred, func(id string) any {
		return ownershipTransferred{To: to, UserID: id}
	})
}

// RemoveUser removes a user: oneself, or a user below an actor with
// MANAGE_USERS. The OWNER cannot be removed.
func (s *Service) RemoveUser(ctx context.Context, actor, name string) error {
	return s.userCommand(ctx, "remove user "+name, actor, name, EvUserRemoved, func(id string) any {
		return userNamed{Name: name, UserID: id}
	})
}

// ChangePassword sets a new password (and with it a new signing key) for
// oneself or a user one manages.
func (s *Service) ChangePassword(ctx context.Context, actor, name, password string) error {
	if err := CheckPassword(password); err != nil {
		return err
	}
	pk, err := NewPasswordKey(password)
	if err != nil {
		return err
	}
	var id string
	err = s.userCommand(ctx, "change password of "+name, actor, name, EvUserPasswordChanged, func(uid string) any {
		id = uid
		return userPasswordChanged{Name: name, PasswordHash: pk.Hash, UserID: uid, PublicKey: pk.PublicKey()}
	})
	if err != nil {
		return err
	}
	if _, held := s.keys.key(id); held {
		s.keys.Add(id, pk.Key)
	}
	return nil
}

// RenameUser changes a user's name.
func (s *Service) RenameUser(ctx context.Context, actor, name, newName string) error {
	newName, err := CleanName("user name", newName)
	if err != nil {
		return err
	}
	return s.userCommand(ctx, "rename user "+name, actor, name, EvUserNameChanged, func(id string) any {
		return userNameChanged{Name: name, NewName: newName, UserID: id}
	})
}

// ChangeEmail changes a user's email.
func (s *Service) ChangeEmail(ctx context.Context, actor, name, email string) error {
	email, err := CleanEmail(email)
	if err != nil {
		return err
	}
	return s.userCommand(ctx, "change email of "+name, actor, name, EvUserEmailChanged, func(id string) any {
		return userEmailChanged{Name: name, Email: email, UserID: id}
	})
}
