package kiosk

import (
	"testing"
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
