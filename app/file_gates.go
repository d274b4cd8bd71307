package app

import "context"

// The gates of the operations on whole database files, shared by the
// desktop app, the command line and the control socket: one rule each.

// AuthorizeBackup signs a user in for a backup. A backup holds every
// secret ballot and every password verifier, so it takes VIEW_SECRETS
// (AUDITOR and OWNER).
func (s *Service) AuthorizeBackup(ctx context.Context, login, password string) (User, error) {
	u, err := s.SignIn(ctx, login, password)
	if err != nil {
		return User{}, err
	}
	if !u.Role.Has(PermViewSecrets) {
		return User{}, Errorf(CodeForbidden, "%s may not back up the database: a backup holds every secret ballot and password verifier, so it takes an AUDITOR or the OWNER", u.Name)
	}
	return u, nil
}

// AuthorizeRestore signs a user in for a restore, which replaces every
// record of the installation: the OWNER only.
func (s *Service) AuthorizeRestore(ctx context.Context, login, password string) (User, error) {
	u, err := s.SignIn(ctx, login, password)
	if err != nil {
		return User{}, err
	}
	if u.Role != RoleOwner {
		return User{}, Errorf(CodeForbidden, "%s may not restore the database: a restore replaces every record, so only the OWNER may", u.Name)
	}
	return u, nil
}
