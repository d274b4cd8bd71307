package ui

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"votedesk/app"
	"votedesk/tally"
)

func TestElectionLifecycle(t *testing.T) {
	h := newHarness(t, nil)
	h.owner()
	h.signIn("Olivia")

	// Ctrl+N opens the New election dialog.
	h.sh.TypedShortcut(shortcutNew)
	f := h.sh.Elections.CreateForm
	if f == nil {
		t.Fatal("Ctrl+N opened no New election dialog")
	}
	test.Type(f.Name, "Board 2026")
	test.Type(f.Description, "Three seats")
	test.Tap(f.Secret)
	test.Tap(f.Create)
	h.wait()
	e, err := h.svc.Election(h.ctx, "Olivia", "Board 2026")
	h.must(err)
	if !e.Secret || e.Description != "Three seats" || e.Status != app.StatusDraft {
		t.Errorf("stored election %+v", e)
	}
	es := h.sh.Election
	if es == nil || es.name != "Board 2026" {
		t.Fatal("the new election is not opened")
	}

	t.Run("ErrLaunchNeedsTwoCandidates", func(t *testing.T) {
		test.Tap(es.Launch)
		h.tapDialogButton("Yes")
		h.assertDialog("Cannot launch Board 2026", "has 0 candidate(s); launching needs at least 2", "draft → launched → finalized")
		h.closeDialogs()
		e, _ := h.svc.Election(h.ctx, "Olivia", "Board 2026")
		if e.Status != app.StatusDraft {
			t.Errorf("status %s after a refused launch", e.Status)
		}
	})
	t.Run("CandidatesAdded", func(t *testing.T) {
		es.ShowTab(tabCandidates)
		h.wait()
		c := es.Candidates
		test.Type(c.Name, "Ann; Bob")
		test.Tap(c.Add)
		h.wait()
		test.Type(c.Name, "Cid")
		c.Name.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
		h.wait()
		got, err := h.svc.Candidates(h.ctx, "Olivia", "Board 2026")
		h.must(err)
		if len(got) != 3 || got[2].Name != "Cid" {
			t.Fatalf("candidates %v", got)
		}
		if c.List.Length() != 3 {
			t.Errorf("the list shows %d candidates", c.List.Length())
		}
		c.List.Select(2)
		test.Tap(c.Remove)
		h.tapDialogButton("Yes")
		got, _ = h.svc.Candidates(h.ctx, "Olivia", "Board 2026")
		if len(got) != 2 {
			t.Errorf("after removing Cid: %v", got)
		}
		h.assertGolden("candidates.xml")
	})
	t.Run("Launched", func(t *testing.T) {
		es.ShowTab(tabOverview)
		test.Tap(es.Launch)
		h.tapDialogButton("Yes")
		e, _ := h.svc.Election(h.ctx, "Olivia", "Board 2026")
		if e.Status != app.StatusLaunched {
			t.Fatalf("status %s", e.Status)
		}
		if !es.Launch.Disabled() || es.Finalize.Disabled() {
			t.Error("after launch, Launch should be disabled and Finalize enabled")
		}
		if !strings.HasPrefix(es.Status.Text, "Open:") {
			t.Errorf("status line %q", es.Status.Text)
		}
		es.ShowTab(tabCandidates)
		h.wait()
		if !es.Candidates.Add.Disabled() || !strings.Contains(es.Candidates.Note.Text, "candidates change only in a draft") {
			t.Errorf("candidates of a launched election are editable (%q)", es.Candidates.Note.Text)
		}
	})
	t.Run("PollsClosed", func(t *testing.T) {
		es.ShowTab(tabOverview)
		test.Tap(es.Close)
		h.tapDialogButton("Yes")
		e, _ := h.svc.Election(h.ctx, "Olivia", "Board 2026")
		if e.Status != app.StatusClosed {
			t.Fatalf("status %s", e.Status)
		}
		if !es.Close.Disabled() || es.Finalize.Disabled() || !strings.HasPrefix(es.Status.Text, "Polls closed:") {
			t.Errorf("after closing the polls: Close enabled %v, Finalize enabled %v, status %q", !es.Close.Disabled(), !es.Finalize.Disabled(), es.Status.Text)
		}
	})
	t.Run("Finalized", func(t *testing.T) {
		es.ShowTab(tabOverview)
		test.Tap(es.Finalize)
		h.tapDialogButton("Yes")
		e, _ := h.svc.Election(h.ctx, "Olivia", "Board 2026")
		if e.Status != app.StatusFinalized {
			t.Fatalf("status %s", e.Status)
		}
		if !es.Edit.Disabled() {
			t.Error("a finalized election offers Edit")
		}
	})
	t.Run("ErrDeleteFinalized", func(t *testing.T) {
		if !es.Delete.Disabled() {
			t.Error("Delete is enabled on a finalized election, whose records are kept")
		}
	})
	t.Run("Archived", func(t *testing.T) {
		test.Tap(es.Archive)
		h.tapDialogButton("Yes")
		e, err := h.svc.Election(h.ctx, "Olivia", "Board 2026")
		if err != nil || !e.Archived {
			t.Errorf("after archive: %+v %v", e, err)
		}
		if h.sh.Election != nil || h.sh.screen != screenElections {
			t.Errorf("after archive the shell shows %q", h.sh.screen)
		}
		if n := len(h.sh.Elections.shown); n != 0 {
			t.Errorf("the list still shows %d elections", n)
		}
	})
}

func TestEditElection(t *testing.T) {
	h := newHarness(t, nil)
	h.owner()
	h.must(h.svc.CreateElection(h.ctx, "Olivia", "Budget", "", false))
	h.signIn("Olivia")
	h.sh.OpenElection("Budget", tabOverview)
	h.wait()
	es := h.sh.Election

	t.Run("SavesWindowAndSettings", func(t *testing.T) {
		test.Tap(es.Edit)
		f := es.EditForm
		if c := h.win.Canvas().Focused(); c != f.Description {
			t.Errorf("Edit on a draft: focus on %T, want the description", c)
		}
		f.Description.SetText("")
		test.Type(f.Description, "Next year's budget")
		test.Tap(f.Secret)
		test.Tap(f.Recast)
		opens := time.Date(2026, 11, 10, 0, 0, 0, 0, time.UTC)
		f.Opens.Date.SetDate(&opens)
		test.Type(f.Opens.Time, "07:30")
		closes := time.Date(2026, 11, 12, 0, 0, 0, 0, time.UTC)
		f.Closes.Date.SetDate(&closes)
		test.Type(f.Closes.Time, "20:00")
		f.Method.SetSelected(methodLabel(tally.Schulze))
		f.Retain.SetText("60")
		h.assertGolden("edit_election.xml")
		test.Tap(f.Save)
		h.wait()
		e, err := h.svc.Election(h.ctx, "Olivia", "Budget")
		h.must(err)
		want := app.Election{Description: "Next year's budget", Secret: true, AllowRecast: true, Method: "schulze",
			NoVotingBefore: time.Date(2026, 11, 10, 7, 30, 0, 0, time.UTC), NoVotingAfter: time.Date(2026, 11, 12, 20, 0, 0, 0, time.UTC)}
		if e.Description != want.Description || e.Secret != want.Secret || e.AllowRecast != want.AllowRecast || e.Method != want.Method || e.RetentionMonths() != 60 ||
			!e.NoVotingBefore.Equal(want.NoVotingBefore) || !e.NoVotingAfter.Equal(want.NoVotingAfter) {
			t.Errorf("stored %+v", e)
		}
		if len(h.overlays()) != 0 {
			t.Errorf("the dialog stays open: %s", h.dialogText())
		}
	})
	t.Run("Seats", func(t *testing.T) {
		test.Tap(es.Edit)
		f := es.EditForm
		if f.Seats.Text != "1" {
			t.Errorf("seats of a new election: %q", f.Seats.Text)
		}
		f.Method.SetSelected(methodLabel(tally.STV))
		f.Seats.SetText("3")
		test.Tap(f.Save)
		h.wait()
		e, err := h.svc.Election(h.ctx, "Olivia", "Budget")
		h.must(err)
		if e.Rules["numberOfWinners"] != "3" || e.Method != string(tally.STV) {
			t.Errorf("stored method %q, rules %v", e.Method, e.Rules)
		}
		test.Tap(es.Edit)
		if got := es.EditForm.Seats.Text; got != "3" {
			t.Errorf("the form shows %q seats", got)
		}
		es.EditForm.Seats.SetText("none")
		test.Tap(es.EditForm.Save)
		h.wait()
		h.assertDialog("seats: rule numberOfWinners: \"none\" is not an integer")
		h.closeDialogs()
	})
	t.Run("ErrWindowBackwards", func(t *testing.T) {
		test.Tap(es.Edit)
		f := es.EditForm
		f.Closes.Time.SetText("")
		test.Type(f.Closes.Time, "06:00")
		closes := time.Date(2026, 11, 9, 0, 0, 0, 0, time.UTC)
		f.Closes.Date.SetDate(&closes)
		test.Tap(f.Save)
		h.wait()
		h.assertDialog("the voting window must open")
		h.closeDialogs()
	})
	t.Run("ErrBadTime", func(t *testing.T) {
		test.Tap(es.Edit)
		f := es.EditForm
		f.Opens.Time.SetText("25:00")
		test.Tap(f.Save)
		h.wait()
		h.assertDialog("voting opens: the time \"25:00\" is not a time of day")
		h.closeDialogs()
	})
	t.Run("ErrStaleVersionExplained", func(t *testing.T) {
		test.Tap(es.Edit)
		f := es.EditForm
		before := f.base.Version
		// Someone else changes the election while the form is open.
		other := "changed elsewhere"
		h.must(h.svc.UpdateElection(h.ctx, "Olivia", "Budget", 0, app.ElectionChanges{Description: &other}))
		f.Description.SetText("my edit")
		test.Tap(f.Save)
		h.wait()
		h.assertDialog("The election changed meanwhile", "you started from version", "Your changes were not saved")
		e, _ := h.svc.Election(h.ctx, "Olivia", "Budget")
		if e.Description != other {
			t.Errorf("description %q: the stale edit overwrote the other change", e.Description)
		}
		h.tapDialogButton("Reload")
		if f.base.Version == before || f.Description.Text != other {
			t.Errorf("after Reload the form shows version %d, description %q", f.base.Version, f.Description.Text)
		}
		h.closeDialogs()
	})
	t.Run("LaunchedOnlyPollBookEdits", func(t *testing.T) {
		h.must(h.svc.AddCandidates(h.ctx, "Olivia", "Budget", "Yes", "No"))
		h.must(h.svc.LaunchElection(h.ctx, "Olivia", "Budget"))
		es.refresh()
		h.wait()
		test.Tap(es.Edit)
		f := es.EditForm
		if !f.Description.Disabled() || !f.Method.Disabled() || f.AllowEdit.Disabled() {
			t.Error("a launched election's frozen settings are editable, or poll-book edits are not")
		}
		if c := h.win.Canvas().Focused(); c != f.AllowEdit {
			t.Errorf("Edit on a launched election: focus on %T, want poll-book edits", c)
		}
		test.Tap(f.AllowEdit)
		test.Tap(f.Save)
		h.wait()
		e, _ := h.svc.Election(h.ctx, "Olivia", "Budget")
		if !e.AllowEdit {
			t.Error("allowing poll-book edits was not saved")
		}
	})
}

func TestElectionsByRole(t *testing.T) {
	h := newHarness(t, nil)
	h.owner()
	h.addUser("Ursula", app.RoleUser)
	h.addUser("Oscar", app.RoleObserver)
	h.must(h.svc.CreateElection(h.ctx, "Olivia", "Olivia's", "", false))
	h.must(h.svc.CreateElection(h.ctx, "Ursula", "Ursula's", "", false))
	for _, c := range []struct {
		name      string
		user      string
		election  string
		canNew    bool
		canManage bool
	}{
		{"ObserverOnlyViews", "Oscar", "Ursula's", false, false},
		{"UserManagesOwn", "Ursula", "Ursula's", true, true},
		{"UserNotOthers", "Ursula", "Olivia's", true, false},
		{"OwnerManagesAll", "Olivia", "Ursula's", true, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			h.signIn(c.user)
			sc := h.sh.Elections
			sc.Select(c.election)
			if got := !sc.New.Disabled(); got != c.canNew {
				t.Errorf("New enabled = %v", got)
			}
			for _, b := range []*struct {
				name     string
				disabled bool
			}{{"Edit", sc.Edit.Disabled()}, {"Launch", sc.Launch.Disabled()}, {"Delete", sc.Delete.Disabled()}} {
				if !b.disabled != c.canManage {
					t.Errorf("%s enabled = %v", b.name, !b.disabled)
				}
			}
			if sc.Open.Disabled() || sc.Results.Disabled() {
				t.Error("Open or Results disabled")
			}
			// Ctrl+N does nothing for a role without USE_APPLICATION.
			sc.CreateForm = nil
			h.sh.TypedShortcut(shortcutNew)
			if (sc.CreateForm != nil) != c.canNew {
				t.Errorf("Ctrl+N opened a dialog: %v", sc.CreateForm != nil)
			}
			h.closeDialogs()
		})
	}
	t.Run("ElectionsGolden", func(t *testing.T) {
		h.signIn("Oscar")
		h.assertGolden("elections_observer.xml")
	})
}
