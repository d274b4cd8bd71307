package ui

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"votedesk/app"
	"votedesk/localstore"
	"votedesk/ui/modal"
)

func TestShellRemembers(t *testing.T) {
	h := newHarness(t, nil)
	h.owner()
	mayor(h, false)
	h.signIn("Olivia")
	t.Run("LastScreen", func(t *testing.T) {
		h.sh.OpenElection("Mayor", tabPollBook)
		h.wait()
		h.sh.SignOut()
		h.signIn("Olivia")
		if h.sh.Election == nil || h.sh.Election.name != "Mayor" || h.sh.Election.tab() != tabPollBook {
			t.Fatalf("after sign-in the shell shows %q", h.sh.screen)
		}
		h.sh.ShowScreen(screenLog)
		h.sh.SignOut()
		h.signIn("Olivia")
		if h.sh.screen != screenLog {
			t.Errorf("after sign-in the shell shows %q, want the log", h.sh.screen)
		}
	})
	t.Run("WindowSize", func(t *testing.T) {
		h.win.Resize(fyne.NewSize(900, 640))
		h.sh.SaveWindow()
		h.win.Resize(fyne.NewSize(300, 300))
		h.sh.RestoreWindow()
		if s := h.win.Canvas().Size(); s.Width != 900 || s.Height != 640 {
			t.Errorf("restored size %v", s)
		}
	})
	t.Run("ElectionDeletedMeanwhile", func(t *testing.T) {
		h.must(h.svc.CreateElection(h.ctx, "Olivia", "Sketch", "", false))
		h.sh.OpenElection("Sketch", tabOverview)
		h.wait()
		h.sh.SignOut()
		h.must(h.svc.DeleteElection(h.ctx, "Olivia", "Sketch"))
		h.signIn("Olivia")
		h.assertDialog(`election "Sketch" was deleted`)
		h.closeDialogs()
		if h.sh.Election != nil || h.sh.screen != screenElections {
			t.Errorf("after sign-in the shell shows %q, want the list", h.sh.screen)
		}
	})
	// The election last shown is shown again by id: renamed meanwhile (a
	// sync from the command line), and its name given to another, it is
	// the renamed one that opens.
	t.Run("ElectionRenamedMeanwhile", func(t *testing.T) {
		h.must(h.svc.CreateElection(h.ctx, "Olivia", "Sketch", "", false))
		h.sh.OpenElection("Sketch", tabCandidates)
		h.wait()
		id := h.sh.Election.election.ID
		h.sh.SignOut()
		h.must(h.svc.RenameElection(h.ctx, "Olivia", "Sketch", "Sketch (first)"))
		h.must(h.svc.CreateElection(h.ctx, "Olivia", "Sketch", "", false))
		h.signIn("Olivia")
		h.assertDialog(`"Sketch" is now called "Sketch (first)"`)
		h.closeDialogs()
		if h.sh.Election == nil || h.sh.Election.election.ID != id || h.sh.Election.tab() != tabCandidates {
			t.Errorf("after sign-in the shell shows %q", h.sh.screen)
		}
	})
}

func TestShellShortcutsAndMenus(t *testing.T) {
	h := newHarness(t, nil)
	h.owner()
	mayor(h, false)
	h.signIn("Olivia")
	h.sh.ShowScreen(screenElections)
	h.wait()
	t.Run("MenusShowShortcuts", func(t *testing.T) {
		var items []string
		for _, m := range h.win.MainMenu().Items {
			for _, it := range m.Items {
				if it.Shortcut != nil {
					items = append(items, it.Label+"="+it.Shortcut.ShortcutName())
				}
			}
		}
		got := strings.Join(items, " ")
		for _, want := range []string{"New election…=CustomDesktop:Control+N", "Find…=CustomDesktop:Control+F", "Results=CustomDesktop:Control+R", "Refresh=CustomDesktop:F5"} {
			if !strings.Contains(got, want) {
				t.Errorf("menus lack %s: %s", want, got)
			}
		}
	})
	t.Run("Ctrl+R", func(t *testing.T) {
		h.sh.Elections.Select("Mayor")
		h.sh.TypedShortcut(shortcutResults)
		h.wait()
		if h.sh.Election == nil || h.sh.Election.tab() != tabResults || h.sh.Election.Results.count == nil {
			t.Fatal("Ctrl+R does not show the counted results")
		}
	})
	t.Run("Ctrl+F", func(t *testing.T) {
		h.sh.TypedShortcut(shortcutFind)
		h.wait()
		if h.sh.Election.tab() != tabPollBook || h.win.Canvas().Focused() != h.sh.Election.PollBook.Search {
			t.Error("Ctrl+F in an election does not search its poll book")
		}
	})
	t.Run("F5", func(t *testing.T) {
		h.sh.ShowScreen(screenElections)
		h.wait()
		h.must(h.svc.CreateElection(h.ctx, "Olivia", "Library", "", false))
		if len(h.sh.Elections.shown) != 1 {
			t.Fatalf("list shows %d elections before F5", len(h.sh.Elections.shown))
		}
		h.win.Canvas().OnTypedKey()(&fyneKeyF5)
		h.wait()
		if len(h.sh.Elections.shown) != 2 {
			t.Errorf("list shows %d elections after F5", len(h.sh.Elections.shown))
		}
	})
}

func TestObserverMenus(t *testing.T) {
	h := newHarness(t, nil)
	h.owner()
	h.addUser("Oscar", app.RoleObserver)
	h.signIn("Oscar")
	for _, m := range h.win.MainMenu().Items {
		for _, it := range m.Items {
			if strings.HasPrefix(it.Label, "New election") && !it.Disabled {
				t.Error("an OBSERVER's menu offers New election")
			}
		}
	}
}

func TestBackupFromMenu(t *testing.T) {
	h := newHarness(t, nil)
	h.sh.cfg.Backup = h.store.Backup
	h.owner()
	h.addUser("Ursula", app.RoleUser)
	dest := filepath.Join(t.TempDir(), "copy.db")
	t.Run("HiddenBelowAuditor", func(t *testing.T) {
		h.signIn("Ursula")
		h.sh.Backup(dest)
		h.wait()
		if _, err := os.Stat(dest); err == nil {
			t.Error("a USER wrote a backup")
		}
	})
	t.Run("Written", func(t *testing.T) {
		h.signIn("Olivia")
		h.sh.Backup(dest)
		h.wait()
		h.assertDialog("Backed up", "2 events")
		h.closeDialogs()
		st, err := localstore.Open(dest)
		h.must(err)
		defer st.Close()
		if ok, err := app.NewService(st, nil, nil).HasUsers(h.ctx); !ok || err != nil {
			t.Errorf("the backup holds no users (%v)", err)
		}
	})
}

func TestRestoreFromMenu(t *testing.T) {
	h := newHarness(t, nil)
	var asked string
	h.sh.cfg.CheckBackup = localstore.CheckFile
	h.sh.cfg.Restore = func(path string) { asked = path }
	h.owner()
	h.addUser("Ursula", app.RoleAuditor)
	backup := filepath.Join(t.TempDir(), "backup.db")
	_, err := h.store.Backup(h.ctx, backup)
	h.must(err)
	t.Run("OwnerOnly", func(t *testing.T) {
		h.signIn("Ursula")
		h.sh.CheckRestore(backup)
		h.wait()
		if len(h.overlays()) != 0 || asked != "" {
			t.Error("an AUDITOR was offered a restore")
		}
	})
	t.Run("ErrNotADatabase", func(t *testing.T) {
		h.signIn("Olivia")
		bad := filepath.Join(t.TempDir(), "bad.db")
		h.must(os.WriteFile(bad, []byte("this is not a database"), 0o600))
		h.sh.CheckRestore(bad)
		h.wait()
		h.assertDialog("not a VoteDesk database")
		h.closeDialogs()
		if asked != "" {
			t.Error("a bad backup was handed on to restore")
		}
	})
	t.Run("AnotherInstallationNeedsItsOwnersName", func(t *testing.T) {
		// A database made elsewhere, with an OWNER of the same name: the
		// account, not the name, decides whose database it is.
		st := mustOpenStore(t)
		svc := app.NewService(st, nil, nil)
		h.must(svc.RegisterUser(h.ctx, "", "Olivia", "olivia@example.org", "mallory-password"))
		other := filepath.Join(t.TempDir(), "other.db")
		_, err := st.Backup(h.ctx, other)
		h.must(err)
		h.signIn("Olivia")
		for _, typed := range []string{"", "Mallory", "Olivia"} {
			h.sh.CheckRestore(other)
			h.wait()
			h.assertDialog("another installation's database", "your account Olivia is not in it", "OWNER (Olivia)")
			if typed == "Olivia" {
				h.typeInDialog(typed)
				h.tapDialogButton("Restore")
				break
			}
			if typed != "" {
				h.typeInDialog(typed)
			}
			h.tapDialogButton("Restore")
			if typed != "" {
				h.assertDialog("nothing was restored")
			}
			h.closeDialogs()
			if asked != "" {
				t.Fatalf("restore handed on after typing %q", typed)
			}
		}
		if asked != other {
			t.Errorf("restore asked for %q after the OWNER's name was typed", asked)
		}
		asked = ""
	})
	t.Run("ConfirmedRestoreIsHandedOn", func(t *testing.T) {
		h.signIn("Olivia")
		h.sh.CheckRestore(backup)
		h.wait()
		h.assertDialog("Restore from backup", "holds 3 events", ".before-restore")
		h.tapDialogButton("Yes")
		if asked != backup {
			t.Errorf("restore asked for %q, want %q", asked, backup)
		}
	})
}

// TestSidebarLeavesAnOpenElection: with an election open, choosing
// "Elections" in the sidebar goes back to the list (it was already
// selected, so nothing happened).
func TestSidebarLeavesAnOpenElection(t *testing.T) {
	h := newHarness(t, nil)
	h.owner()
	h.must(h.svc.CreateElection(h.ctx, "Olivia", "Mayor", "", false))
	h.signIn("Olivia")
	h.sh.OpenElection("Mayor", tabOverview)
	h.wait()
	if h.sh.Election == nil {
		t.Fatal("the election did not open")
	}
	h.sh.Nav.Select(0) // Elections
	h.wait()
	if h.sh.Election != nil || h.sh.screen != screenElections {
		t.Errorf("after choosing Elections: screen %q, election open %v", h.sh.screen, h.sh.Election != nil)
	}
	h.sh.ShowScreen(screenUsers)
	h.sh.Nav.Select(0)
	if h.sh.screen != screenElections {
		t.Errorf("Users then Elections: screen %q", h.sh.screen)
	}
}

// mayorListed is the app signed in as its owner on the elections list,
// which holds the election Mayor.
func mayorListed(t *testing.T) *harness {
	h := newHarness(t, nil)
	h.owner()
	h.must(h.svc.CreateElection(h.ctx, "Olivia", "Mayor", "", false))
	h.signIn("Olivia")
	h.sh.ShowScreen(screenElections)
	h.wait()
	return h
}

// TestEnterOpensAnElection: on the elections list, the keyboard reaches an
// election and Enter opens it.
func TestEnterOpensAnElection(t *testing.T) {
	h := mayorListed(t)
	tbl := h.sh.Elections.Table
	h.win.Canvas().Focus(tbl)
	tbl.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	h.wait()
	if h.sh.Election == nil || h.sh.screen != "election:Mayor" {
		t.Errorf("Enter on the list: screen %q", h.sh.screen)
	}
}

// TestDoubleClickOpensAnElection: a double click on an election's row opens
// that election, whichever row was selected before.
func TestDoubleClickOpensAnElection(t *testing.T) {
	h := newHarness(t, nil)
	h.owner()
	for _, name := range []string{"Mayor", "School board"} {
		h.must(h.svc.CreateElection(h.ctx, "Olivia", name, "", false))
	}
	h.signIn("Olivia")
	h.sh.ShowScreen(screenElections)
	h.wait()
	sc := h.sh.Elections
	row := slices.IndexFunc(sc.shown, func(e app.Election) bool { return e.Name == "School board" })
	if row < 0 {
		t.Fatalf("School board is not listed: %v", sc.shown)
	}
	// Rows are as tall as a label, below a header row as tall, with a
	// separator between.
	cellH := widget.NewLabel("x").MinSize().Height + theme.SeparatorThicknessSize()
	at := fyne.NewPos(20, cellH*float32(row+1)+cellH/2)
	sc.Table.DoubleTapped(&fyne.PointEvent{Position: at})
	h.wait()
	if h.sh.Election == nil || h.sh.screen != "election:School board" {
		t.Errorf("double click on row %d: screen %q", row, h.sh.screen)
	}
}

// TestClickThenEnterOpensAnElection: a click on a row gives the list the
// focus, shown by its ring, so Enter then opens the row; the ring goes when
// the focus leaves.
func TestClickThenEnterOpensAnElection(t *testing.T) {
	h := mayorListed(t)
	sc := h.sh.Elections
	c := h.win.Canvas()
	ring := func() bool {
		r := test.WidgetRenderer(sc.Table).(*ringRenderer)
		return r.ring.Visible()
	}
	if ring() {
		t.Fatal("the focus ring shows before the list has the focus")
	}
	cellH := widget.NewLabel("x").MinSize().Height + theme.SeparatorThicknessSize()
	sc.Table.Tapped(&fyne.PointEvent{Position: fyne.NewPos(20, cellH*1.5)})
	h.wait()
	if c.Focused() != fyne.Focusable(sc.Table) || !ring() {
		t.Fatalf("after a click: focus on %T, ring %v", c.Focused(), ring())
	}
	c.Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	h.wait()
	if h.sh.screen != "election:Mayor" {
		t.Errorf("click then Enter: screen %q", h.sh.screen)
	}
	c.Unfocus()
	if ring() {
		t.Error("the ring stayed after the focus left")
	}
}

// TestKeyboardReachesEveryView: tab strips take no focus, so the keyboard
// opens an election's tabs with Ctrl+1 to Ctrl+5 and steps through the
// views of what is shown with Ctrl+PageDown and Ctrl+PageUp; the keyboard
// leaves the view it was in, and lands in the new one's field to type in
// where it has one.
func TestKeyboardReachesEveryView(t *testing.T) {
	h := mayorListed(t)
	h.sh.OpenElection("Mayor", tabOverview)
	h.wait()
	e := h.sh.Election
	c := h.win.Canvas()
	for i, sc := range shortcutTabs {
		h.sh.TypedShortcut(sc)
		h.wait()
		if e.tab() != tabNames[i] {
			t.Errorf("%s: tab %q, want %q", shortcutLabel(sc), e.tab(), tabNames[i])
		}
	}
	h.sh.TypedShortcut(shortcutTabs[1]) // Candidates
	h.wait()
	if c.Focused() != e.Candidates.Name {
		t.Fatalf("Ctrl+2 on a draft: focus on %T, want the candidate's name", c.Focused())
	}
	for _, r := range "Ada; Ben" {
		c.Focused().TypedRune(r)
	}
	c.Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	h.wait()
	if cands, err := h.svc.Candidates(h.ctx, "Olivia", "Mayor"); err != nil || len(cands) != 2 {
		t.Errorf("typed after Ctrl+2 and Enter: %d candidates (%v), want 2", len(cands), err)
	}
	// A focused field gets every shortcut first (as the desktop driver
	// gives them): it hands the window's on.
	c.Focused().(fyne.Shortcutable).TypedShortcut(shortcutTabs[2])
	h.wait()
	if e.tab() != tabPollBook || c.Focused() != e.PollBook.Search {
		t.Errorf("Ctrl+3 typed in the candidate's name: tab %q, focus on %T", e.tab(), c.Focused())
	}
	h.sh.TypedShortcut(shortcutTabs[1])
	c.Focus(e.Back)
	h.sh.TypedShortcut(shortcutNextView)
	h.wait()
	if e.tab() != tabPollBook || c.Focused() != e.PollBook.Search {
		t.Errorf("Ctrl+PageDown from Candidates: tab %q, focus on %T, want the poll book's search", e.tab(), c.Focused())
	}
	h.sh.TypedShortcut(shortcutNextView) // Results: its own views from here
	h.wait()
	first := e.Results.Tabs.SelectedIndex()
	h.sh.TypedShortcut(shortcutNextView)
	if e.tab() != tabResults || e.Results.Tabs.SelectedIndex() != (first+1)%len(e.Results.Tabs.Items) {
		t.Errorf("Ctrl+PageDown on Results: tab %q, view %d after %d", e.tab(), e.Results.Tabs.SelectedIndex(), first)
	}
	h.sh.TypedShortcut(shortcutPrevView)
	h.sh.TypedShortcut(shortcutPrevView)
	if want := (first - 1 + len(e.Results.Tabs.Items)) % len(e.Results.Tabs.Items); e.Results.Tabs.SelectedIndex() != want {
		t.Errorf("Ctrl+PageUp twice: view %d, want %d", e.Results.Tabs.SelectedIndex(), want)
	}
	h.sh.TypedShortcut(shortcutTabs[0])
	if c.Focused() != nil {
		t.Errorf("Ctrl+1: the Overview has nothing to type in, and the focus is on %T", c.Focused())
	}
	h.sh.TypedShortcut(shortcutPrevView) // round from Overview to Audit
	if e.tab() != tabAudit {
		t.Errorf("Ctrl+PageUp on Overview: tab %q", e.tab())
	}
	h.sh.ShowScreen(screenSync)
	h.sh.TypedShortcut(shortcutNextView)
	if h.sh.Sync.Tabs.SelectedIndex() != 1 {
		t.Errorf("Ctrl+PageDown on Sync: list %d", h.sh.Sync.Tabs.SelectedIndex())
	}
	h.sh.ShowScreen(screenUsers)
	h.sh.TypedShortcut(shortcutNextView) // nothing to step through
	h.sh.TypedShortcut(shortcutTabs[0])  // no election open
	if h.sh.screen != screenUsers {
		t.Errorf("view keys on Users: screen %q", h.sh.screen)
	}
}

// TestRememberedElectionNotHere: the election open when the last session
// ended (remembered per user of the machine, whatever the database) is not
// in this database: sign-in shows the elections list, without a dialog.
func TestRememberedElectionNotHere(t *testing.T) {
	for _, id := range []string{"", "0000feed-0000-0000-0000-00000000feed"} {
		h := newHarness(t, nil)
		h.owner()
		h.app.Preferences().SetString(prefScreen, "election:Mayor 2009\x1f"+tabResults+"\x1f"+id)
		h.signIn("Olivia")
		h.wait()
		if h.sh.screen != screenElections || h.sh.Election != nil {
			t.Errorf("id %q: screen %q after sign-in, want the elections list", id, h.sh.screen)
		}
		if d := h.dialogText(); d != "" {
			t.Errorf("id %q: a dialog shows at sign-in: %q", id, d)
		}
	}
}

// TestSearchEnterGoesToTheList: Enter in a list's search takes the
// keyboard to the list, its first row selected, so Enter again opens it;
// with nothing found, Enter stays in the search.
func TestSearchEnterGoesToTheList(t *testing.T) {
	h := mayorListed(t)
	h.must(h.svc.CreateElection(h.ctx, "Olivia", "Mayor runoff", "", false))
	h.sh.Refresh()
	h.wait()
	c := h.win.Canvas()
	enter := &fyne.KeyEvent{Name: fyne.KeyReturn}
	typeIn := func(e *modal.Entry, text string) {
		c.Focus(e)
		e.SetText(text)
		e.TypedKey(enter)
		h.wait()
	}
	sc := h.sh.Elections
	typeIn(sc.Search, "nothing like it")
	if c.Focused() != sc.Search {
		t.Errorf("Enter with nothing found: focus on %T", c.Focused())
	}
	typeIn(sc.Search, "mayor")
	if c.Focused() != sc.Table || sc.selected != "Mayor" {
		t.Fatalf("Enter in the elections' search: focus on %T, %q selected; want the list, Mayor", c.Focused(), sc.selected)
	}
	c.Focused().TypedKey(enter)
	h.wait()
	if h.sh.Election == nil || h.sh.screen != "election:Mayor" {
		t.Errorf("Enter on the list after the search: screen %q", h.sh.screen)
	}

	h.sh.ShowScreen(screenLog)
	h.wait()
	log := h.sh.Audit
	typeIn(log.Search, "runoff")
	if c.Focused() != log.Table || !strings.Contains(log.Detail.Text, "Mayor runoff") {
		t.Errorf("Enter in the audit log's search: focus on %T, detail %q", c.Focused(), log.Detail.Text)
	}
}
