package app_test

import (
	"fmt"
	"testing"
	"time"

	"votedesk/app"
)

// recordState is an election in one state of its life, made from the
// template's "Draft" or "Open" (owned by "user").
type recordState struct {
	name     string
	election string
	setup    func(e *env)
	// ballots: the election holds ballots; final: it is finalized;
	// retained: its retention period has not ended; archived: it is.
	ballots, final, retained, archived bool
}

func recordStates() []recordState {
	castOne := func(e *env) { e.must(cast(e, "user", "Open", "v1", "A")) }
	closeOpen := func(e *env) { e.must(e.svc.CloseElection(e.ctx, "user", "Open")) }
	finalize := func(e *env) { castOne(e); e.must(e.svc.FinalizeElection(e.ctx, "user", "Open")) }
	past := func(e *env) { e.clock.Add(23 * 31 * 24 * time.Hour) }
	return []recordState{
		{name: "DraftEmpty", election: "Draft"},
		{name: "DraftImported", election: "Draft", ballots: true, setup: func(e *env) {
			_, err := e.svc.ImportBallots(e.ctx, "user", "Draft", app.SourceCVR, []app.ImportedBallot{{SourceID: "r1", Rankings: rank("A")}}, nil)
			e.must(err)
		}},
		{name: "LaunchedEmpty", election: "Open"},
		{name: "LaunchedWithBallots", election: "Open", ballots: true, setup: castOne},
		{name: "ClosedEmpty", election: "Open", setup: closeOpen},
		{name: "ClosedWithBallots", election: "Open", ballots: true, setup: func(e *env) { castOne(e); closeOpen(e) }},
		{name: "Finalized", election: "Open", ballots: true, final: true, retained: true, setup: finalize},
		{name: "FinalizedArchived", election: "Open", ballots: true, final: true, retained: true, archived: true, setup: func(e *env) {
			finalize(e)
			e.must(e.svc.ArchiveElection(e.ctx, "user", "Open"))
		}},
		{name: "FinalizedPastRetention", election: "Open", ballots: true, final: true, setup: func(e *env) { finalize(e); past(e) }},
		{name: "ArchivedPastRetention", election: "Open", ballots: true, final: true, archived: true, setup: func(e *env) {
			finalize(e)
			e.must(e.svc.ArchiveElection(e.ctx, "owner", "Open"))
			past(e)
		}},
	}
}

// recordActors are everyone who might try: one user of each role who owns
// no election, and "user", the elections' owner.
func recordActors() []struct {
	name  string
	role  app.Role
	owner bool
} {
	out := []struct {
		name  string
		role  app.Role
		owner bool
	}{{"user", app.RoleUser, true}}
	for _, r := range app.Roles() {
		out = append(out, struct {
			name  string
			role  app.Role
			owner bool
		}{matrixActor(r), r, false})
	}
	return out
}

// TestElectionRecordsKept: deleting, archiving and showing again an
// election in every state of its life, by every role and by its owner.
// An election with ballots is never deleted while launched or closed; a
// finalized one is archived by its owner or the OWNER, and deleted only by
// the OWNER after its retention period; a draft (imported ballots are
// copies of a voting system's records) and an election without ballots
// delete as before. Every refusal changes nothing.
func TestElectionRecordsKept(t *testing.T) {
	for _, st := range recordStates() {
		for _, who := range recordActors() {
			manages := who.owner || who.role >= app.RoleAdmin
			mayArchive := who.owner || who.role == app.RoleOwner
			for _, op := range []string{"delete", "archive", "unarchive"} {
				var want app.Code // "" = allowed
				switch {
				case op == "delete" && !manages:
					want = app.CodeForbidden
				case op == "delete" && !st.final:
					if st.ballots && st.election == "Open" {
						want = app.CodeConflict
					}
				case op == "delete" && who.role != app.RoleOwner:
					want = app.CodeForbidden
				case op == "delete" && st.retained:
					want = app.CodeConflict
				case op == "delete":
				case !manages || !mayArchive:
					want = app.CodeForbidden
				case !st.final || (op == "archive") == st.archived:
					want = app.CodeConflict
				}
				verdict := "Allowed"
				if want != "" {
					verdict = string(want)
				}
				t.Run(fmt.Sprintf("%s/%s/%s(%s)/%s", st.name, op, who.name, who.role, verdict), func(t *testing.T) {
					t.Parallel()
					e := newEnv(t)
					if st.setup != nil {
						st.setup(e)
					}
					before := e.snapshot()
					var err error
					switch op {
					case "delete":
						err = e.svc.DeleteElection(e.ctx, who.name, st.election)
					case "archive":
						err = e.svc.ArchiveElection(e.ctx, who.name, st.election)
					case "unarchive":
						err = e.svc.RestoreElection(e.ctx, who.name, st.election)
					}
					if want != "" {
						if app.ErrorCode(err) != want {
							t.Fatalf("%s by %s: %v, want %s", op, who.name, err, want)
						}
						if e.snapshot() != before {
							t.Fatalf("the refused %s changed the database", op)
						}
						return
					}
					if err != nil {
						t.Fatalf("%s by %s: %v", op, who.name, err)
					}
					el, err := e.svc.Election(e.ctx, "owner", st.election)
					switch op {
					case "delete":
						if err == nil {
							t.Error("the election is still there")
						}
					default:
						if err != nil || el.Archived != (op == "archive") {
							t.Errorf("after %s: archived %v (%v)", op, el.Archived, err)
						}
						listed := false
						list, err := e.svc.Elections(e.ctx, "owner")
						e.must(err)
						for _, x := range list {
							listed = listed || x.Name == st.election
						}
						if listed == (op == "archive") {
							t.Errorf("after %s the election is listed: %v", op, listed)
						}
					}
				})
			}
		}
	}
}
