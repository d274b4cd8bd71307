package app_test

import (
	"context"
	"crypto/ed25519"
	"fmt"
	"testing"
	"time"

	"votedesk/app"
	"votedesk/app/apptest"
	"votedesk/localstore"
)

var start = time.Date(2026, 11, 3, 7, 0, 0, 0, time.UTC)

// The users of the template database, one per role, each with password
// "pw-" + name.
var roleUsers = map[app.Role]string{
	app.RoleOwner:    "owner",
	app.RoleAuditor:  "auditor",
	app.RoleAdmin:    "admin",
	app.RoleUser:     "user",
	app.RoleVoter:    "voter",
	app.RoleObserver: "observer",
	app.RoleNoAccess: "noaccess",
}

func pw(name string) string { return "pw-" + name + "-secret" }

// template is, built once per test run, a database holding a user for every
// role (and "other", a second USER who owns nothing) and three elections:
// "Draft" (candidates A, B, C; voters v1-v3 and "voter"), "Open" (the same,
// launched) and "Secret" (the same, launched, secret ballot).
var template = apptest.NewTemplate("app", buildTemplate)

func buildTemplate(path string) error {
	st, err := localstore.Open(path)
	if err != nil {
		return err
	}
	defer st.Close()
	clock := apptest.NewClock(start, time.Millisecond)
	svc := app.NewService(st, clock, &apptest.SeqIDs{})
	ctx := context.Background()
	steps := []func() error{
		func() error { return svc.RegisterUser(ctx, "", "owner", "owner@example.org", pw("owner")) },
	}
	steps = append(steps, func() error { return svc.RegisterUser(ctx, "owner", "other", "other@example.org", pw("other")) })
	for _, r := range []app.Role{app.RoleAuditor, app.RoleAdmin, app.RoleUser, app.RoleVoter, app.RoleObserver, app.RoleNoAccess} {
		name := roleUsers[r]
		steps = append(steps,
			func() error { return svc.RegisterUser(ctx, "owner", name, name+"@example.org", pw(name)) },
			func() error {
				if r == app.RoleUser {
					return nil
				}
				return svc.SetRole(ctx, "owner", name, r)
			})
	}
	for _, e := range []struct {
		name           string
		secret, launch bool
	}{{"Draft", false, false}, {"Open", false, true}, {"Secret", true, true}} {
		steps = append(steps,
			func() error { return svc.CreateElection(ctx, "user", e.name, "a test election", e.secret) },
			func() error { return svc.AddCandidates(ctx, "user", e.name, "A", "B", "C") },
			func() error {
				return svc.AddVoters(ctx, "user", e.name, app.VoterEntry{Name: "v1"}, app.VoterEntry{Name: "v2"},
					app.VoterEntry{Name: "v3", Email: "v3@example.org"}, app.VoterEntry{Name: "voter"})
			},
			func() error { return svc.LinkVoter(ctx, "user", e.name, "voter", "voter") },
			func() error {
				if !e.launch {
					return nil
				}
				return svc.LaunchElection(ctx, "user", e.name)
			})
	}
	for i, step := range steps {
		if err := step(); err != nil {
			return fmt.Errorf("template step %d: %w", i, err)
		}
	}
	return nil
}

// env is one test's own copy of the template database.
type env struct {
	t     testing.TB
	store *localstore.Store
	svc   *app.Service
	clock *apptest.Clock
	ctx   context.Context
	// forged: the test records what verify must refuse.
	forged bool
}

// newEnv copies the template into t.TempDir() and opens it.
func newEnv(t testing.TB) *env {
	t.Helper()
	st, err := localstore.Open(template.Copy(t))
	if err != nil {
		t.Fatalf("open copy of template: %v", err)
	}
	clock := apptest.NewClock(start.Add(time.Hour), time.Millisecond)
	e := &env{t: t, store: st, svc: app.NewService(st, clock, &apptest.SeqIDs{Next: 1000}), clock: clock, ctx: context.Background()}
	t.Cleanup(func() {
		// As bbolt's test helper checks its file after every test (unless
		// the test forged something verify is meant to catch).
		if r, err := st.Verify(context.Background()); err == nil && !r.OK() && !e.forged {
			t.Errorf("the database does not verify after the test: %v", r.Problems)
		}
		st.Close()
	})
	return e
}

// snapshot is what a refused command must leave untouched.
type snapshot struct {
	state string
	head  uint64
	hash  string
}

func (e *env) snapshot() snapshot {
	e.t.Helper()
	h, err := e.store.StateHash(e.ctx)
	if err != nil {
		e.t.Fatal(err)
	}
	var s snapshot
	s.state = h
	err = e.store.View(e.ctx, func(tx app.Tx) error {
		var err error
		s.head, s.hash, err = tx.Head()
		return err
	})
	if err != nil {
		e.t.Fatal(err)
	}
	return s
}

// launched makes, as "user", an election named name with candidates and a
// poll book of n voters named format with their number (0, 1, ...), and
// launches it; it returns the voters.
func (e *env) launched(name string, secret bool, candidates []string, format string, n int) []app.VoterEntry {
	e.must(e.svc.CreateElection(e.ctx, "user", name, "", secret))
	e.must(e.svc.AddCandidates(e.ctx, "user", name, candidates...))
	voters := make([]app.VoterEntry, n)
	for i := range voters {
		voters[i] = app.VoterEntry{Name: fmt.Sprintf(format, i)}
	}
	e.must(e.svc.AddVoters(e.ctx, "user", name, voters...))
	e.must(e.svc.LaunchElection(e.ctx, "user", name))
	return voters
}

func (e *env) must(err error) {
	e.t.Helper()
	if err != nil {
		e.t.Fatalf("unexpected error: %v", err)
	}
}

// foreignEvent applies, as if it arrived by sync from another device, an
// event of the given type and data made by actor (signed with their key,
// from the keyring of this test process).
func (e *env) foreignEvent(actor string, typ app.EventType, data map[string]any) (refusal error) {
	e.t.Helper()
	return e.foreignEventAt(e.clock.Now(), int(e.clock.Now().UnixNano()%1e9), actor, typ, data)
}

// foreignEventAt is foreignEvent at a given time and device sequence.
func (e *env) foreignEventAt(when time.Time, seq int, actor string, typ app.EventType, data map[string]any) (refusal error) {
	e.t.Helper()
	u, err := e.svc.User(e.ctx, "owner", actor)
	e.must(err)
	key, ok := app.DefaultKeyring.Key(u.ID)
	if !ok {
		e.t.Fatalf("no key for %s", actor)
	}
	ev, err := app.MakeEvent(app.EventSpec{Type: typ, Data: data, When: when, Actor: u, ActorKey: key, Device: otherDevice, DeviceSeq: seq})
	e.must(err)
	e.must(e.store.Update(e.ctx, func(tx app.Tx) error {
		if err := tx.AppendEvent(ev); err != nil {
			return err
		}
		refusal, err = app.Replay(tx, ev)
		return err
	}))
	return refusal
}

// otherDevice is the key of the device foreignEvent plays.
var otherDevice = ed25519.NewKeyFromSeed(make([]byte, ed25519.SeedSize))

func rank(names ...string) []app.Ranking {
	out := make([]app.Ranking, len(names))
	for i, n := range names {
		out[i] = app.Ranking{Candidate: n, Rank: i + 1}
	}
	return out
}
