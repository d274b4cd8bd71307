package app_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

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
					listedAsWhole(t, e, actor, el, ballots, err)
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

// listedAsWhole checks that the list a screen reads a few rows at a time
// (ListBallots, then Rows) shows what Ballots shows whole (ballots, or
// the refusal err): the same ballots in the same order, with the same
// parts withheld. It reads the rows in blocks of two, as a screen would.
func listedAsWhole(t *testing.T, e *env, actor, election string, ballots []app.Ballot, err error) {
	t.Helper()
	l, lerr := e.svc.ListBallots(e.ctx, actor, election)
	if (lerr == nil) != (err == nil) || err != nil && app.ErrorCode(lerr) != app.ErrorCode(err) {
		t.Fatalf("ListBallots: %v; Ballots: %v", lerr, err)
	}
	if err != nil {
		return
	}
	var rows []app.Ballot
	for i := 0; i < l.Len(); i += 2 {
		r, err := l.Rows(e.ctx, i, i+2)
		if err != nil {
			t.Fatalf("rows %d to %d: %v", i, i+2, err)
		}
		rows = append(rows, r...)
	}
	if !reflect.DeepEqual(rows, ballots) {
		t.Errorf("the list read in blocks shows\n%+v\nBallots shows\n%+v", rows, ballots)
	}
	width := 0
	for _, b := range ballots {
		width = max(width, utf8.RuneCountInString(b.Voter))
	}
	if l.VoterWidth() != width {
		t.Errorf("VoterWidth %d; the longest voter name shown has %d characters", l.VoterWidth(), width)
	}
	shown := false
	for i, b := range ballots {
		if l.Code(i) != b.Confirmation || l.Find(strings.ToLower(b.Confirmation)) != i {
			t.Errorf("ballot %d: code %q, found at %d; Ballots has %q", i, l.Code(i), l.Find(b.Confirmation), b.Confirmation)
		}
		if b.SourceID != "" {
			shown = true
			if at, err := l.FindSource(e.ctx, b.SourceID); at != i || err != nil {
				t.Errorf("source id %q of ballot %d found at %d: %v", b.SourceID, i, at, err)
			}
		}
	}
	// Every election here holds imported ballots: where the list shows
	// no source id, a search by one is refused, not answered.
	if _, err := l.FindSource(e.ctx, "r1"); !shown && app.ErrorCode(err) != app.CodeForbidden {
		t.Errorf("a search by source id where none is shown: %v", err)
	}
	if at, err := l.FindSource(e.ctx, "no such id"); shown && (at != -1 || err != nil) {
		t.Errorf("a source id no ballot has: %d, %v", at, err)
	}
}

// TestBallotListRefusesWhatChanged: a list made under one state of the
// rule is not read under another. An AUDITOR's list of a secret election
// holds its ballots in the order of their keys, which are the voters'
// names: read by a USER, that order would tie each name to its ranking.
func TestBallotListRefusesWhatChanged(t *testing.T) {
	t.Run("ErrRoleLowered", func(t *testing.T) {
		e := newEnv(t)
		el := disclosureElection(e, true, "closed")
		l, err := e.svc.ListBallots(e.ctx, "auditor", el)
		e.must(err)
		if _, err := l.Rows(e.ctx, 0, l.Len()); err != nil {
			t.Fatal(err)
		}
		e.must(e.svc.SetRole(e.ctx, "owner", "auditor", app.RoleUser))
		rows, err := l.Rows(e.ctx, 0, l.Len())
		if app.ErrorCode(err) != app.CodeConflict || !strings.Contains(app.ErrorMessage(err), "list them again") || rows != nil {
			t.Errorf("rows read after the lister lost AUDITOR: %v, %+v", err, rows)
		}
	})
	t.Run("ErrAccessRemoved", func(t *testing.T) {
		// A USER's list, read once the user may see nothing.
		e := newEnv(t)
		el := disclosureElection(e, true, "closed")
		l, err := e.svc.ListBallots(e.ctx, "user", el)
		e.must(err)
		e.must(e.svc.SetRole(e.ctx, "owner", "user", app.RoleNoAccess))
		if _, err := l.Rows(e.ctx, 0, l.Len()); app.ErrorCode(err) != app.CodeForbidden {
			t.Errorf("rows read by NO ACCESS: %v", err)
		}
	})
	t.Run("ErrElectionRenamed", func(t *testing.T) {
		e := newEnv(t)
		el := disclosureElection(e, false, "draft")
		l, err := e.svc.ListBallots(e.ctx, "user", el)
		e.must(err)
		e.must(e.svc.RenameElection(e.ctx, "user", el, "Renamed"))
		if _, err := l.Rows(e.ctx, 0, l.Len()); err == nil || !strings.Contains(app.ErrorMessage(err), el) {
			t.Errorf("rows of a renamed election: %v", err)
		}
		if at, err := l.FindSource(e.ctx, "r1"); err == nil || at != -1 {
			t.Errorf("a source id found in a renamed election: %d, %v", at, err)
		}
	})
}

// TestBallotListHeldToItsElection: a list is of one election, not of a
// name. Renamed, and its name given to a new election in which a voter of
// the same name voted, the list does not show that election's ballot in
// the first one's place (its key, BALLOT#v1, is the same).
func TestBallotListHeldToItsElection(t *testing.T) {
	e := newEnv(t)
	el := disclosureElection(e, false, "closed")
	l, err := e.svc.ListBallots(e.ctx, "user", el)
	e.must(err)
	e.must(e.svc.RenameElection(e.ctx, "user", el, "Before"))
	again := disclosureElection(e, false, "closed")
	if again != el {
		t.Fatalf("made %q, want %q again", again, el)
	}
	rows, err := l.Rows(e.ctx, 0, l.Len())
	if app.ErrorCode(err) != app.CodeConflict || !strings.Contains(app.ErrorMessage(err), "another election") {
		t.Errorf("rows of the election that now has the name: %v, %+v", err, rows)
	}
	if _, err := l.FindSource(e.ctx, "r1"); app.ErrorCode(err) != app.CodeConflict {
		t.Errorf("a source id found in the election that now has the name: %v", err)
	}
}
