package app

import "time"

// User is someone who signs in to VoteDesk.
type User struct {
	Name         string
	Email        string
	Role         Role
	PasswordHash string
	Created      time.Time
}

func (u User) item() Item {
	it := newItem(userPK(u.Name), skMetadata, "USER")
	it.Set("name", S(u.Name))
	it.Set("email", S(u.Email))
	it.Set("role", S(u.Role.String()))
	it.Set("password_hash", S(u.PasswordHash))
	it.setTime("created", u.Created)
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
		Name:         it.Str("name"),
		Email:        it.Str("email"),
		Role:         r,
		PasswordHash: it.Str("password_hash"),
		Created:      it.TimeAttr("created"),
	}
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

// userByEmail looks a user up through GSI-1.
func userByEmail(tx Tx, email string) (User, bool, error) {
	it, ok, err := tx.ByGSI1(email)
	if err != nil || !ok {
		return User{}, ok, err
	}
	return userFromItem(it), true, nil
}
