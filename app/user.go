package app

import (
	"strings"
	"time"
)

// User is someone who signs in to VoteDesk. ID is the account's identity,
// which never changes: permissions, ownership of elections, the log's actors
// and the link between a VOTER and their poll-book entry refer to it, never
// to the name, so nobody inherits anything by taking a name. Name and Email
// are how the account signs in and is shown. PublicKey is the account's
// signing key (empty for an account made before events were signed, until
// its first sign-in).
type User struct {
	ID           string
	Name         string
	Email        string
	Role         Role
	PasswordHash string
	PublicKey    string
	Created      time.Time
}

// The items of an account: USER#{name}/METADATA is the user as the seed
// design keys it (GSI-1 on email); ACCOUNT#{id}/METADATA names the account's
// current name, and stays, marked removed, when the user is removed;
// USERNAME#{name key}/METADATA holds the account that uses a name, by
// NameKey, so that names are unique as the domain compares them.
const (
	prefixAccount  = "ACCOUNT#"
	prefixUserName = "USERNAME#"
)

func accountPK(id string) string         { return prefixAccount + id }
func userNamePK(name string) string      { return prefixUserName + NameKey(name) }
func legacyUserID(eventID string) string { return "legacy:" + eventID }

func (u User) item() Item {
	it := newItem(userPK(u.Name), skMetadata, "USER")
	it.Set("name", S(u.Name))
	it.Set("email", S(u.Email))
	it.Set("role", S(u.Role.String()))
	it.Set("password_hash", S(u.PasswordHash))
	it.setTime("created", u.Created)
	it.Set("user_id", S(u.ID))
	if u.PublicKey != "" {
		it.Set("public_key", S(u.PublicKey))
	}
	it.Set(AttrGSI1PK, S(u.Email))
	it.Set(AttrGSI1SK, S(userPK(u.Name)))
	return it
}

func userFromItem(it Item) User {
	r, err := ParseRole(it.Str("role"))
	if err != nil {
		r = RoleNoAccess
	}
	return User{
		ID:           it.Str("user_id"),
		Name:         it.Str("name"),
		Email:        it.Str("email"),
		Role:         r,
		PasswordHash: it.Str("password_hash"),
		PublicKey:    it.Str("public_key"),
		Created:      it.TimeAttr("created"),
	}
}

// putUser writes a user's items: the user, its account and its name.
func putUser(tx Tx, u User) error {
	if err := tx.Put(u.item()); err != nil {
		return err
	}
	acc := newItem(accountPK(u.ID), skMetadata, "ACCOUNT")
	acc.Set("user_id", S(u.ID))
	acc.Set("name", S(u.Name))
	if err := tx.Put(acc); err != nil {
		return err
	}
	n := newItem(userNamePK(u.Name), skMetadata, "USERNAME")
	n.Set("user_id", S(u.ID))
	n.Set("name", S(u.Name))
	return tx.Put(n)
}

// retireKey remembers that account id signed with key until when: a
// password change gives the account a new key, and removing it ends its
// last. An event signed with a retired key is the account's, made by a
// device that had not heard of the change (formerKey).
func retireKey(tx Tx, id, key string, when time.Time) error {
	if key == "" {
		return nil
	}
	it := newItem(accountPK(id), prefixFormerKey+key, "FORMERKEY")
	it.Set("retired", Time(when))
	return tx.Put(it)
}

// formerKey reports whether account id once signed with key.
func formerKey(tx Tx, id, key string) (bool, error) {
	if id == "" || key == "" {
		return false, nil
	}
	_, ok, err := tx.Get(accountPK(id), prefixFormerKey+key)
	return ok, err
}

// prefixFormerKey begins the sort key of a key an account no longer signs
// with, under the account's partition.
const prefixFormerKey = "FORMERKEY#"

// dropUser removes a user's sign-in items (the user and its name); the
// account stays, marked removed, so its history keeps naming it.
func dropUser(tx Tx, u User, when time.Time) error {
	if err := retireKey(tx, u.ID, u.PublicKey, when); err != nil {
		return err
	}
	if err := tx.Delete(userPK(u.Name), skMetadata); err != nil {
		return err
	}
	if err := dropUserName(tx, u); err != nil {
		return err
	}
	acc := newItem(accountPK(u.ID), skMetadata, "ACCOUNT")
	acc.Set("user_id", S(u.ID))
	acc.Set("name", S(u.Name))
	acc.Set("removed", Bool(true))
	acc.Set("removed_when", Time(when))
	return tx.Put(acc)
}

// dropUserName frees the name u holds, if the name item is u's.
func dropUserName(tx Tx, u User) error {
	it, ok, err := tx.Get(userNamePK(u.Name), skMetadata)
	if err != nil || !ok || it.Str("user_id") != u.ID {
		return err
	}
	return tx.Delete(userNamePK(u.Name), skMetadata)
}

// getUser loads a user by name.
func getUser(tx Tx, name string) (User, bool, error) {
	it, ok, err := tx.Get(userPK(name), skMetadata)
	if err != nil || !ok {
		return User{}, ok, err
	}
	return userFromItem(it), true, nil
}

// mustUser loads a user by name or fails with "not found".
func mustUser(tx Tx, name string) (User, error) {
	u, ok, err := getUser(tx, name)
	if err != nil {
		return User{}, err
	}
	if !ok {
		return User{}, Errorf(CodeNotFound, "no user named %q", name)
	}
	return u, nil
}

// Account is what the log knows of an account, also after it was removed.
type Account struct {
	ID      string
	Name    string
	Removed bool
}

// getAccount loads an account by id.
func getAccount(tx Tx, id string) (Account, bool, error) {
	if id == "" {
		return Account{}, false, nil
	}
	it, ok, err := tx.Get(accountPK(id), skMetadata)
	if err != nil || !ok {
		return Account{}, ok, err
	}
	return Account{ID: id, Name: it.Str("name"), Removed: it.Flag("removed")}, true, nil
}

// userByID loads the user an account id names, if it has not been removed.
func userByID(tx Tx, id string) (User, bool, error) {
	acc, ok, err := getAccount(tx, id)
	if err != nil || !ok || acc.Removed {
		return User{}, false, err
	}
	u, ok, err := getUser(tx, acc.Name)
	if err != nil || !ok || u.ID != id {
		return User{}, false, err
	}
	return u, true, nil
}

// userByNameKey loads the user whose name is name as the domain compares
// names (letter case and spaces aside).
func userByNameKey(tx Tx, name string) (User, bool, error) {
	it, ok, err := tx.Get(userNamePK(name), skMetadata)
	if err != nil || !ok {
		return User{}, ok, err
	}
	return userByID(tx, it.Str("user_id"))
}

// userByEmail looks a user up through GSI-1.
func userByEmail(tx Tx, email string) (User, bool, error) {
	it, ok, err := tx.ByGSI1(email)
	if err != nil || !ok {
		return User{}, ok, err
	}
	return userFromItem(it), true, nil
}

// findLogin finds the account a sign-in names: a login with '@' is an email
// first (then a name, for accounts named so before names could not hold
// '@'); any other login is a name, exactly or as the domain compares names.
func findLogin(tx Tx, login string) (User, bool, error) {
	login = strings.TrimSpace(login)
	if strings.Contains(login, "@") {
		if email, err := CleanEmail(login); err == nil {
			if u, ok, err := userByEmail(tx, email); err != nil || ok {
				return u, ok, err
			}
		}
	}
	if u, ok, err := getUser(tx, login); err != nil || ok {
		return u, ok, err
	}
	if n, err := CleanName("name", login); err == nil {
		return userByNameKey(tx, n)
	}
	return User{}, false, nil
}
