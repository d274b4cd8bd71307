package app_test

import (
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
	if _, err := e.svc.Election(gone, "user", "Draft (county)"); !app.IsCode(err, app.CodeNotFound) || !strings.Contains(app.ErrorMessage(err), "was deleted") {
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
