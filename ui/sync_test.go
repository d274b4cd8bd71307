package ui

import (
	"crypto/ed25519"
	"errors"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"votedesk/app"
)

// replay records an event as if it had come from another device through
// sync from another device, applying it with the rules at its place in the
// log.
func (h *harness) replay(actor string, typ app.EventType, data map[string]any) {
	h.t.Helper()
	u, err := h.svc.User(h.ctx, actor, actor)
	h.must(err)
	key, ok := app.DefaultKeyring.Key(u.ID)
	if !ok {
		h.t.Fatalf("%s is not signed in", actor)
	}
	h.replays++
	ev, err := app.MakeEvent(app.EventSpec{Type: typ, Data: data, When: h.clock.Now(), Actor: u, ActorKey: key,
		Device: otherDevice, DeviceSeq: h.replays})
	h.must(err)
	h.must(h.store.Update(h.ctx, func(tx app.Tx) error {
		if err := tx.AppendEvent(ev); err != nil {
			return err
		}
		_, err = app.Replay(tx, ev)
		return err
	}))
}

// otherDevice is the key of the device replay plays.
var otherDevice = ed25519.NewKeyFromSeed(make([]byte, ed25519.SeedSize))

// syncFixture is an election with one duplicate-ballot conflict and one
// rejected event, as a sync would leave them.
func syncFixture(h *harness) {
	h.owner()
	h.must(h.svc.CreateElection(h.ctx, "Olivia", "Mayor", "", false))
	h.must(h.svc.AddCandidates(h.ctx, "Olivia", "Mayor", "Ann", "Bob"))
	h.must(h.svc.AddVoters(h.ctx, "Olivia", "Mayor", app.VoterEntry{Name: "Vera"}))
	h.must(h.svc.LaunchElection(h.ctx, "Olivia", "Mayor"))
	_, err := h.svc.CastBallot(h.ctx, "Olivia", app.Cast{Election: "Mayor", Voter: "Vera", Rankings: []app.Ranking{{Candidate: "Ann", Rank: 1}}})
	h.must(err)
	e, err := h.svc.Election(h.ctx, "Olivia", "Mayor")
	h.must(err)
	h.replay("Olivia", app.EvBallotCast, map[string]any{"election": "Mayor", "election_id": e.ID, "voter": "Vera", "confirmation": "kiosk-2",
		"rankings": [][]string{{"Bob"}}, "source": "kiosk"})
	h.replay("Olivia", app.EvCandidatesAdded, map[string]any{"election": "Mayor", "election_id": e.ID, "names": []string{"Cid"}})
}

func TestSyncPanel(t *testing.T) {
	h := newHarness(t, newFakeSyncer(testStart))
	syncFixture(h)
	fs := h.sh.cfg.Sync.(*fakeSyncer)
	fs.readShards(h, "Olivia")
	h.signIn("Olivia")
	h.sh.ShowScreen(screenSync)
	h.wait()
	s := h.sh.Sync

	if s.Pending.Text != "17" || s.LastSuccess.Text != "2026-11-03 06:18" || s.Region.Text != "eu-west-1" {
		t.Errorf("status: pending %q, last %q, region %q", s.Pending.Text, s.LastSuccess.Text, s.Region.Text)
	}
	if want := "shared log to entry 1,204 · Mayor ballots to entry 310"; !strings.HasPrefix(s.Read.Text, want) {
		t.Errorf("cloud log read: %q, want it to start %q", s.Read.Text, want)
	}
	t.Run("ConflictsAndRejections", func(t *testing.T) {
		if len(s.conflicts) != 1 || s.conflicts[0].Kind != "duplicate_ballot" {
			t.Fatalf("conflicts %+v", s.conflicts)
		}
		if len(s.rejections) != 1 || !strings.Contains(s.rejections[0].Reason, "does not allow edits now") {
			t.Errorf("rejections %+v", s.rejections)
		}
		h.assertGolden("sync.xml")
	})
	t.Run("ConflictAccepted", func(t *testing.T) {
		if !s.Accept.Disabled() {
			t.Error("Accept enabled with no conflict selected")
		}
		s.Conflicts.Select(widgetCell(0))
		test.Tap(s.Accept)
		h.wait()
		cs, _ := h.svc.Conflicts(h.ctx, "Olivia", "Mayor")
		if !cs[0].Resolved || cs[0].Resolution != "accepted" {
			t.Errorf("conflict %+v", cs[0])
		}
		bs, _ := h.svc.Ballots(h.ctx, "Olivia", "Mayor")
		if len(bs) != 1 || bs[0].Rankings[0].Candidate != "Bob" {
			t.Errorf("ballots after accepting the kiosk ballot: %+v", bs)
		}
		if got := s.conflictCell(0, 4); got != "accepted by Olivia" {
			t.Errorf("state cell %q", got)
		}
	})
	t.Run("SyncNow", func(t *testing.T) {
		fs.busy = "The cloud is busy (DynamoDB asks to slow down); retrying in 0.4 s."
		test.Tap(s.SyncNow)
		h.wait()
		if fs.syncs != 1 || len(fs.steps) != 17 || s.Progress.Value != 1 {
			t.Errorf("syncs %d, progress steps %d, bar %v", fs.syncs, len(fs.steps), s.Progress.Value)
		}
		if !strings.Contains(s.Report.Text, "17 events pushed, 3 events pulled") || s.Pending.Text != "0" {
			t.Errorf("report %q, pending %q", s.Report.Text, s.Pending.Text)
		}
	})
	t.Run("BusySaysWhy", func(t *testing.T) {
		// While a sync waits to retry, the panel says why, its bar still
		// following the events done; the next step says it is syncing again.
		s.Progress.SetValue(0.1)
		s.showProgress(SyncProgress{Done: 5, Total: 20, Waiting: fs.busy})
		if s.Report.Text != fs.busy || s.Progress.Value != 0.25 {
			t.Errorf("waiting: report %q, bar %v", s.Report.Text, s.Progress.Value)
		}
		s.showProgress(SyncProgress{Done: 6, Total: 20})
		if s.Report.Text != "Syncing…" || s.Progress.Value != 0.3 {
			t.Errorf("after the wait: report %q, bar %v", s.Report.Text, s.Progress.Value)
		}
	})
	t.Run("ErrSyncFailed", func(t *testing.T) {
		fs.fail = errors.New("no network")
		test.Tap(s.SyncNow)
		h.wait()
		h.assertDialog("Sync failed", "no network")
		h.closeDialogs()
		if !strings.Contains(s.Report.Text, "no network") || s.SyncNow.Disabled() {
			t.Errorf("report %q", s.Report.Text)
		}
		if s.Progress.Visible() {
			t.Errorf("a failed sync shows a progress bar at %v", s.Progress.Value)
		}
	})
	t.Run("SettingsSaved", func(t *testing.T) {
		s.Region.SetText("us-east-1")
		test.Type(s.Endpoint, "http://localhost:8000")
		test.Tap(s.Save)
		h.wait()
		if got := fs.Settings(); got.Region != "us-east-1" || got.Endpoint != "http://localhost:8000" {
			t.Errorf("settings %+v", got)
		}
	})
	t.Run("IntervalRemembered", func(t *testing.T) {
		fs.fail = nil
		syncs := fs.syncs
		s.Interval.SetSelected("Every 15 minutes")
		if got := h.app.Preferences().Int(prefSyncInterval); got != 15 {
			t.Errorf("interval stored %d", got)
		}
		// The timer syncs every 15 minutes; waiting covers the sync it starts.
		h.sh.tasks.Advance(15*time.Minute - time.Second)
		if fs.syncs != syncs {
			t.Errorf("synced before the interval passed: %d syncs", fs.syncs-syncs)
		}
		h.sh.tasks.Advance(15*time.Minute + time.Second)
		if fs.syncs != syncs+2 || s.Progress.Value != 1 {
			t.Errorf("after 30 minutes: %d automatic syncs, bar %v, want 2 and a full bar", fs.syncs-syncs, s.Progress.Value)
		}
		h.sh.SignOut()
		h.sh.tasks.Advance(time.Hour)
		if fs.syncs != syncs+2 {
			t.Error("automatic sync survives sign-out")
		}
		h.signIn("Olivia")
		if h.sh.Sync.Interval.Selected != "Every 15 minutes" {
			t.Errorf("interval after sign-in %q", h.sh.Sync.Interval.Selected)
		}
		h.sh.tasks.Advance(15 * time.Minute)
		if fs.syncs != syncs+3 {
			t.Error("the remembered interval does not sync after sign-in")
		}
	})
}

func TestSyncPanelWithoutSync(t *testing.T) {
	h := newHarness(t, nil)
	syncFixture(h)
	h.signIn("Olivia")
	h.sh.ShowScreen(screenSync)
	h.wait()
	s := h.sh.Sync
	if !s.SyncNow.Disabled() || !strings.Contains(s.Report.Text, "not part of this build") {
		t.Errorf("Sync now enabled without sync, report %q", s.Report.Text)
	}
	if len(s.conflicts) != 1 {
		t.Errorf("conflicts %d", len(s.conflicts))
	}
	s.Conflicts.Select(widgetCell(0))
	test.Tap(s.Dismiss)
	h.wait()
	cs, _ := h.svc.Conflicts(h.ctx, "Olivia", "Mayor")
	if !cs[0].Resolved || cs[0].Resolution != "dismissed" {
		t.Errorf("conflict %+v", cs[0])
	}
}

// TestSyncPanelDecidesEachKind: the decision buttons say what each kind of
// conflict's decisions do, and a receipted ballot refused where it reached
// the log (here: after the polls closed) can be counted from the panel,
// with the reason typed beside the buttons kept with the decision.
func TestSyncPanelDecidesEachKind(t *testing.T) {
	h := newHarness(t, newFakeSyncer(testStart))
	syncFixture(h)
	yes := true
	h.must(h.svc.UpdateElection(h.ctx, "Olivia", "Mayor", 0, app.ElectionChanges{AllowEdit: &yes}))
	h.must(h.svc.AddVoters(h.ctx, "Olivia", "Mayor", app.VoterEntry{Name: "Walt"}))
	h.must(h.svc.CloseElection(h.ctx, "Olivia", "Mayor"))
	e, err := h.svc.Election(h.ctx, "Olivia", "Mayor")
	h.must(err)
	h.replay("Olivia", app.EvBallotCast, map[string]any{"election": "Mayor", "election_id": e.ID, "voter": "Walt", "confirmation": "kiosk-3",
		"rankings": [][]string{{"Bob"}}, "source": "kiosk"})
	h.signIn("Olivia")
	h.sh.ShowScreen(screenSync)
	h.wait()
	s := h.sh.Sync
	if s.Accept.Text != "Accept" || !s.Accept.Disabled() || !s.Dismiss.Disabled() || !s.Reason.Disabled() {
		t.Errorf("nothing selected: %q (disabled %v), %q (disabled %v)", s.Accept.Text, s.Accept.Disabled(), s.Dismiss.Text, s.Dismiss.Disabled())
	}
	row := map[string]int{}
	for i, c := range s.conflicts {
		row[c.Kind] = i
	}
	s.Conflicts.Select(widgetCell(row["duplicate_ballot"]))
	if s.Accept.Text != "Count this ballot instead" || s.Dismiss.Text != "Keep the first ballot" {
		t.Errorf("a duplicate: %q / %q", s.Accept.Text, s.Dismiss.Text)
	}
	s.Conflicts.Select(widgetCell(row["refused_ballot"]))
	if s.Accept.Text != "Count this ballot" || s.Dismiss.Text != "Do not count it" || s.Accept.Disabled() {
		t.Fatalf("a refused ballot: %q (disabled %v) / %q", s.Accept.Text, s.Accept.Disabled(), s.Dismiss.Text)
	}
	test.Type(s.Reason, "the kiosk lost power before the close")
	test.Tap(s.Accept)
	h.wait()
	bs, _ := h.svc.Ballots(h.ctx, "Olivia", "Mayor")
	counted := false
	for _, b := range bs {
		counted = counted || b.Voter == "Walt" && b.Confirmation == "kiosk-3"
	}
	cs, _ := h.svc.Conflicts(h.ctx, "Olivia", "Mayor")
	var decided app.Conflict
	for _, c := range cs {
		if c.Kind == "refused_ballot" {
			decided = c
		}
	}
	if !counted || !decided.Resolved || decided.ResolutionReason != "the kiosk lost power before the close" || s.Reason.Text != "" {
		t.Errorf("after counting the refused ballot: counted %v, conflict %+v, reason field %q", counted, decided, s.Reason.Text)
	}
	if accept, dismiss := conflictDecisions(app.Conflict{Kind: "device_collision"}); accept != "" || dismiss != "Mark as reviewed" {
		t.Errorf("a copied device: %q / %q", accept, dismiss)
	}
}
