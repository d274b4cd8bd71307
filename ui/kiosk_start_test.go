package ui

import (
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"votedesk/app"
	"votedesk/ui/kiosk"
	"votedesk/ui/modal"
)

// TestStartKioskFromElection starts a kiosk from an election's overview: the
// button is there only for a launched election, the overview shows the join
// code, the window becomes the kiosk without the officials' menus, and when
// the kiosk gives the window back sign-in is asked again.
func TestStartKioskFromElection(t *testing.T) {
	h := newHarness(t, nil)
	h.owner()
	h.must(h.svc.CreateElection(h.ctx, "Olivia", "Mayor", "", false))
	h.must(h.svc.AddCandidates(h.ctx, "Olivia", "Mayor", "Kiss", "Wright"))
	h.signIn("Olivia")
	h.sh.OpenElection("Mayor", tabOverview)
	h.wait()
	es := h.sh.Election
	if !es.StartKiosk.Disabled() {
		t.Error("Start kiosk is enabled for a draft")
	}
	h.must(h.svc.LaunchElection(h.ctx, "Olivia", "Mayor"))
	h.sh.Refresh()
	h.wait()
	es = h.sh.Election
	if es.StartKiosk.Disabled() {
		t.Fatal("Start kiosk is disabled for a launched election")
	}
	e, _ := h.svc.Election(h.ctx, "Olivia", "Mayor")
	if !slices.Contains(texts(es.content), app.JoinCode(e)) {
		t.Errorf("the overview does not show the join code %s", app.JoinCode(e))
	}

	var started *kiosk.Kiosk
	es.KioskStarted = func(k *kiosk.Kiosk) { started = k }
	test.Tap(es.StartKiosk)
	var entries []*modal.Entry
	var start *modal.Button
	for _, o := range h.overlays() {
		for _, w := range walk(o) {
			switch x := w.(type) {
			case *modal.Entry:
				entries = append(entries, x)
			case *modal.Button:
				if x.Text == "Start kiosk" {
					start = x
				}
			}
		}
	}
	if len(entries) != 3 || start == nil || entries[0].Text != "Mayor" {
		t.Fatalf("start dialog: %d entries, start button %v", len(entries), start)
	}
	entries[1].SetText("poll-worker-9")
	entries[2].SetText("poll-worker-9")
	test.Tap(start)
	h.wait()
	if started == nil {
		t.Fatalf("the kiosk did not start: %s", h.dialogText())
	}
	if !h.win.FullScreen() {
		t.Error("the kiosk window is not full screen")
	}
	shown := texts(h.win.Content())
	if h.win.MainMenu() != nil {
		t.Error("the officials' menu bar stays reachable in the kiosk")
	}
	if strings.Contains(strings.Join(shown, " "), "Users and roles") {
		t.Errorf("the officials' screens show in the kiosk: %v", shown)
	}

	h.sh.afterKiosk()
	if h.sh.sess != nil || h.sh.SignIn == nil {
		t.Error("after the kiosk the official is still signed in")
	}
}
