package app_test

import (
	"testing"

	"votedesk/app"
)

// TestConflictDecisionNames: a decision names its conflict by the event
// that made it and the voter it is about, which stay the same wherever a
// sync moves that event, and falls back on the conflict's number only for
// decisions recorded before they named it so.
func TestConflictDecisionNames(t *testing.T) {
	e := newEnv(t)
	el, err := e.svc.Election(e.ctx, "user", "Open")
	e.must(err)
	for i, v := range []string{"v1", "v2"} {
		e.must(cast(e, "user", "Open", v, "A"))
		e.must(e.foreignEvent("user", app.EvBallotCast, map[string]any{"election": "Open", "election_id": el.ID, "voter": v,
			"confirmation": []string{"11111111-2222-4333-8444-555555555555", "11111111-2222-4333-8444-555555555556"}[i],
			"rankings":     [][]string{{"B"}}, "source": "kiosk"}))
	}
	byVoter := func() map[string]app.Conflict {
		cs, err := e.svc.Conflicts(e.ctx, "owner", "Open")
		e.must(err)
		m := map[string]app.Conflict{}
		for _, c := range cs {
			m[c.Voter] = c
		}
		if len(m) != 2 {
			t.Fatalf("conflicts = %+v", cs)
		}
		return m
	}
	first := func(voter string) string {
		bs, err := e.svc.Ballots(e.ctx, "owner", "Open")
		e.must(err)
		for _, b := range bs {
			if b.Voter == voter {
				return b.Rankings[0].Candidate
			}
		}
		t.Fatalf("no ballot of %s", voter)
		return ""
	}
	cs := byVoter()
	decide := func(data map[string]any) error {
		data["election"], data["election_id"] = "Open", el.ID
		return e.foreignEvent("owner", app.EvConflictResolved, data)
	}

	// The number of v1's conflict, but the event and voter of v2's (what a
	// decision carries after a rebase gave v1's conflict the number v2's
	// had): v2's ballot from the kiosk is the one accepted.
	e.must(decide(map[string]any{"conflict": cs["v1"].Seq, "conflict_event": cs["v2"].EventID, "conflict_voter": "v2", "accept": true}))
	cs = byVoter()
	if !cs["v2"].Resolved || cs["v1"].Resolved || first("v2") != "B" || first("v1") != "A" {
		t.Errorf("after the decision about v2: %+v; v1 ranks %s first, v2 %s", cs, first("v1"), first("v2"))
	}
	// The event of v1's conflict with another voter names nothing.
	refusal := decide(map[string]any{"conflict": cs["v1"].Seq, "conflict_event": cs["v1"].EventID, "conflict_voter": "v2", "accept": true})
	if !app.IsCode(refusal, app.CodeNotFound) {
		t.Errorf("a decision naming no conflict: %v", refusal)
	}
	// A decision of the earlier layout names the conflict by number.
	e.must(decide(map[string]any{"conflict": cs["v1"].Seq, "accept": false, "reason": "the first one counts"}))
	cs = byVoter()
	if !cs["v1"].Resolved || cs["v1"].Resolution != "dismissed" || first("v1") != "A" {
		t.Errorf("after the decision about v1 by number: %+v", cs["v1"])
	}
	el, err = e.svc.Election(e.ctx, "user", "Open")
	e.must(err)
	if el.Conflicts != 0 {
		t.Errorf("the election counts %d open conflicts", el.Conflicts)
	}
}
