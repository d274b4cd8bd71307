package dataio_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"votedesk/app"
	"votedesk/localstore"

	"votedesk/app/apptest"
)

// shared is the project's shared test data, read in place.
var shared = apptest.SharedTestdata()

// The users of the template database; each has password pw(name).
const (
	owner    = "olga"  // OWNER
	auditor  = "audra" // AUDITOR
	clerk    = "carl"  // USER
	observer = "otto"  // OBSERVER
)

func pw(name string) string { return "pw-" + name + "-secret" }

// template is, built once per test run, a database holding the four users.
var template = apptest.NewTemplate("dataio", func(path string) error {
	st, err := localstore.Open(path)
	if err != nil {
		return err
	}
	defer st.Close()
	svc := app.NewService(st, nil, nil)
	ctx := context.Background()
	steps := []func() error{
		func() error { return svc.RegisterUser(ctx, "", owner, owner+"@example.org", pw(owner)) },
	}
	for name, role := range map[string]app.Role{auditor: app.RoleAuditor, clerk: app.RoleUser, observer: app.RoleObserver} {
		steps = append(steps,
			func() error { return svc.RegisterUser(ctx, owner, name, name+"@example.org", pw(name)) },
			func() error {
				if role == app.RoleUser {
					return nil
				}
				return svc.SetRole(ctx, owner, name, role)
			})
	}
	for i, step := range steps {
		if err := step(); err != nil {
			return fmt.Errorf("template step %d: %w", i, err)
		}
	}
	return nil
})

// env is a service over a copy of the template database.
type env struct {
	t     testing.TB
	ctx   context.Context
	svc   *app.Service
	store *localstore.Store
	path  string
}

func newEnv(t testing.TB) *env {
	t.Helper()
	path := template.Copy(t)
	st, err := localstore.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return &env{t: t, ctx: context.Background(), svc: app.NewService(st, nil, nil), store: st, path: path}
}

func (e *env) must(err error) {
	e.t.Helper()
	if err != nil {
		e.t.Fatal(err)
	}
}

// election creates a draft election owned by the clerk with candidates.
func (e *env) election(name string, secret bool, candidates ...string) {
	e.t.Helper()
	e.must(e.svc.CreateElection(e.ctx, clerk, name, "", secret))
	e.must(e.svc.AddCandidates(e.ctx, clerk, name, candidates...))
}

// logLength is the number of events in the log.
func (e *env) logLength() int {
	e.t.Helper()
	n := 0
	e.must(e.svc.Log(e.ctx, owner, 1, func(*app.Event) error { n++; return nil }))
	return n
}

// writeAt writes a test file at path.
func writeAt(t testing.TB, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

// writeFile writes a test file and returns its path.
func writeFile(t testing.TB, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}
