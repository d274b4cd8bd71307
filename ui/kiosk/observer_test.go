package kiosk

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"votedesk/app"
	"votedesk/tally"
	"votedesk/ui/uitest"
)

// randomToken is what differs between any two runs (ids, codes, nonces,
// hashes), which an observer's view is compared without.
var randomToken = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{16,}|[A-Za-z0-9+/_-]{40,}={0,2}`)

var wallTime = regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z`)

// kioskWorld is a kiosk database where three voters vote in the secret
// election Council at the kiosk, by keyboard: the third as third says.
// carl is made an OBSERVER, and a USER and an ADMIN are added (vera is a
// VOTER): every role below AUDITOR.
func kioskWorld(t *testing.T, third string) *harness {
	h := newHarness(t, "Council")
	h.must(h.svc.SetRole(h.ctx, official, "carl", app.RoleObserver))
	h.must(h.svc.RegisterUser(h.ctx, official, "ursula", "ursula@example.org", "ursula-password"))
	h.must(h.svc.SetRole(h.ctx, official, "ursula", app.RoleUser))
	h.must(h.svc.RegisterUser(h.ctx, official, "adam", "adam@example.org", "adam-password"))
	h.must(h.svc.SetRole(h.ctx, official, "adam", app.RoleAdmin))
	for _, v := range [][2]string{{"Ann Lee", "12"}, {"Bob Ray", "23"}, {"Cy Young", third}} {
		h.vote(v[0], v[1])
		h.advance(DefaultReturnAfter) // the receipt returns to check-in by itself
	}
	return h
}

func (f *fixture) must(err error) {
	f.t.Helper()
	if err != nil {
		f.t.Fatal(err)
	}
}

// observerView is everything user can read about Council through the
// service every surface reads from (the election, its poll book, its
// ballots and count or the refusals, the whole log), with each run's random
// tokens numbered in order of appearance, and what the kiosk shows the next
// voter.
func observerView(h *harness, user string) map[string]string {
	seen := map[string]string{}
	norm := func(v any, err error) string {
		b, _ := json.Marshal(v)
		s := string(b)
		if err != nil {
			s = "refused: " + app.ErrorMessage(err)
		}
		// The store stamps a copied database's DeviceJoined with the wall
		// clock, which differs between the worlds as it would between any
		// two runs; every other time is the test clock's.
		s = wallTime.ReplaceAllStringFunc(s, func(tm string) string {
			if strings.HasPrefix(tm, testStart.Format("2006-01-02")) {
				return tm
			}
			return "<wall clock>"
		})
		return randomToken.ReplaceAllStringFunc(s, func(tok string) string {
			if n, ok := seen[tok]; ok {
				return n
			}
			seen[tok] = fmt.Sprintf("<r%d>", len(seen)+1)
			return seen[tok]
		})
	}
	view := map[string]string{}
	view["election"] = norm(h.svc.Election(h.ctx, user, "Council"))
	view["poll book"] = norm(h.svc.Voters(h.ctx, user, "Council"))
	view["ballots"] = norm(h.svc.Ballots(h.ctx, user, "Council"))
	c, err := h.svc.Count(h.ctx, user, "Council", tally.IRV, tally.DefaultRules())
	view["count"] = norm(c.Result, err)
	var log []any
	err = h.svc.Log(h.ctx, user, 1, func(ev *app.Event) error {
		b, err := app.EncodeEvent(ev)
		log = append(log, json.RawMessage(b))
		return err
	})
	view["log"] = norm(log, err)
	h.relayout()
	view["kiosk screen"] = fmt.Sprint(uitest.Texts(h.win.Canvas()))
	return view
}

// TestKioskObserverLearnsOnlyTurnout: two kiosks whose third voter ranked
// differently (C then A, or A then B) look the same to every role below
// AUDITOR, through everything the service shows them, and the kiosk's own
// screen; the OWNER (the control) sees the difference, so the test can see
// what it looks for.
func TestKioskObserverLearnsOnlyTurnout(t *testing.T) {
	x, y := kioskWorld(t, "31"), kioskWorld(t, "12")
	if bx, by := x.ballots("Council"), y.ballots("Council"); len(bx) != 3 || len(by) != 3 {
		t.Fatalf("ballots %d and %d, want 3", len(bx), len(by))
	}
	differs := func(user string) []string {
		vx, vy := observerView(x, user), observerView(y, user)
		var d []string
		for k := range vx {
			if vx[k] != vy[k] {
				i := 0
				for i < min(len(vx[k]), len(vy[k])) && vx[k][i] == vy[k][i] {
					i++
				}
				from := max(0, i-300)
				d = append(d, fmt.Sprintf("%s, from character %d:\n--- one world\n%.600s\n--- the other\n%.600s", k, from, vx[k][from:], vy[k][from:]))
			}
		}
		return d
	}
	for _, user := range []string{"carl", "vera", "ursula", "adam"} {
		for _, d := range differs(user) {
			t.Errorf("%s learns how Cy Young ranked from %s", user, d)
		}
	}
	if len(differs(official)) == 0 {
		t.Error("the OWNER sees no difference between the worlds: the test cannot see what it looks for")
	}
}
