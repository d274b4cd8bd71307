package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"votedesk/app"
)

// TestOpenElectionFollowsItsElection: while Mayor is open, another device
// renames it and makes a new election called Mayor (what the rules also do,
// by themselves, to an election two laptops made offline under one name).
// A command from the screen before it reloads is refused, not carried out on
// the other election; the reload after the sync follows the election to its
// new name, and says so; once it is deleted, the screen goes back to the
// list and says that.
func TestOpenElectionFollowsItsElection(t *testing.T) {
	h := mayorListed(t)
	h.sh.OpenElection("Mayor", tabCandidates)
	h.wait()
	mayor := h.sh.Election.election
	if mayor.ID == "" {
		t.Fatal("the election screen did not load Mayor")
	}

	h.replay("Olivia", app.EvElectionRenamed, map[string]any{"name": "Mayor", "election_id": mayor.ID, "new_name": "Mayor (north)"})
	h.replay("Olivia", app.EvElectionCreated, map[string]any{"name": "Mayor", "election_id": "00000000-0000-4000-8000-000000000042", "secret_ballot": false})

	// A command from the screen as it still stands.
	c := h.sh.Election.Candidates
	test.Type(c.Name, "Cid")
	test.Tap(c.Add)
	h.wait()
	if got := h.dialogText(); !strings.Contains(got, `now called "Mayor (north)"`) {
		t.Errorf("adding a candidate to the renamed election: %q", got)
	}
	h.closeDialogs()
	for _, name := range []string{"Mayor", "Mayor (north)"} {
		cands, err := h.svc.Candidates(h.ctx, "Olivia", name)
		h.must(err)
		if len(cands) != 0 {
			t.Errorf("%s has candidates %v after a refused command", name, cands)
		}
	}

	// The reload a sync makes.
	h.sh.Refresh()
	h.wait()
	if h.sh.screen != "election:Mayor (north)" || h.sh.Election == nil || h.sh.Election.Heading.Text != "Mayor (north)" || h.sh.Election.election.ID != mayor.ID {
		t.Fatalf("after the reload: screen %q", h.sh.screen)
	}
	if got := h.dialogText(); !strings.Contains(got, `"Mayor" is now called "Mayor (north)"`) {
		t.Errorf("the rename is not told: %q", got)
	}
	h.closeDialogs()
	if h.sh.Election.tab() != tabCandidates {
		t.Errorf("the reload left the Candidates tab for %q", h.sh.Election.tab())
	}
	c = h.sh.Election.Candidates
	test.Type(c.Name, "Cid")
	test.Tap(c.Add)
	h.wait()
	if cands, err := h.svc.Candidates(h.ctx, "Olivia", "Mayor (north)"); err != nil || len(cands) != 1 {
		t.Errorf("adding a candidate after the reload: %v %v; %q", cands, err, h.dialogText())
	}

	h.replay("Olivia", app.EvElectionDeleted, map[string]any{"name": "Mayor (north)", "election_id": mayor.ID})
	h.sh.Refresh()
	h.wait()
	if h.sh.Election != nil || h.sh.screen != screenElections {
		t.Errorf("after the deletion: screen %q", h.sh.screen)
	}
	if got := h.dialogText(); !strings.Contains(got, "was deleted") {
		t.Errorf("the deletion is not told: %q", got)
	}
}
