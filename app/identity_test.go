package app_test

import (
	"strings"
	"testing"
	"time"

	"golang.org/x/text/unicode/norm"

	"votedesk/app"
)

// Identity is the account, not the spelling of its name (issue 20).

func TestRenameCannotCastAsAnotherVoter(t *testing.T) {
	e := newEnv(t)
	// The VOTER "voter" is linked to the poll-book entry "voter". Taking a
	// poll-book voter's name does not make it that voter.
	if err := e.svc.RenameUser(e.ctx, "voter", "voter", "v1"); err == nil {
		if err := cast(e, "v1", "Open", "v1", "A"); err == nil {
			t.Fatal("a VOTER renamed to v1 cast v1's ballot")
		}
		e.must(e.svc.RenameUser(e.ctx, "v1", "v1", "voter"))
	}
	for _, v := range []string{"v1", "v2", "v3"} {
		if err := cast(e, "voter", "Open", v, "A"); err == nil {
			t.Errorf("the VOTER cast %s's ballot", v)
		}
	}
	if err := cast(e, "voter", "Open", "voter", "B"); err != nil {
		t.Errorf("the VOTER cannot cast their own ballot: %v", err)
	}
}

func TestRenameCannotTakeAnEmail(t *testing.T) {
	e := newEnv(t)
	if err := e.svc.RenameUser(e.ctx, "observer", "observer", "auditor@example.org"); err == nil {
		t.Fatal("a user took another account's email as their name")
	}
	if _, err := e.svc.SignIn(e.ctx, "auditor@example.org", pw("auditor")); err != nil {
		t.Errorf("the auditor cannot sign in by email: %v", err)
	}
}

func TestNameReuseInheritsNothing(t *testing.T) {
	e := newEnv(t)
	// "user" manages Draft, Open and Secret. Rename it, and give a new
	// account the old name.
	e.must(e.svc.RenameUser(e.ctx, "owner", "user", "user-renamed"))
	e.must(e.svc.RegisterUser(e.ctx, "owner", "user", "newcomer@example.org", "password-newcomer"))
	desc := "changed by whoever holds the name"
	if err := e.svc.UpdateElection(e.ctx, "user", "Draft", 0, app.ElectionChanges{Description: &desc}); err == nil {
		t.Error("the newcomer who took the name edits the old holder's election")
	}
	if err := e.svc.UpdateElection(e.ctx, "user-renamed", "Draft", 0, app.ElectionChanges{Description: &desc}); err != nil {
		t.Errorf("the renamed owner lost their election: %v", err)
	}
	// Remove an account and re-add its name: the role does not come back.
	e.must(e.svc.RemoveUser(e.ctx, "owner", "auditor"))
	e.must(e.svc.RegisterUser(e.ctx, "owner", "auditor", "auditor2@example.org", "password-auditor2"))
	u, err := e.svc.User(e.ctx, "owner", "auditor")
	e.must(err)
	if u.Role == app.RoleAuditor {
		t.Error("a new account named like a removed AUDITOR is an AUDITOR")
	}
}

func TestNamesAreNormalized(t *testing.T) {
	e := newEnv(t)
	nfc, nfd := norm.NFC.String("José"), norm.NFD.String("José")
	if nfc == nfd {
		t.Fatal("test data: NFC and NFD forms are equal")
	}
	e.must(e.svc.AddVoters(e.ctx, "user", "Draft", app.VoterEntry{Name: nfc}))
	err := e.svc.AddVoters(e.ctx, "user", "Draft", app.VoterEntry{Name: nfd})
	voters, _ := e.svc.Voters(e.ctx, "user", "Draft")
	n := 0
	for _, v := range voters {
		if norm.NFC.String(v.Name) == nfc {
			n++
		}
	}
	if n != 1 {
		t.Errorf("José in NFC and NFD are %d poll-book voters (add: %v)", n, err)
	}
	for _, bad := range []string{"Al\u200bice", "u\u200bser", "bob\u202e", "\u2066eve"} {
		if err := e.svc.AddVoters(e.ctx, "user", "Draft", app.VoterEntry{Name: bad}); err == nil {
			t.Errorf("voter name %q with an invisible or bidi character accepted", bad)
		}
		if err := e.svc.RegisterUser(e.ctx, "owner", bad, "x@example.org", "password-x-long"); err == nil {
			t.Errorf("user name %q with an invisible or bidi character accepted", bad)
		}
	}
}

func TestDeletedSecretElectionStaysSecret(t *testing.T) {
	e := newEnv(t)
	e.must(e.svc.CreateElection(e.ctx, "user", "S", "", true))
	e.must(e.svc.AddCandidates(e.ctx, "user", "S", "A", "B"))
	e.must(e.svc.AddVoters(e.ctx, "user", "S", app.VoterEntry{Name: "p1"}))
	e.must(e.svc.LaunchElection(e.ctx, "user", "S"))
	rc, err := e.svc.CastBallot(e.ctx, "user", app.Cast{Election: "S", Voter: "p1", Rankings: rank("B", "A")})
	e.must(err)
	e.must(e.svc.CloseElection(e.ctx, "owner", "S"))
	e.must(e.svc.FinalizeElection(e.ctx, "owner", "S"))
	e.clock.Set(e.clock.Now().Add(24 * 31 * 24 * time.Hour)) // past the retention period
	e.must(e.svc.DeleteElection(e.ctx, "owner", "S"))
	e.must(e.svc.CreateElection(e.ctx, "user", "S", "open this time", false))
	var leaked []string
	e.must(e.svc.Log(e.ctx, "observer", 0, func(ev *app.Event) error {
		shown := string(ev.Display())
		if ev.Type == app.EvBallotCast && (strings.Contains(shown, rc.Confirmation) || strings.Contains(shown, `"B"`) || len(ev.Sealed) > 0) {
			leaked = append(leaked, shown)
		}
		return nil
	}))
	if len(leaked) > 0 {
		t.Errorf("after a secret election was deleted and its name reused by an open one, an OBSERVER reads its ballots: %v", leaked)
	}
}

func TestConflictDetailNamesNoCode(t *testing.T) {
	e := newEnv(t)
	duplicateBallot(e)
	for _, role := range []app.Role{app.RoleObserver, app.RoleUser} {
		cs, err := e.svc.Conflicts(e.ctx, roleUsers[role], "Open")
		e.must(err)
		for _, c := range cs {
			if strings.Contains(c.Detail, "11111111-2222") || strings.Contains(c.Detail, "confirmation") {
				t.Errorf("%s reads a conflict detail with a confirmation code: %q", role, c.Detail)
			}
		}
	}
}
