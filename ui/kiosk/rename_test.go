package kiosk

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"votedesk/app"
	"votedesk/app/apptest"
	"votedesk/localstore"
)

// TestKioskFollowsItsElection: while a kiosk takes ballots for Mayor, a
// sync renames Mayor and gives its name to another election (as the rules
// do by themselves to an election two laptops made offline under one
// name). The kiosk's voters go on voting in the election it was started
// for, under its new name, which the kiosk then shows; nothing goes to the
// other election.
func TestKioskFollowsItsElection(t *testing.T) {
	h := newHarness(t, "Mayor")
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	h.vote("Ann Lee", "1")
	h.k.nextVoter()
	h.settle()

	must(h.svc.RenameElection(h.ctx, official, "Mayor", "Mayor (laptop 2)"))
	must(h.svc.CreateElection(h.ctx, official, "Mayor", "made on the other laptop", false))
	must(h.svc.AddCandidates(h.ctx, official, "Mayor", "Kiss", "Wright", "Montroll", "Smith"))
	must(h.svc.AddVoters(h.ctx, official, "Mayor", pollBook(20)...))
	must(h.svc.LaunchElection(h.ctx, official, "Mayor"))

	h.vote("Bob Ray", "2")
	if n := len(h.ballots("Mayor (laptop 2)")); n != 2 {
		t.Errorf("the kiosk's election holds %d ballots, want 2", n)
	}
	if n := len(h.ballots("Mayor")); n != 0 {
		t.Errorf("the other election called Mayor holds %d ballots", n)
	}
	if h.k.election.Name != "Mayor (laptop 2)" || h.k.bar.title.Text != "Mayor (laptop 2)" {
		t.Errorf("the kiosk shows %q (%q)", h.k.bar.title.Text, h.k.election.Name)
	}
}

// TestKioskStopsWhenItsElectionIsGone: an official (or a sync) deletes the
// kiosk's election while a voter is ranking, and another election takes
// its name. The voter's Cast is refused, nothing is recorded anywhere, and
// the kiosk says that voting has stopped here, to that voter and every
// voter after, with why for the officials; it offers no check-in. An
// official can still reach the menu and close the kiosk.
func TestKioskStopsWhenItsElectionIsGone(t *testing.T) {
	h := newHarness(t, "Mayor")
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	h.checkIn("Ann Lee")
	h.typ("12")
	h.press(h.k.ballot.review)

	must(h.svc.DeleteElection(h.ctx, official, "Mayor"))
	must(h.svc.CreateElection(h.ctx, official, "Mayor", "made after the first was deleted", false))
	must(h.svc.AddCandidates(h.ctx, official, "Mayor", "Kiss", "Wright", "Montroll", "Smith"))
	must(h.svc.AddVoters(h.ctx, official, "Mayor", pollBook(20)...))
	must(h.svc.LaunchElection(h.ctx, official, "Mayor"))

	h.press(h.k.review.cast)
	if _, ok := h.k.screen.(*stoppedScreen); !ok {
		t.Fatalf("after Cast in a deleted election: screen %T, want the stopped screen", h.k.screen)
	}
	if n := len(h.ballots("Mayor")); n != 0 {
		t.Errorf("the election that took the name holds %d ballots", n)
	}
	if h.k.session != nil || h.k.review != nil {
		t.Error("the voter's ballot is still held after voting stopped")
	}
	text := strings.Join(allTexts(h.win.Canvas()), "\n")
	for _, want := range []string{"Voting has stopped at this station", "your ballot was not recorded", `"Mayor" was deleted`} {
		if !strings.Contains(text, want) {
			t.Errorf("the stopped screen does not say %q:\n%s", want, text)
		}
	}
	// The next voter, after the receipt time and after an official's Back
	// to voting, meets the same screen, never check-in.
	h.advance(DefaultReturnAfter + time.Second)
	if _, ok := h.k.screen.(*stoppedScreen); !ok || h.k.checkIn != nil {
		t.Fatalf("later: screen %T, want the stopped screen", h.k.screen)
	}
	h.unlock()
	h.press(h.k.menu.resume)
	if _, ok := h.k.screen.(*stoppedScreen); !ok {
		t.Fatalf("after Back to voting: screen %T, want the stopped screen", h.k.screen)
	}
	h.unlock()
	h.press(h.k.menu.leave)
	if !h.k.closed {
		t.Error("the official could not close the stopped kiosk")
	}
}

// TestKioskFollowsItsElectionIntoAMerge: two laptops made election Levy
// offline; the kiosk was started on this device's. The other laptop's
// reaches the log first, so this one's takes a provisional name, and an
// official merges it into the other's (the same candidates, the same
// election). The kiosk's voters go on voting, in the election its own
// joined, as its offline ballots do in the log; the kiosk shows its name.
func TestKioskFollowsItsElectionIntoAMerge(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	other, err := localstore.Open(filepath.Join(t.TempDir(), "other.db"))
	must(err)
	t.Cleanup(func() { other.Close() })
	common, err := f.store.Pending(ctx, 0)
	must(err)
	must(f.store.ConfirmPushed(ctx, common))
	_, err = other.Integrate(ctx, common)
	must(err)
	otherSvc := app.NewService(other, apptest.NewClock(testStart, time.Millisecond), nil)
	for _, svc := range []*app.Service{otherSvc, f.svc} {
		must(svc.CreateElection(ctx, official, "Levy", "", false))
		must(svc.AddCandidates(ctx, official, "Levy", "Yes", "No"))
		must(svc.AddVoters(ctx, official, "Levy", pollBook(0)...))
		must(svc.LaunchElection(ctx, official, "Levy"))
	}
	h := startHarness(t, f, "Levy")
	started := h.k.election

	theirs, err := other.Pending(ctx, 0)
	must(err)
	must(other.ConfirmPushed(ctx, theirs))
	_, err = f.store.Integrate(ctx, theirs)
	must(err)
	ours, err := f.svc.JoinedElection(ctx, official, started.ID)
	must(err)
	if ours.Name == "Levy" {
		t.Fatalf("this device's Levy kept its name after the other's reached the log first")
	}
	cs, err := f.svc.Conflicts(ctx, official, ours.Name)
	must(err)
	if len(cs) != 1 {
		t.Fatalf("conflicts of %q: %+v", ours.Name, cs)
	}
	must(f.svc.ResolveConflict(ctx, official, ours.Name, cs[0].Seq, true, "the same levy, made on two laptops"))
	joined, err := f.svc.Election(ctx, official, "Levy")
	must(err)

	h.vote("Ann Lee", "1")
	bs := h.ballots("Levy")
	if len(bs) != 1 || bs[0].Voter != "Ann Lee" {
		t.Errorf("the merged Levy holds %+v, want Ann Lee's ballot", bs)
	}
	if h.k.election.ID != joined.ID || h.k.bar.title.Text != "Levy" || h.k.JoinCode() != app.JoinCode(joined) {
		t.Errorf("the kiosk shows %q (election %s, join code %s), want Levy (%s, %s)", h.k.bar.title.Text, h.k.election.ID, h.k.JoinCode(), joined.ID, app.JoinCode(joined))
	}
}

// TestKioskStopsWhenItsOfficialMayNoLongerCast: the official a kiosk acts
// as loses the right to cast there while voters are at it: the OWNER
// takes carl's role away, or olga's password changes on another device
// (this one no longer holds her signing key). The next voter's check-in or
// cast is refused, and the kiosk stops with the stopped screen, telling
// officials to start it again signed in as an official who may run a
// kiosk, instead of telling each voter that their ballot was not recorded.
func TestKioskStopsWhenItsOfficialMayNoLongerCast(t *testing.T) {
	for _, change := range []string{"role", "password"} {
		t.Run(change, func(t *testing.T) {
			actor := official
			if change == "role" {
				actor = "carl"
			}
			h := newHarness(t, "Mayor", func(c *Config) { c.Official = actor })
			h.vote("Ann Lee", "1")
			h.k.nextVoter()
			h.settle()
			switch change {
			case "role":
				if err := h.svc.SetRole(h.ctx, official, "carl", app.RoleObserver); err != nil {
					t.Fatal(err)
				}
				h.checkIn("Bob Ray")
			default:
				// Another device's service, which signs as olga with a
				// keyring of its own, changes her password; this kiosk's
				// process still holds her old key.
				olga, err := h.svc.User(h.ctx, official, official)
				if err != nil {
					t.Fatal(err)
				}
				key, _ := app.DefaultKeyring.Key(olga.ID)
				elsewhere := &app.Keyring{}
				elsewhere.Add(olga.ID, key)
				other := app.NewService(h.store, h.clock, nil, app.WithKeyring(elsewhere))
				if err := other.ChangePassword(h.ctx, official, official, "olga-new-password"); err != nil {
					t.Fatal(err)
				}
				h.checkIn("Bob Ray")
				h.typ("2")
				h.press(h.k.ballot.review)
				h.press(h.k.review.cast)
			}
			if _, ok := h.k.screen.(*stoppedScreen); !ok {
				t.Fatalf("screen %T, want the stopped screen", h.k.screen)
			}
			text := strings.Join(allTexts(h.win.Canvas()), "\n")
			if !strings.Contains(text, "signed in as an official who may run a kiosk") {
				t.Errorf("the stopped screen does not tell officials what to do:\n%s", text)
			}
			if n := len(h.ballots("Mayor")); n != 1 {
				t.Errorf("Mayor holds %d ballots, want Ann Lee's alone", n)
			}
		})
	}
}
