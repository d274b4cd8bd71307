package app_test

import (
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"votedesk/app"
	"votedesk/tally"
)

// TestShownElection: a screen that shows an election and then acts on it
// by name acts on that election only while the name is still its. Another
// official (or a sync: the rules give an election made offline under a
// taken name a provisional one) renames the election shown and gives its
// name to another; every command and query the screens make is then
// refused, naming the new name, and changes nothing. The command line,
// which shows nothing first, still goes by the name.
func TestShownElection(t *testing.T) {
	e := newEnv(t)
	draft, err := e.svc.Election(e.ctx, "user", "Draft")
	e.must(err)
	shown := app.ForElection(e.ctx, "Draft", draft.ID)
	e.must(e.svc.AddCandidates(shown, "user", "Draft", "D")) // while the name is its

	e.must(e.svc.RenameElection(e.ctx, "user", "Draft", "Draft (county)"))
	e.must(e.svc.CreateElection(e.ctx, "user", "Draft", "made with the freed name", false))
	other, err := e.svc.Election(e.ctx, "user", "Draft")
	e.must(err)
	e.must(e.svc.AddCandidates(e.ctx, "user", "Draft", "X", "Y")) // the command line: by name

	before := e.snapshot()
	calls := map[string]func() error{
		"show":              func() error { _, err := e.svc.Election(shown, "user", "Draft"); return err },
		"list candidates":   func() error { _, err := e.svc.Candidates(shown, "user", "Draft"); return err },
		"list voters":       func() error { _, err := e.svc.Voters(shown, "user", "Draft"); return err },
		"list ballots":      func() error { _, err := e.svc.Ballots(shown, "user", "Draft"); return err },
		"add candidates":    func() error { return e.svc.AddCandidates(shown, "user", "Draft", "E") },
		"remove candidates": func() error { return e.svc.RemoveCandidates(shown, "user", "Draft", "X") },
		"add voters": func() error {
			return e.svc.AddVoters(shown, "user", "Draft", app.VoterEntry{Name: "v9"})
		},
		"update": func() error {
			return e.svc.UpdateElection(shown, "user", "Draft", 0, app.ElectionChanges{Description: ptr("changed")})
		},
		"launch": func() error { return e.svc.LaunchElection(shown, "user", "Draft") },
		"delete": func() error { return e.svc.DeleteElection(shown, "user", "Draft") },
		"import": func() error {
			_, err := e.svc.ImportBallots(shown, "user", "Draft", "cvr.csv", []app.ImportedBallot{{SourceID: "1", Rankings: rank("X")}}, nil)
			return err
		},
		"count": func() error {
			_, err := e.svc.Count(shown, "user", "Draft", tally.IRV, tally.DefaultRules())
			return err
		},
	}
	for what, call := range calls {
		err := call()
		if !app.IsCode(err, app.CodeConflict) || !strings.Contains(app.ErrorMessage(err), `now called "Draft (county)"`) {
			t.Errorf("%s, the name now another election's: %v", what, err)
		}
	}
	if after := e.snapshot(); after != before {
		t.Errorf("a refused call changed the database")
	}
	// Pinned to the other election, the same calls reach it.
	if _, err := e.svc.Candidates(app.ForElection(e.ctx, "Draft", other.ID), "user", "Draft"); err != nil {
		t.Errorf("the election that has the name now: %v", err)
	}

	// Deleted, and the name nobody's: said so.
	e.must(e.svc.DeleteElection(e.ctx, "user", "Draft (county)"))
	gone := app.ForElection(e.ctx, "Draft (county)", draft.ID)
	if _, err := e.svc.Election(gone, "user", "Draft (county)"); !app.IsCode(err, app.CodeNotFound) || !errors.Is(err, app.ErrElectionGone) || !strings.Contains(app.ErrorMessage(err), "was deleted") {
		t.Errorf("the election shown was deleted: %v", err)
	}
}

func ptr[T any](v T) *T { return &v }

// TestShownUser: a role granted from the users list goes to the person
// listed or to nobody. A sync renames "bob" and another "bob" registers;
// making "bob" an ADMIN from the list shown before is refused, naming the
// new name, and changes nobody's role. The command line goes by the name.
func TestShownUser(t *testing.T) {
	e := newEnv(t)
	e.must(e.svc.RegisterUser(e.ctx, "owner", "bob", "bob@example.org", "password-bob-1"))
	bob, err := e.svc.User(e.ctx, "owner", "bob")
	e.must(err)
	listed := app.ForUser(e.ctx, "bob", bob.ID)

	e.must(e.svc.RenameUser(e.ctx, "owner", "bob", "robert"))
	e.must(e.svc.RegisterUser(e.ctx, "owner", "bob", "another-bob@example.org", "password-bob-2"))
	before := e.snapshot()
	for what, call := range map[string]func() error{
		"set role": func() error { return e.svc.SetRole(listed, "owner", "bob", app.RoleAdmin) },
		"remove":   func() error { return e.svc.RemoveUser(listed, "owner", "bob") },
		"transfer": func() error { return e.svc.TransferOwnership(listed, "owner", "bob") },
	} {
		if err := call(); !app.IsCode(err, app.CodeConflict) || !strings.Contains(app.ErrorMessage(err), `now called "robert"`) {
			t.Errorf("%s, the name now another account's: %v", what, err)
		}
	}
	if e.snapshot() != before {
		t.Error("a refused command changed the database")
	}
	for _, name := range []string{"bob", "robert"} {
		if u, err := e.svc.User(e.ctx, "owner", name); err != nil || u.Role == app.RoleAdmin {
			t.Errorf("%s: role %v (%v)", name, u.Role, err)
		}
	}
	e.must(e.svc.SetRole(e.ctx, "owner", "bob", app.RoleAdmin)) // the command line: by name

	e.must(e.svc.RemoveUser(e.ctx, "owner", "robert"))
	if err := e.svc.SetRole(app.ForUser(e.ctx, "robert", bob.ID), "owner", "robert", app.RoleObserver); !app.IsCode(err, app.CodeNotFound) || !strings.Contains(app.ErrorMessage(err), "was removed") {
		t.Errorf("the user listed was removed: %v", err)
	}
}

// TestHeldCommandsLandOnlyWhereShown: a random run of renames, new
// elections under freed names and deletions (what syncs and other
// officials do), with commands held to elections as they were seen at
// random earlier moments. A held command lands on the election it was held
// to or nowhere, and is refused only when that election's name has moved.
func TestHeldCommandsLandOnlyWhereShown(t *testing.T) {
	e := newEnv(t)
	rng := rand.New(rand.NewPCG(43, 7))
	pool := []string{"North", "South", "East", "West", "Centre"}
	for _, n := range pool[:2] {
		e.must(e.svc.CreateElection(e.ctx, "user", n, "", false))
	}
	ours := func() map[string]app.Election { // by name, the elections this test made
		all, err := e.svc.Elections(e.ctx, "user")
		e.must(err)
		m := map[string]app.Election{}
		for _, el := range all {
			if slices.Contains(pool, el.Name) {
				m[el.Name] = el
			}
		}
		return m
	}
	type seen struct{ name, id string }
	var shown []seen
	landed, refused := 0, 0
	for step := range 400 {
		now := ours()
		var free []string
		for _, n := range pool {
			if _, ok := now[n]; !ok {
				free = append(free, n)
			}
		}
		names := slices.Sorted(maps.Keys(now))
		switch x := rng.IntN(10); {
		case x < 3 && len(names) > 0: // a screen shows an election
			el := now[names[rng.IntN(len(names))]]
			shown = append(shown, seen{el.Name, el.ID})
		case x < 5 && len(names) > 0 && len(free) > 0: // renamed
			e.must(e.svc.RenameElection(e.ctx, "user", names[rng.IntN(len(names))], free[rng.IntN(len(free))]))
		case x < 6 && len(free) > 0: // made under a free name
			e.must(e.svc.CreateElection(e.ctx, "user", free[rng.IntN(len(free))], "", false))
		case x < 7 && len(names) > 1: // deleted
			e.must(e.svc.DeleteElection(e.ctx, "user", names[rng.IntN(len(names))]))
		case len(shown) > 0: // a command from a screen shown earlier
			s := shown[rng.IntN(len(shown))]
			if rng.IntN(2) == 0 { // just shown, more often than not still right
				s = shown[len(shown)-1]
			}
			cand := fmt.Sprintf("K%d", step)
			err := e.svc.AddCandidates(app.ForElection(e.ctx, s.name, s.id), "user", s.name, cand)
			var holders []string
			for _, el := range ours() {
				cs, cerr := e.svc.Candidates(e.ctx, "user", el.Name)
				e.must(cerr)
				if slices.ContainsFunc(cs, func(c app.Candidate) bool { return c.Name == cand }) {
					holders = append(holders, el.ID)
				}
			}
			still := now[s.name].ID == s.id
			switch {
			case err == nil && (len(holders) != 1 || holders[0] != s.id):
				t.Fatalf("step %d: a command held to %s (%q) landed on %v", step, s.id, s.name, holders)
			case err != nil && len(holders) != 0:
				t.Fatalf("step %d: a refused command left %s on %v", step, cand, holders)
			case err != nil && still:
				t.Fatalf("step %d: refused though %q is still the election shown: %v", step, s.name, err)
			case err == nil && !still:
				t.Fatalf("step %d: carried out though %q is no longer the election shown", step, s.name)
			case err == nil:
				landed++
			default:
				refused++
			}
		}
	}
	t.Logf("%d carried out, %d refused", landed, refused)
	if landed < 10 || refused < 10 {
		t.Errorf("the run tried too little: %d commands carried out, %d refused", landed, refused)
	}
}
