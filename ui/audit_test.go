package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"votedesk/app"
)

func TestAuditLog(t *testing.T) {
	h := newHarness(t, nil)
	h.owner()
	h.addUser("Ursula", app.RoleUser)
	h.must(h.svc.CreateElection(h.ctx, "Ursula", "Secret vote", "", true))
	h.must(h.svc.AddCandidates(h.ctx, "Ursula", "Secret vote", "Yes", "No"))
	h.must(h.svc.AddVoters(h.ctx, "Ursula", "Secret vote", app.VoterEntry{Name: "Vera"}))
	h.must(h.svc.LaunchElection(h.ctx, "Ursula", "Secret vote"))
	_, err := h.svc.CastBallot(h.ctx, "Ursula", app.Cast{Election: "Secret vote", Voter: "Vera", Rankings: []app.Ranking{{Candidate: "No", Rank: 1}}})
	h.must(err)

	h.signIn("Ursula")
	h.sh.ShowScreen(screenLog)
	h.wait()
	a := h.sh.Audit
	if len(a.rows) != 7 || len(a.shown) != 7 {
		t.Fatalf("log shows %d of %d events, want 7", len(a.shown), len(a.rows))
	}
	if r := a.rows[a.shown[0]]; r.seq != 7 || r.typ != "BallotCast" {
		t.Errorf("first row %+v, want the newest event first", r)
	}
	t.Run("SecretBallotRedacted", func(t *testing.T) {
		d := a.rows[a.shown[0]].details
		if strings.Contains(d, "No") && strings.Contains(d, "rankings") || !strings.Contains(d, "secret ballot") {
			t.Errorf("a USER sees a secret ballot's rankings: %s", d)
		}
	})
	t.Run("PasswordsHidden", func(t *testing.T) {
		for _, r := range a.rows {
			if strings.Contains(r.details, "argon2") {
				t.Errorf("event %d shows a password hash: %s", r.seq, r.details)
			}
		}
	})
	t.Run("Search", func(t *testing.T) {
		test.Type(a.Search, "candidates")
		if len(a.shown) != 1 || a.rows[a.shown[0]].typ != "CandidatesAdded" {
			t.Errorf("search shows %d rows", len(a.shown))
		}
		if a.Summary.Text != "1 of 7 events" {
			t.Errorf("summary %q", a.Summary.Text)
		}
		a.Search.SetText("olivia")
		if len(a.shown) != 2 {
			t.Errorf("search by actor shows %d rows, want 2", len(a.shown))
		}
		h.assertGolden("audit_log.xml")
	})
	t.Run("Ctrl+F", func(t *testing.T) {
		h.sh.TypedShortcut(shortcutFind)
		if h.win.Canvas().Focused() != a.Search {
			t.Error("Ctrl+F does not focus the log search")
		}
	})
}
