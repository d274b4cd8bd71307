package ui

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"votedesk/app"
	"votedesk/ui/modal"
	"votedesk/ui/offui"
)

// The preference keys the app remembers.
const (
	prefWindow       = "window.size"
	prefScreen       = "screen"
	prefLogin        = "login"
	prefSyncInterval = "sync.interval"
)

// The main screens (sections of the navigation).
const (
	screenElections = "elections"
	screenUsers     = "users"
	screenLog       = "log"
	screenSync      = "sync"
)

var sections = []struct {
	id, label string
	icon      func() fyne.Resource // the theme's icon, looked up once an app runs
}{
	{screenElections, "Elections", theme.DocumentIcon},
	{screenUsers, "Users and roles", theme.AccountIcon},
	{screenLog, "Audit log", theme.HistoryIcon},
	{screenSync, "Sync", theme.StorageIcon},
}

// Shell is the main window's frame: the first-run or sign-in screen, then
// the signed-in user's screens with a navigation column, menus and keyboard
// shortcuts. It remembers the window size and the last screen.
type Shell struct {
	app   fyne.App
	win   fyne.Window
	cfg   Config
	tasks *offui.Runner
	sess  *session

	FirstRun *FirstRunScreen
	// joinDialog is the open Join from the cloud dialog, if any.
	joinDialog *modal.Dialog
	SignIn     *SignInScreen
	Elections  *ElectionsScreen
	Election   *ElectionScreen
	// restoring is set while the screen of the last session is shown
	// again at sign-in.
	restoring bool
	Users     *UsersScreen
	Audit     *AuditScreen
	Sync      *SyncScreen
	Nav       *navList
	UserLabel *widget.Label

	screen string // the section shown, or "election:NAME"
	since  func(time.Time) time.Duration
	body   *fyne.Container
}

// NewShell builds the frame over a window.
func NewShell(a fyne.App, w fyne.Window, cfg Config) *Shell {
	return &Shell{app: a, win: w, cfg: cfg, tasks: offui.New(), since: time.Since}
}

// Show puts the first screen in the window: first run on an empty
// database, otherwise sign-in.
func (sh *Shell) Show() {
	p := sh.app.Preferences()
	sh.win.SetMainMenu(nil)
	modal.Keys(sh.win.Canvas(), nil)
	has, err := sh.cfg.Service.HasUsers(context.Background())
	if err != nil {
		sh.win.SetContent(widget.NewLabel(app.ErrorMessage(err)))
		return
	}
	if !has {
		var join func()
		if sh.cfg.Sync != nil {
			join = sh.JoinCloud
		}
		sh.FirstRun = newFirstRunScreen(sh.cfg.Service, sh.win, sh.tasks, sh.cfg.Icon, sh.signedIn, join)
		sh.win.SetContent(sh.FirstRun.content)
		sh.win.Canvas().Focus(sh.FirstRun.Name)
		return
	}
	sh.SignIn = newSignInScreen(sh.cfg.Service, sh.win, sh.tasks, sh.cfg.Icon, p.String(loginKey(sh.cfg.DBPath)), sh.signedIn)
	sh.win.SetContent(sh.SignIn.content)
	if sh.SignIn.Login.Text == "" {
		sh.win.Canvas().Focus(sh.SignIn.Login)
	} else {
		sh.win.Canvas().Focus(sh.SignIn.Password)
	}
}

// loginKey is the preference that remembers who signed in last to the
// database at path: each database its own, so that another database's
// sign-in screen does not offer (and show) a name that is not one of its
// users.
func loginKey(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	sum := sha256.Sum256([]byte(path))
	return prefLogin + "." + hex.EncodeToString(sum[:8])
}

// RestoreWindow sizes the window as it was when last closed.
func (sh *Shell) RestoreWindow() {
	w, h := float32(1180), float32(760)
	if _, err := fmt.Sscanf(sh.app.Preferences().String(prefWindow), "%gx%g", &w, &h); err != nil || w < 400 || h < 300 {
		w, h = 1180, 760
	}
	sh.win.Resize(fyne.NewSize(w, h))
}

// Wait blocks until the work started off the UI goroutine has delivered
// its result, and the timers that are due have run (offui.Runner.Wait);
// tests and screenshots use it.
func (sh *Shell) Wait() { sh.tasks.Wait() }

// SaveWindow remembers the window size when it changed, as one preference
// so that it is written once.
func (sh *Shell) SaveWindow() {
	s := sh.win.Canvas().Size()
	v := fmt.Sprintf("%gx%g", s.Width, s.Height)
	p := sh.app.Preferences()
	if s.Width > 0 && s.Height > 0 && p.String(prefWindow) != v {
		p.SetString(prefWindow, v)
	}
}

// signedIn builds the user's screens and shows the one they were on last.
func (sh *Shell) signedIn(u app.User) {
	sh.app.Preferences().SetString(loginKey(sh.cfg.DBPath), u.Name)
	sh.sess = &session{svc: sh.cfg.Service, user: u, win: sh.win, tasks: sh.tasks, prefs: sh.app.Preferences(), sync: sh.cfg.Sync, since: sh.since, changed: sh.roleMayHaveChanged, kioskDone: sh.afterKiosk, keep: sh.keep}
	sh.build()
	last := sh.app.Preferences().StringWithFallback(prefScreen, screenElections)
	if name, ok := strings.CutPrefix(last, "election:"); ok {
		name, rest, _ := strings.Cut(name, "\x1f")
		tab, id, _ := strings.Cut(rest, "\x1f")
		sh.ShowScreen(screenElections)
		sh.restoring = true
		sh.openElection(name, id, tab)
		sh.restoring = false
		return
	}
	sh.ShowScreen(last)
}

// build makes the screens of the signed-in user.
func (sh *Shell) build() {
	s := sh.sess
	if sh.Sync != nil {
		sh.Sync.stop()
	}
	sh.Elections = newElectionsScreen(s, sh.OpenElection)
	sh.Users = newUsersScreen(s)
	sh.Audit = newAuditScreen(s)
	sh.Sync = newSyncScreen(s)
	sh.Sync.schedule(false)
	sh.Election = nil
	sh.Nav = newNavList(func() int { return len(sections) },
		func() fyne.CanvasObject {
			return container.NewHBox(widget.NewIcon(theme.DocumentIcon()), widget.NewLabel("Users and roles"))
		},
		func(i widget.ListItemID, o fyne.CanvasObject) {
			row := o.(*fyne.Container)
			row.Objects[0].(*widget.Icon).SetResource(sections[i].icon())
			row.Objects[1].(*widget.Label).SetText(sections[i].label)
		})
	sh.Nav.OnSelected = func(i widget.ListItemID) {
		// "Elections" also leaves an open election for the list.
		if id := sections[i].id; id != sh.screen {
			sh.ShowScreen(id)
		}
	}
	sh.UserLabel = widget.NewLabel(s.user.Name + " · " + s.user.Role.String())
	signOut := modal.NewButtonWithIcon("Sign out", theme.LogoutIcon(), sh.SignOut)
	signOut.Importance = widget.LowImportance
	brand := widget.NewLabelWithStyle("VoteDesk", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	side := container.NewBorder(brand, container.NewVBox(widget.NewSeparator(), sh.UserLabel, signOut), nil, nil, sh.Nav)
	sh.body = container.NewStack()
	split := container.NewHSplit(side, container.NewPadded(sh.body))
	split.SetOffset(0.17)
	sh.win.SetContent(split)
	sh.win.SetMainMenu(sh.menu())
	sh.shortcuts()
}

// section is the navigation section of the screen shown.
func (sh *Shell) section() string {
	if strings.HasPrefix(sh.screen, "election:") {
		return screenElections
	}
	return sh.screen
}

// ShowScreen shows one of the main screens and reloads it.
func (sh *Shell) ShowScreen(id string) {
	var content fyne.CanvasObject
	switch id {
	case screenUsers:
		content = sh.Users.content
		sh.Users.refresh()
	case screenLog:
		content = sh.Audit.content
		sh.Audit.refresh()
	case screenSync:
		content = sh.Sync.content
		sh.Sync.refresh()
	default:
		id = screenElections
		content = sh.Elections.content
		sh.Elections.refresh()
	}
	sh.leaveElection()
	sh.setScreen(id, content)
}

// leaveElection closes the election screen, if one is open: its late
// answers are dropped, and commands are no longer held to it.
func (sh *Shell) leaveElection() {
	if sh.Election != nil {
		sh.Election.closed = true
	}
	sh.Election = nil
	if sh.sess != nil {
		sh.sess.showing("", "")
	}
}

func (sh *Shell) setScreen(id string, content fyne.CanvasObject) {
	sh.screen = id
	sh.body.Objects = []fyne.CanvasObject{content}
	sh.body.Refresh()
	if sh.section() != id {
		// An open election: no item is selected, so choosing "Elections"
		// goes back to the list.
		sh.Nav.UnselectAll()
	}
	for i, s := range sections {
		if s.id == id {
			sh.Nav.Select(i)
		}
	}
	sh.remember()
}

// remember stores the screen shown (and an election's tab).
func (sh *Shell) remember() {
	v := sh.screen
	if sh.Election != nil {
		// The id too, once known: the election is shown again by id.
		v += "\x1f" + sh.Election.tab() + "\x1f" + sh.Election.id
	}
	sh.app.Preferences().SetString(prefScreen, v)
}

// OpenElection shows one election on the given tab ("" for the overview).
func (sh *Shell) OpenElection(name, tab string) { sh.openElection(name, "", tab) }

// openElection is OpenElection for an election whose id may be known.
func (sh *Shell) openElection(name, id, tab string) {
	if name == "" {
		return
	}
	sh.leaveElection()
	e := newElectionScreen(sh.sess, name, func() { sh.ShowScreen(screenElections) }, func(string) {
		if sh.Election != nil {
			sh.remember()
		}
	})
	e.id = id
	e.loaded = func() {
		if sh.Election == e {
			sh.remember()
		}
	}
	e.renamed = func(newName string) {
		sh.openElection(newName, e.id, e.tab())
		modal.ShowInformation("Election renamed", fmt.Sprintf("%q is now called %q: a sync or another official renamed it while it was open here, and it is shown under its new name.", name, newName), sh.win)
	}
	e.gone = func(err error) {
		sh.ShowScreen(screenElections)
		modal.ShowInformation(fmt.Sprintf("%q is no longer here", name), app.ErrorMessage(err), sh.win)
	}
	if sh.restoring {
		// Remembered from an earlier session, perhaps of another
		// database: if it is not here, the list, without a word.
		e.missing = func() {
			if sh.Election == e {
				sh.ShowScreen(screenElections)
			}
		}
	}
	sh.setScreen("election:"+name, e.content)
	sh.Election = e
	e.ShowTab(tab)
	e.refresh()
	sh.remember()
}

// Refresh reloads the screen shown (F5).
func (sh *Shell) Refresh() {
	if sh.sess == nil {
		return
	}
	if sh.Election != nil {
		sh.Election.refresh()
		return
	}
	switch sh.screen {
	case screenUsers:
		sh.Users.refresh()
	case screenLog:
		sh.Audit.refresh()
	case screenSync:
		sh.Sync.refresh()
	default:
		sh.Elections.refresh()
	}
}

// Find puts the cursor in the search field of the screen shown (Ctrl+F).
func (sh *Shell) Find() {
	if sh.sess == nil {
		return
	}
	var e *modal.Entry
	switch {
	case sh.Election != nil:
		sh.Election.ShowTab(tabPollBook)
		e = sh.Election.PollBook.Search
	case sh.screen == screenLog:
		e = sh.Audit.Search
	default:
		sh.ShowScreen(screenElections)
		e = sh.Elections.Search
	}
	sh.win.Canvas().Focus(e)
}

// NewElection opens the New election dialog (Ctrl+N).
func (sh *Shell) NewElection() {
	if sh.sess == nil {
		return
	}
	if sh.Election != nil || sh.screen != screenElections {
		sh.ShowScreen(screenElections)
	}
	sh.Elections.NewElection()
}

// ShowResults shows the results of the open or selected election (Ctrl+R).
func (sh *Shell) ShowResults() {
	switch {
	case sh.sess == nil:
	case sh.Election != nil:
		sh.Election.ShowTab(tabResults)
	case sh.screen == screenElections && sh.Elections.selected != "":
		sh.OpenElection(sh.Elections.selected, tabResults)
	}
}

// ShowAudit shows the risk-limiting audit of the open or selected election
// (Ctrl+Shift+A).
func (sh *Shell) ShowAudit() {
	switch {
	case sh.sess == nil:
	case sh.Election != nil:
		sh.Election.ShowTab(tabAudit)
	case sh.screen == screenElections && sh.Elections.selected != "":
		sh.OpenElection(sh.Elections.selected, tabAudit)
	}
}

// afterKiosk gets the window back from a kiosk (which has left full screen)
// and asks for sign-in again: the kiosk's passcode is known to poll
// workers, so the official's session must not outlive the kiosk.
func (sh *Shell) afterKiosk() {
	sh.SignOut()
}

// SignOut forgets the user and shows the sign-in screen.
func (sh *Shell) SignOut() {
	if sh.Sync != nil {
		sh.Sync.stop()
	}
	sh.leaveElection()
	sh.sess = nil
	sh.Show()
}

// roleMayHaveChanged re-reads the signed-in user after a command that may
// change their role (ownership handed over), and rebuilds the screens if it
// did.
func (sh *Shell) roleMayHaveChanged() {
	s := sh.sess
	if s == nil {
		return
	}
	load(s, "Cannot read your account", func(ctx context.Context) (app.User, error) {
		return s.svc.User(ctx, s.actor(), s.actor())
	}, func(u app.User) {
		if sh.sess != s {
			return
		}
		if u.Role == s.user.Role {
			sh.Refresh()
			return
		}
		s.user = u
		screen := sh.screen
		sh.build()
		sh.ShowScreen(screen)
		modal.ShowInformation("Your role changed", "You are now "+u.Role.String()+"; the screens show what that role may do.", sh.win)
	})
}

// keep writes a copy of the database beside it, named by app.KeptName.
func (sh *Shell) keep(ctx context.Context, before string) (string, error) {
	if sh.cfg.Backup == nil {
		return "", app.Errorf(app.CodeUnavailable, "this app cannot back up the database, so it keeps no copy before %s", before)
	}
	path := app.KeptName(sh.cfg.DBPath, before, sh.cfg.Service.Now())
	_, err := sh.cfg.Backup(ctx, path)
	return path, err
}

// chooseBackup asks where to write a backup of the database, then writes it.
func (sh *Shell) chooseBackup() {
	if sh.sess == nil {
		return
	}
	askSavePath(sh.sess, prefBackupFolder, "Back up database", "votedesk-backup-"+sh.cfg.Service.Now().Local().Format("2006-01-02-1504")+".db", false, sh.Backup)
}

// Backup writes a consistent copy of the database to path, off the UI
// goroutine. A backup holds everything, secret ballots included, so it
// needs VIEW_SECRETS.
func (sh *Shell) Backup(path string) {
	s := sh.sess
	if s == nil || sh.cfg.Backup == nil || !s.can(app.PermViewSecrets) {
		return
	}
	load(s, "Cannot back up", func(ctx context.Context) (app.BackupInfo, error) {
		return sh.cfg.Backup(ctx, path)
	}, func(info app.BackupInfo) {
		modal.ShowInformation("Backed up", fmt.Sprintf("%s (%s bytes) written to %s.", plural(int64(info.Events), "event", "events"), fmtCount(info.Size), info.Path), sh.win)
	})
}

// chooseRestore asks for the backup to restore.
func (sh *Shell) chooseRestore() {
	askOpenPath(sh.sess, openSpec{Title: "Restore a backup", Hint: "The backup to restore: a .db file written by File › Back up. It is checked before anything changes.",
		Kinds: []fileKind{{".db", "VoteDesk database or backup"}}, Files: true, Start: rememberedFolder(sh.sess, prefBackupFolder)}, sh.CheckRestore)
}

// CheckRestore verifies the backup at path off the UI goroutine and, when it
// is sound, asks the OWNER to confirm replacing the database with it (the
// whole database: only the OWNER may). Confirming closes the app, which
// restores the backup and starts again; the replaced database is kept.
func (sh *Shell) CheckRestore(path string) {
	s := sh.sess
	if s == nil || sh.cfg.Restore == nil || sh.cfg.CheckBackup == nil || !s.can(app.PermTransferOwner) {
		return
	}
	load(s, "Cannot restore", func(ctx context.Context) (app.VerifyReport, error) {
		return sh.cfg.CheckBackup(ctx, path)
	}, func(r app.VerifyReport) {
		if !r.OK() {
			modal.ShowInformation("This backup cannot be restored", fmt.Sprintf("%s fails its check:\n%s\n\nNothing was changed.", path, strings.Join(r.Problems, "\n")), sh.win)
			return
		}
		msg := fmt.Sprintf("%s holds %s and checks out (hash chain whole, projection matches its log).\n\n"+
			"Replace this database with it? Everything done since the backup is set aside: the current database is kept beside it as a .before-restore file. VoteDesk closes and opens again on the restored database.",
			path, plural(int64(r.Events), "event", "events"))
		restore := func() {
			sh.cfg.Restore(path)
			sh.app.Quit()
		}
		if r.RestoreRefusal(s.user, "") == nil {
			modal.ShowConfirm("Restore from backup", msg, func(ok bool) {
				if ok {
					restore()
				}
			}, sh.win)
			return
		}
		// Another installation's database: its OWNER would own this one.
		owners := r.OwnerNames()
		warn := widget.NewLabel(fmt.Sprintf("%s\n\nThis backup is another installation's database: your account %s is not in it, and after the restore its OWNER (%s) owns this installation and you cannot sign in. Type the name of its OWNER to restore it anyway.",
			msg, s.user.Name, strings.Join(owners, ", ")))
		warn.Wrapping = fyne.TextWrapWord
		confirm := modal.NewEntry()
		d := modal.NewCustomConfirm("Restore another installation's database", "Restore", "Cancel", container.NewVBox(warn, confirm), func(ok bool) {
			if !ok {
				return
			}
			if err := r.RestoreRefusal(s.user, strings.TrimSpace(confirm.Text)); err != nil {
				s.fail("Not restored", app.Errorf(app.CodeInvalid, "the name typed is not the backup's OWNER; nothing was restored"))
				return
			}
			restore()
		}, sh.win)
		d.Resize(fyne.NewSize(520, 0))
		modal.Show(sh.win, d, nil)
	})
}

// Shortcuts of the main actions, shown in the menus.
var (
	shortcutNew     = &desktop.CustomShortcut{KeyName: fyne.KeyN, Modifier: fyne.KeyModifierShortcutDefault}
	shortcutFind    = &desktop.CustomShortcut{KeyName: fyne.KeyF, Modifier: fyne.KeyModifierShortcutDefault}
	shortcutResults = &desktop.CustomShortcut{KeyName: fyne.KeyR, Modifier: fyne.KeyModifierShortcutDefault}
	shortcutAudit   = &desktop.CustomShortcut{KeyName: fyne.KeyA, Modifier: fyne.KeyModifierShortcutDefault | fyne.KeyModifierShift}
	shortcutRefresh = &desktop.CustomShortcut{KeyName: fyne.KeyF5}
	shortcutSignOut = &desktop.CustomShortcut{KeyName: fyne.KeyL, Modifier: fyne.KeyModifierShortcutDefault | fyne.KeyModifierShift}
	// shortcutNextView and shortcutPrevView move through the views of what
	// is shown (see Shell.views): tab strips take no keyboard focus.
	shortcutNextView = &desktop.CustomShortcut{KeyName: fyne.KeyPageDown, Modifier: fyne.KeyModifierShortcutDefault}
	shortcutPrevView = &desktop.CustomShortcut{KeyName: fyne.KeyPageUp, Modifier: fyne.KeyModifierShortcutDefault}
)

// shortcutTabs open an election's tabs in order, Ctrl+1 to Ctrl+5.
var shortcutTabs = func() []*desktop.CustomShortcut {
	keys := []fyne.KeyName{fyne.Key1, fyne.Key2, fyne.Key3, fyne.Key4, fyne.Key5}
	out := make([]*desktop.CustomShortcut, len(tabNames))
	for i := range tabNames {
		out[i] = &desktop.CustomShortcut{KeyName: keys[i], Modifier: fyne.KeyModifierShortcutDefault}
	}
	return out
}()

// menu builds the main menu; each item names its shortcut.
func (sh *Shell) menu() *fyne.MainMenu {
	item := func(label string, sc fyne.Shortcut, f func()) *fyne.MenuItem {
		m := fyne.NewMenuItem(label, f)
		m.Shortcut = sc
		return m
	}
	newItem := item("New election…", shortcutNew, sh.NewElection)
	newItem.Disabled = !sh.sess.can(app.PermUseApplication)
	backup := fyne.NewMenuItem("Back up database…", sh.chooseBackup)
	backup.Disabled = sh.cfg.Backup == nil || !sh.sess.can(app.PermViewSecrets)
	restore := fyne.NewMenuItem("Restore from backup…", sh.chooseRestore)
	restore.Disabled = sh.cfg.Restore == nil || sh.cfg.CheckBackup == nil || !sh.sess.can(app.PermTransferOwner)
	file := fyne.NewMenu("File", newItem, backup, restore, fyne.NewMenuItemSeparator(), item("Sign out", shortcutSignOut, sh.SignOut))
	edit := fyne.NewMenu("Election", item("Find…", shortcutFind, sh.Find), item("Results", shortcutResults, sh.ShowResults),
		item("Risk-limiting audit", shortcutAudit, sh.ShowAudit))
	var views []*fyne.MenuItem
	for _, s := range sections {
		id := s.id
		views = append(views, fyne.NewMenuItem(s.label, func() { sh.ShowScreen(id) }))
	}
	views = append(views, fyne.NewMenuItemSeparator(), item("Refresh", shortcutRefresh, sh.Refresh))
	help := fyne.NewMenu("Help", fyne.NewMenuItem("Getting started", sh.ShowGuide),
		fyne.NewMenuItem("Keyboard shortcuts", sh.ShowShortcuts), fyne.NewMenuItemSeparator(), fyne.NewMenuItem("About VoteDesk", func() {
			md := sh.app.Metadata()
			modal.ShowInformation("About VoteDesk", "VoteDesk "+md.Version+"\nLocal-first election tool for election officials.\nDatabase: "+sh.cfg.DBPath, sh.win)
		}))
	return fyne.NewMainMenu(file, edit, fyne.NewMenu("View", views...), help)
}

// shortcuts binds the keyboard shortcuts on the window's canvas. F5 has no
// modifier, which Fyne's shortcut handling needs, so the canvas key handler
// takes it.
func (sh *Shell) shortcuts() {
	c := sh.win.Canvas()
	list := []fyne.Shortcut{shortcutNew, shortcutFind, shortcutResults, shortcutAudit, shortcutSignOut, shortcutNextView, shortcutPrevView}
	for _, sc := range shortcutTabs {
		list = append(list, sc)
	}
	modal.Shortcuts(c, list, sh.TypedShortcut)
	modal.Keys(c, func(k *fyne.KeyEvent) {
		if k.Name == fyne.KeyF5 {
			sh.Refresh()
		}
	})
}

// TypedShortcut runs the action of a keyboard shortcut.
func (sh *Shell) TypedShortcut(s fyne.Shortcut) {
	switch s.ShortcutName() {
	case shortcutNew.ShortcutName():
		sh.NewElection()
	case shortcutFind.ShortcutName():
		sh.Find()
	case shortcutResults.ShortcutName():
		sh.ShowResults()
	case shortcutAudit.ShortcutName():
		sh.ShowAudit()
	case shortcutSignOut.ShortcutName():
		sh.SignOut()
	case shortcutRefresh.ShortcutName():
		sh.Refresh()
	case shortcutNextView.ShortcutName():
		sh.StepView(1)
	case shortcutPrevView.ShortcutName():
		sh.StepView(-1)
	}
	for i, sc := range shortcutTabs {
		if s.ShortcutName() == sc.ShortcutName() && sh.Election != nil {
			sh.showView(sh.Election.Tabs, i)
		}
	}
}

// views are the tabs Ctrl+PageDown and Ctrl+PageUp move through: in an
// open election, the views of its Results or Audit tab when that tab shows
// some, else the election's tabs; on the Sync screen, its two lists. nil
// where there are none.
func (sh *Shell) views() *container.AppTabs {
	if e := sh.Election; e != nil {
		switch e.tab() {
		case tabResults:
			return e.Results.Tabs
		case tabAudit:
			if e.RiskAudit.Tabs.Visible() {
				return e.RiskAudit.Tabs
			}
		}
		return e.Tabs
	}
	if sh.screen == screenSync {
		return sh.Sync.Tabs
	}
	return nil
}

// StepView shows the next (step 1) or previous (-1) of the views, round
// and round.
func (sh *Shell) StepView(step int) {
	if t := sh.views(); t != nil && len(t.Items) > 0 {
		n := len(t.Items)
		sh.showView(t, ((t.SelectedIndex()+step)%n+n)%n)
	}
}

// showView selects tab i of t. The keyboard leaves the view it was in (a
// control hidden with its view would otherwise still take keys) and lands
// in the new view's field to type in, where it has one (see
// ElectionScreen.field): without it, what an official typed after Ctrl+2
// went nowhere, and Tab went through the sidebar first.
func (sh *Shell) showView(t *container.AppTabs, i int) {
	c := sh.win.Canvas()
	c.Unfocus()
	t.SelectIndex(i)
	if e := sh.Election; e != nil && t == e.Tabs {
		if f := e.field(); f != nil && !f.Disabled() {
			c.Focus(f)
		}
	}
}
