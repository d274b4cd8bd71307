package ui

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"votedesk/app"
)

// The observer's view of an open secret election through the desktop app:
// every tab of the election, every tab of its results and the ballots,
// read as text from the rendered widgets, in two worlds that differ only
// in how one voter ranked. Below AUDITOR they must read the same; AUDITOR
// (the control) must not.

var guiRandom = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{16,}`)

// secretGUIWorld is a database with an open secret election S whose third
// ballot ranks third.
func secretGUIWorld(t *testing.T, third []string) *harness {
	h := newHarness(t, nil)
	h.owner()
	h.addUser("Ursula", app.RoleUser)
	h.addUser("Otto", app.RoleObserver)
	h.addUser("Vic", app.RoleVoter)
	h.addUser("Adam", app.RoleAdmin)
	h.addUser("Audrey", app.RoleAuditor)
	h.must(h.svc.CreateElection(h.ctx, "Olivia", "S", "", true))
	h.must(h.svc.AddCandidates(h.ctx, "Olivia", "S", "Ann", "Bob", "Cid"))
	h.must(h.svc.AddVoters(h.ctx, "Olivia", "S", app.VoterEntry{Name: "p1"}, app.VoterEntry{Name: "p2"}, app.VoterEntry{Name: "p3"}))
	h.must(h.svc.LaunchElection(h.ctx, "Olivia", "S"))
	for i, names := range [][]string{{"Ann", "Bob"}, {"Bob", "Cid"}, third} {
		var r []app.Ranking
		for j, n := range names {
			r = append(r, app.Ranking{Candidate: n, Rank: j + 1})
		}
		_, err := h.svc.CastBallot(h.ctx, "Olivia", app.Cast{Election: "S", Voter: fmt.Sprintf("p%d", i+1), Rankings: r, Source: app.SourceKiosk})
		h.must(err)
	}
	return h
}

// guiView is all the text user reads on every screen of S.
func guiView(h *harness, user string) map[string]string {
	h.signIn(user)
	view := map[string]string{}
	read := func(screen string) {
		h.relayout()
		seen := map[string]string{}
		text := guiRandom.ReplaceAllStringFunc(strings.Join(texts(h.win.Canvas().Content()), "\n"), func(tok string) string {
			if n, ok := seen[tok]; ok {
				return n
			}
			seen[tok] = fmt.Sprintf("<r%d>", len(seen)+1)
			return seen[tok]
		})
		view[screen] = text + "\n" + h.dialogText()
		h.closeDialogs()
	}
	for _, tab := range tabNames {
		h.sh.OpenElection("S", tab)
		h.wait()
		read(tab)
	}
	h.sh.OpenElection("S", tabResults)
	h.wait()
	if r := h.sh.Election.Results; r != nil && r.Tabs != nil {
		for i := range r.Tabs.Items {
			r.Tabs.SelectIndex(i)
			if i == resultBallots && !r.LoadBallots.Disabled() {
				test.Tap(r.LoadBallots)
				h.wait()
			}
			read(fmt.Sprintf("results/%s", r.Tabs.Items[i].Text))
		}
	}
	return view
}

func TestGUIObserverLearnsOnlyTurnout(t *testing.T) {
	x := secretGUIWorld(t, []string{"Cid", "Bob"})
	y := secretGUIWorld(t, []string{"Ann", "Bob"})
	differs := func(user string) []string {
		vx, vy := guiView(x, user), guiView(y, user)
		var d []string
		for k := range vx {
			if vx[k] != vy[k] {
				d = append(d, fmt.Sprintf("%s:\n--- one world\n%s\n--- the other\n%s", k, vx[k], vy[k]))
			}
		}
		return d
	}
	for _, user := range []string{"Otto", "Vic", "Ursula", "Adam"} {
		for _, d := range differs(user) {
			t.Errorf("%s learns how p3 ranked from %s", user, d)
		}
	}
	ad := differs("Audrey")
	for _, d := range ad {
		t.Logf("AUDITOR: %.300s", d)
	}
	if len(ad) == 0 {
		t.Error("AUDITOR sees no difference between the worlds: the test cannot see what it looks for")
	}
}
