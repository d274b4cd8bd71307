package app_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"votedesk/app"
)

func TestElectionLifecycle(t *testing.T) {
	e := newEnv(t)
	e.must(e.svc.CreateElection(e.ctx, "user", "Mayor", "Mayor 2026", false))
	el, _ := e.svc.Election(e.ctx, "user", "Mayor")
	if el.Status != app.StatusDraft || !el.AllowEdit || el.AllowVote || el.Owner != "user" {
		t.Fatalf("new election = %+v; want a draft owned by user, edit on, vote off", el)
	}
	from, to := "2026-11-03T06:00:00Z", "2026-11-03T20:00:00Z"
	recast := true
	e.must(e.svc.UpdateElection(e.ctx, "user", "Mayor", el.Version, app.ElectionChanges{NoVotingBefore: &from, NoVotingAfter: &to, AllowRecast: &recast}))
	e.must(e.svc.AddCandidates(e.ctx, "user", "Mayor", "Kiss", "Wright", "Montroll"))
	e.must(e.svc.RemoveCandidates(e.ctx, "user", "Mayor", "Montroll"))
	e.must(e.svc.AddVoters(e.ctx, "user", "Mayor", app.VoterEntry{Name: "ann"}, app.VoterEntry{Name: "bob"}))
	e.must(e.svc.RemoveVoters(e.ctx, "user", "Mayor", "bob"))
	e.must(e.svc.LaunchElection(e.ctx, "user", "Mayor"))
	el, _ = e.svc.Election(e.ctx, "user", "Mayor")
	if el.Status != app.StatusLaunched || el.AllowEdit || !el.AllowVote || el.Candidates != 2 || el.Voters != 1 {
		t.Fatalf("launched election = %+v", el)
	}
	if got := el.Phase(time.Date(2026, 11, 3, 12, 0, 0, 0, time.UTC)); got != "open" {
		t.Errorf("phase inside window = %s, want open", got)
	}
	if got := el.Phase(time.Date(2026, 11, 4, 12, 0, 0, 0, time.UTC)); got != "closed" {
		t.Errorf("phase after window = %s, want closed", got)
	}
	e.must(e.svc.FinalizeElection(e.ctx, "user", "Mayor"))
	el, _ = e.svc.Election(e.ctx, "user", "Mayor")
	if el.Status != app.StatusFinalized || el.AllowEdit || el.AllowVote || el.Phase(start) != "finalized" {
		t.Errorf("finalized election = %+v", el)
	}
	if err := e.svc.DeleteElection(e.ctx, "user", "Mayor"); !app.IsCode(err, app.CodeForbidden) {
		t.Errorf("deleting a finalized election as its owner: %v, want forbidden (records are kept)", err)
	}
	if err := e.svc.DeleteElection(e.ctx, "owner", "Mayor"); !app.IsCode(err, app.CodeConflict) {
		t.Errorf("deleting a finalized election within its retention period: %v, want conflict", err)
	}
	e.clock.Add(23 * 31 * 24 * time.Hour)
	counts, _ := e.svc.Counts(e.ctx, "user")
	e.must(e.svc.DeleteElection(e.ctx, "owner", "Mayor"))
	after, _ := e.svc.Counts(e.ctx, "user")
	if after.Elections != counts.Elections-1 {
		t.Errorf("election count %d -> %d, want one less", counts.Elections, after.Elections)
	}
	if _, err := e.svc.Election(e.ctx, "user", "Mayor"); app.ErrorCode(err) != app.CodeNotFound {
		t.Errorf("deleted election still there: %v", err)
	}
	if cands, err := e.svc.Candidates(e.ctx, "user", "Mayor"); err == nil || len(cands) != 0 {
		t.Errorf("candidates of deleted election: %v, %v", cands, err)
	}
}

func TestElectionListsAndCounts(t *testing.T) {
	e := newEnv(t)
	es, err := e.svc.Elections(e.ctx, "observer")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, x := range es {
		names = append(names, x.Name)
	}
	if len(names) != 3 || names[0] != "Draft" || names[1] != "Open" || names[2] != "Secret" {
		t.Errorf("elections = %v, want [Draft Open Secret]", names)
	}
	c, _ := e.svc.Counts(e.ctx, "observer")
	if c.Users != 8 || c.Elections != 3 {
		t.Errorf("counts = %+v, want 8 users, 3 elections", c)
	}
	cands, _ := e.svc.Candidates(e.ctx, "observer", "Open")
	if len(cands) != 3 || cands[0].Name != "A" || cands[2].Name != "C" {
		t.Errorf("candidates = %+v", cands)
	}
	el, err := e.svc.CheckVoter(e.ctx, "voter", "Open", "v1")
	if err != nil || !el.Eligible || el.Voted {
		t.Errorf("CheckVoter(v1) = %+v, %v", el, err)
	}
	el, _ = e.svc.CheckVoter(e.ctx, "voter", "Open", "nobody")
	if el.Eligible {
		t.Error("nobody is eligible")
	}
}

func TestMethodAndRulesStored(t *testing.T) {
	e := newEnv(t)
	m := "stv"
	rules := map[string]string{"numberOfWinners": "2", "batchElimination": "true"}
	e.must(e.svc.UpdateElection(e.ctx, "user", "Draft", 0, app.ElectionChanges{Method: &m, Rules: &rules}))
	el, _ := e.svc.Election(e.ctx, "user", "Draft")
	if el.Method != "stv" || len(el.RuleList()) != 2 || el.RuleList()[0] != "batchElimination=true" {
		t.Errorf("method %q rules %v", el.Method, el.RuleList())
	}
}

func TestBigPollBookIsBatched(t *testing.T) {
	e := newEnv(t)
	voters := make([]app.VoterEntry, 2*app.VoterBatch+5)
	for i := range voters {
		voters[i] = app.VoterEntry{Name: fmt.Sprintf("voter-%06d", i)}
	}
	before := e.snapshot()
	e.must(e.svc.AddVoters(e.ctx, "user", "Draft", voters...))
	after := e.snapshot()
	if after.head-before.head != 3 {
		t.Errorf("%d voters made %d events, want 3 batches", len(voters), after.head-before.head)
	}
	t.Run("ErrAllOrNothing", func(t *testing.T) {
		// The first batch is new; the second repeats a voter already there.
		var bad []app.VoterEntry
		for i := range app.VoterBatch {
			bad = append(bad, app.VoterEntry{Name: fmt.Sprintf("fresh-%06d", i)})
		}
		bad = append(bad, voters[app.VoterBatch+3])
		snap := e.snapshot()
		if err := e.svc.AddVoters(e.ctx, "user", "Draft", bad...); app.ErrorCode(err) != app.CodeConflict {
			t.Errorf("adding a voter already in the poll book: %v", err)
		}
		if e.snapshot() != snap {
			t.Error("a refused poll-book addition changed the database")
		}
	})
}

// TestPollBookNamesCompareAsTheDomainDoes: a name already in the poll book
// in another letter case or spacing is the same voter, in a later
// addition or a later batch of the same one, ASCII or not.
func TestPollBookNamesCompareAsTheDomainDoes(t *testing.T) {
	e := newEnv(t)
	e.must(e.svc.AddVoters(e.ctx, "user", "Draft", app.VoterEntry{Name: "Ann Lee"}, app.VoterEntry{Name: "Zoë Ortiz"}))
	for _, c := range []struct{ name, as string }{
		{"ann lee", "Ann Lee"}, {"ANN  LEE", "Ann Lee"}, {" ann Lee", "Ann Lee"}, {"ZOË ORTIZ", "Zoë Ortiz"}, {"Zoe\u0308 Ortiz", "Zoë Ortiz"},
	} {
		// The clash in a batch after a first batch of fresh names.
		var voters []app.VoterEntry
		for i := range app.VoterBatch {
			voters = append(voters, app.VoterEntry{Name: fmt.Sprintf("fresh-%06d", i)})
		}
		voters = append(voters, app.VoterEntry{Name: c.name})
		snap := e.snapshot()
		err := e.svc.AddVoters(e.ctx, "user", "Draft", voters...)
		if msg := app.ErrorMessage(err); app.ErrorCode(err) != app.CodeConflict || !strings.Contains(msg, "already in the poll book") || !strings.Contains(msg, fmt.Sprintf("%q", c.as)) {
			t.Errorf("adding %q with %q in the poll book: %v", c.name, c.as, err)
		}
		if e.snapshot() != snap {
			t.Errorf("a refused addition of %q changed the database", c.name)
		}
	}
}

// TestOneAccountVotesForOneEntry: an account linked to one poll-book entry
// is not linked to a second of the same election; linked to the same
// entry again, or once unlinked, it may be.
func TestOneAccountVotesForOneEntry(t *testing.T) {
	e := newEnv(t)
	err := e.svc.LinkVoter(e.ctx, "user", "Draft", "v1", "voter")
	if !app.IsCode(err, app.CodeConflict) || !strings.Contains(app.ErrorMessage(err), `already linked to voter "voter" of "Draft"`) {
		t.Fatalf("linking the account of voter to v1 as well: %v", err)
	}
	e.must(e.svc.LinkVoter(e.ctx, "user", "Draft", "voter", "voter"))
	e.must(e.svc.LinkVoter(e.ctx, "user", "Draft", "voter", ""))
	e.must(e.svc.LinkVoter(e.ctx, "user", "Draft", "v1", "voter"))
	vs, err := e.svc.Voters(e.ctx, "user", "Draft")
	e.must(err)
	for _, v := range vs {
		if linked := v.Account != ""; linked != (v.Name == "v1") {
			t.Errorf("voter %q linked to %q", v.Name, v.Account)
		}
	}
}
