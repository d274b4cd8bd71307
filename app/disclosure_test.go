package app_test

import (
	"fmt"
	"testing"

	"votedesk/app"
)

// TestDisclosureMatrix checks the one disclosure rule on every surface of
// the service (the ballot list, the count, the log, conflicts) for
// secret and open ballots × every role × every state of an election,
// against the rule written out here on its own: contents are seen by every
// role that may view the application in an open-ballot election, and in a
// secret one by AUDITOR and up, or by anyone once the polls have closed;
// which voter cast which ballot (the links: voter names in the list, a
// ballot event's sealed contents in the log, a conflict's code) only in an
// open-ballot election or by AUDITOR and up.
func TestDisclosureMatrix(t *testing.T) {
	states := []string{"draft", "launched", "closed", "finalized"}
	for _, secret := range []bool{false, true} {
		for _, state := range states {
			for _, role := range app.Roles() {
				name := fmt.Sprintf("secret=%v/%s/%s", secret, state, role)
				t.Run(name, func(t *testing.T) {
					t.Parallel()
					e := newEnv(t)
					el := disclosureElection(e, secret, state)
					actor := matrixActor(role)
					views := role >= app.RoleObserver
					seesSecrets := role == app.RoleAuditor || role == app.RoleOwner
					contents := views && (!secret || seesSecrets || state == "closed" || state == "finalized")
					links := views && (!secret || seesSecrets)

					before := e.snapshot()
					ballots, err := e.svc.Ballots(e.ctx, actor, el)
					if (err == nil) != contents {
						t.Fatalf("ballot list: %v, want contents shown: %v", err, contents)
					}
					if err == nil {
						if len(ballots) == 0 {
							t.Fatal("no ballots listed")
						}
						for _, b := range ballots {
							if (b.Voter != "") != (links && b.Source != app.SourceCVR) || len(b.Rankings) == 0 {
								t.Errorf("ballot %+v: voter shown %v, want links %v", b, b.Voter != "", links)
							}
						}
					}
					_, _, err = e.svc.CountStored(e.ctx, actor, el, "", nil, nil)
					if (err == nil) != contents {
						t.Errorf("count: %v, want contents shown: %v", err, contents)
					}
					if !views {
						if app.ErrorCode(err) != app.CodeForbidden {
							t.Errorf("count by %s: %v", role, err)
						}
					}
					sealed, unsealed := 0, 0
					err = e.svc.Log(e.ctx, actor, 1, func(ev *app.Event) error {
						if ev.Type == app.EvBallotCast || ev.Type == app.EvBallotsImported {
							if len(ev.Sealed) > 0 {
								sealed++
							} else {
								unsealed++
							}
						}
						return nil
					})
					if views {
						// The template's other elections hold no ballots: every
						// ballot event is this election's.
						if err != nil || links != (unsealed == 0) || sealed+unsealed == 0 {
							t.Errorf("log: %v, %d ballot events with contents, %d without; want contents %v", err, sealed, unsealed, links)
						}
					} else if app.ErrorCode(err) != app.CodeForbidden {
						t.Errorf("log by %s: %v", role, err)
					}
					if e.snapshot() != before {
						t.Error("looking changed the database")
					}
				})
			}
		}
	}
}

// disclosureElection makes an election with ballots in a state: a draft
// holds imported ballots; a launched, closed or finalized one holds a
// ballot cast for a voter and an imported one.
func disclosureElection(e *env, secret bool, state string) string {
	name := "M"
	e.must(e.svc.CreateElection(e.ctx, "user", name, "", secret))
	e.must(e.svc.AddCandidates(e.ctx, "user", name, "A", "B", "C"))
	e.must(e.svc.AddVoters(e.ctx, "user", name, app.VoterEntry{Name: "v1"}))
	_, err := e.svc.ImportBallots(e.ctx, "user", name, app.SourceCVR, []app.ImportedBallot{{SourceID: "r1", Rankings: rank("B", "C")}}, nil)
	e.must(err)
	if state == "draft" {
		return name
	}
	e.must(e.svc.LaunchElection(e.ctx, "user", name))
	e.must(cast(e, "user", name, "v1", "A", "B"))
	switch state {
	case "closed":
		e.must(e.svc.CloseElection(e.ctx, "user", name))
	case "finalized":
		e.must(e.svc.FinalizeElection(e.ctx, "user", name))
	}
	return name
}
