package kiosk

import (
	"context"
	"errors"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"

	"votedesk/app"
	"votedesk/ui/offui"
)

// DefaultReturnAfter is how long the receipt stays before the kiosk returns
// to check-in by itself.
const DefaultReturnAfter = 20 * time.Second

// pendingEvery is how often the count of ballots not yet synced is refreshed
// (it is also refreshed after every cast and sync).
const pendingEvery = 30 * time.Second

// Syncer is what the kiosk needs of sync: how much recorded here has not yet
// reached the cloud, and a way for an official to push it now.
type Syncer interface {
	// Pending returns how many ballots (and other changes) recorded on this
	// device are not yet synced.
	Pending(ctx context.Context) (int, error)
	// SyncNow syncs once and returns when done.
	SyncNow(ctx context.Context) error
}

// Config is what a kiosk is started with.
type Config struct {
	// Service is the domain service over the open database.
	Service *app.Service
	// Official is the signed-in official (USE_APPLICATION or higher) the
	// kiosk acts as: ballots are cast in their name for poll-book voters.
	Official string
	// Election is the election's name or join code.
	Election string
	// PasscodeHash is the officer passcode hashed with app.HashSecret.
	PasscodeHash string
	// Sync, when set, lets the kiosk show what is not yet synced and lets an
	// official sync from behind the passcode.
	Sync Syncer
	// ReturnAfter is how long the receipt shows (DefaultReturnAfter if 0).
	ReturnAfter time.Duration
	// TextSize is the text size every voter starts with, from 0 (the
	// smallest) to TextSizes-1.
	TextSize int
	// HighContrast starts every voter in the high-contrast theme.
	HighContrast bool
	// IdleAfter is how long a voter's session may go without input before
	// the kiosk warns that it will end (DefaultIdleAfter if 0), and
	// IdleGrace how long the warning shows before the unfinished ballot is
	// discarded (DefaultIdleGrace if 0).
	IdleAfter, IdleGrace time.Duration
	// Clock times passcode lockouts (the system clock if nil).
	Clock app.Clock
	// Runner runs the kiosk's work off the UI goroutine and its timers (a
	// new offui.Runner if nil; the officials' app passes its own).
	Runner *offui.Runner
	// OnExit is called on the UI goroutine after an official closed the
	// kiosk and the window is unlocked again (not full screen, closable, the
	// app's theme back); when nil, the window is closed. Fyne has no call to
	// undo RequestAlwaysOnTop, so a window given back stays on top.
	OnExit func()
}

// Kiosk is a voting station for one election in one window. Its fields
// that belong to one voter (session and the voter screens) are nil between
// voters.
type Kiosk struct {
	app fyne.App
	win fyne.Window
	cfg Config
	ctx context.Context

	lock       *app.PasscodeLock
	election   app.Election
	candidates []app.Candidate
	joinCode   string

	bar    *topBar
	body   *fyne.Container
	screen screen

	// One voter: nil between voters.
	session *session
	checkIn *checkInScreen
	ballot  *ballotScreen
	review  *reviewScreen
	receipt *receiptScreen
	// idle is the warning that covers a voter's screen after IdleAfter
	// without input.
	idle *idleScreen

	// Officials' screens.
	passcode *passcodeScreen
	menu     *menuScreen
	paper    *paperScreen

	look      kioskTheme
	prevTheme fyne.Theme
	started   bool
	closed    bool
	// busy is set while a cast is being recorded: nothing else may take the
	// screen until its receipt shows.
	busy  bool
	casts int

	// run runs work off the UI goroutine and the timers (Config.Runner).
	run         *offui.Runner
	stopReturn  func()
	stopPending func()
	stopIdle    func()
	// showing is set while show moves the focus: that is not the voter's
	// input.
	showing      bool
	pendingCount int
	pendingErr   error
	// gone is why voting stopped here: the kiosk's election was deleted
	// (app.ErrElectionGone, and no election it joined is left), or its
	// official may no longer cast (app.ErrAuthority). Every voter then sees
	// the stopped screen instead of check-in.
	gone error
}

// New prepares a kiosk in win; Start shows it.
func New(a fyne.App, win fyne.Window, cfg Config) *Kiosk {
	if cfg.ReturnAfter <= 0 {
		cfg.ReturnAfter = DefaultReturnAfter
	}
	if cfg.IdleAfter <= 0 {
		cfg.IdleAfter = DefaultIdleAfter
	}
	if cfg.IdleGrace <= 0 {
		cfg.IdleGrace = DefaultIdleGrace
	}
	run := cfg.Runner
	if run == nil {
		run = offui.New()
	}
	return &Kiosk{app: a, win: win, cfg: cfg, ctx: context.Background(),
		lock: app.NewPasscodeLock(cfg.PasscodeHash, cfg.Clock), run: run}
}

// Start locks the window (full screen, on top where the platform allows,
// closing it needs the passcode), then loads the election off the UI
// goroutine and shows check-in, or why the kiosk cannot start.
func (k *Kiosk) Start() {
	if k.started {
		return
	}
	k.started = true
	k.prevTheme = k.app.Settings().Theme()
	k.look = k.defaultLook()
	k.app.Settings().SetTheme(k.look)
	if dw, ok := k.win.(desktop.Window); ok {
		dw.RequestAlwaysOnTop()
	}
	k.win.SetFullScreen(true)
	k.win.SetCloseIntercept(k.closeRequested)
	c := k.win.Canvas()
	c.SetOnTypedRune(k.typedRune)
	c.SetOnTypedKey(k.typedKey)

	k.bar = newTopBar(k)
	k.body = container.NewStack(container.NewCenter(heading("Starting the kiosk…")))
	k.win.SetContent(container.NewBorder(container.NewVBox(k.bar.view(), widget.NewSeparator()), nil, nil, nil, k.body))

	official, election := k.cfg.Official, k.cfg.Election
	k.run.Go(func() func() {
		e, cands, err := k.cfg.Service.KioskElection(k.ctx, official, election)
		return func() {
			if err != nil {
				k.show(newFailedScreen(k, err))
				return
			}
			k.election, k.candidates, k.joinCode = e, cands, app.JoinCode(e)
			k.bar.update()
			k.nextVoter()
			k.schedulePending()
		}
	})
}

// forElection runs call, a check-in or a cast naming election e (the
// kiosk's, as the UI goroutine had it), off the UI goroutine, held to e by
// its id: if a sync has given e's name to another election, call is
// refused rather than carried out there. If e was renamed (the rules give
// an election made offline under a taken name a provisional one) or merged
// into another (officials found the two the same election), the kiosk
// finds where its id stands now (Service.JoinedElection, the rule its
// offline ballots follow in the log) and runs call once more there, so its
// voters go on voting. It returns the election as call last named it.
func (k *Kiosk) forElection(e app.Election, call func(ctx context.Context, election string) error) (app.Election, error) {
	err := call(app.ForElection(k.ctx, e.Name, e.ID), e.Name)
	if !errors.Is(err, app.ErrElectionRenamed) && !errors.Is(err, app.ErrElectionGone) {
		return e, err
	}
	now, lerr := k.cfg.Service.JoinedElection(k.ctx, k.cfg.Official, e.ID)
	if lerr != nil {
		return e, err
	}
	return now, call(app.ForElection(k.ctx, now.Name, now.ID), now.Name)
}

// followed takes, on the UI goroutine, what a call held to the kiosk's
// election from (forElection) found, now: the election under its new name
// if it was renamed, or the election it joined if it was merged. If it was
// deleted, or the official the kiosk acts as may no longer cast here (their
// role was taken away, their password changed on another device, their
// account removed: app.ErrAuthority), nothing more can be cast here:
// followed remembers why and returns true, and from the next voter on
// (nextVoter) the kiosk shows that voting has stopped.
func (k *Kiosk) followed(from, now app.Election, err error) bool {
	if (now.ID != from.ID || now.Name != from.Name) && from.ID == k.election.ID {
		k.election, k.joinCode = now, app.JoinCode(now)
		k.bar.update()
	}
	if !errors.Is(err, app.ErrElectionGone) && !errors.Is(err, app.ErrAuthority) {
		return false
	}
	k.gone = err
	return true
}

// JoinCode is the election's join code, once the kiosk has loaded it.
func (k *Kiosk) JoinCode() string { return k.joinCode }

// show puts a screen in the window and focuses its first control.
func (k *Kiosk) show(s screen) {
	if k.closed {
		return
	}
	k.screen = s
	k.body.Objects = []fyne.CanvasObject{s.view()}
	k.body.Refresh()
	k.bar.update()
	c := k.win.Canvas()
	k.showing = true
	c.Unfocus()
	if f := s.first(); f != nil {
		c.Focus(f)
	}
	k.showing = false
	k.armIdle()
}

// nextVoter forgets the voter before and shows an empty check-in.
func (k *Kiosk) nextVoter() {
	k.forgetVoter()
	k.passcode, k.menu, k.paper = nil, nil, nil
	if k.look != k.defaultLook() {
		k.setLook(k.defaultLook())
	}
	if k.gone != nil {
		k.show(newStoppedScreen(k, k.gone))
		return
	}
	k.checkIn = newCheckInScreen(k)
	k.show(k.checkIn)
}

// forgetVoter wipes and drops everything the kiosk holds of the current
// voter: their session (name, ranking), the check-in field, the ballot and
// review screens, and the receipt with its confirmation code. Wiping first
// empties the widgets' texts, so that nothing survives in a renderer that
// Fyne has not yet let go of.
func (k *Kiosk) forgetVoter() {
	if k.stopReturn != nil {
		k.stopReturn()
		k.stopReturn = nil
	}
	if k.checkIn != nil {
		k.checkIn.wipe()
	}
	if k.ballot != nil {
		k.ballot.wipe()
	}
	if k.review != nil {
		k.review.wipe()
	}
	if k.receipt != nil {
		k.receipt.wipe()
	}
	if k.session != nil {
		k.session.wipe()
	}
	if k.stopIdle != nil {
		k.stopIdle()
		k.stopIdle = nil
	}
	k.session, k.checkIn, k.ballot, k.review, k.receipt, k.idle = nil, nil, nil, nil, nil, nil
	k.win.Canvas().Unfocus()
}

// defaultLook is the text size and contrast every voter starts with.
func (k *Kiosk) defaultLook() kioskTheme {
	return kioskTheme{size: min(max(k.cfg.TextSize, 0), TextSizes-1), contrast: k.cfg.HighContrast}
}

// setLook switches the text size or the contrast.
func (k *Kiosk) setLook(look kioskTheme) {
	k.look = look
	k.app.Settings().SetTheme(look)
	k.bar.update()
}

// textSizeBy makes the text a size larger (+1) or smaller (-1).
func (k *Kiosk) textSizeBy(by int) {
	look := k.look
	look.size = min(max(look.size+by, 0), TextSizes-1)
	k.setLook(look)
}

// toggleContrast switches high contrast on or off.
func (k *Kiosk) toggleContrast() {
	look := k.look
	look.contrast = !look.contrast
	k.setLook(look)
}

// typedRune takes characters no focused control used.
func (k *Kiosk) typedRune(r rune) {
	if k.woke() {
		return
	}
	if k.screen != nil {
		k.screen.typedRune(r)
	}
}

// typedKey takes keys no focused control used: arrows move the focus like
// Tab and Shift+Tab, the rest goes to the screen.
func (k *Kiosk) typedKey(ev *fyne.KeyEvent) {
	if k.woke() {
		return
	}
	c := k.win.Canvas()
	switch ev.Name {
	case fyne.KeyUp, fyne.KeyLeft:
		c.FocusPrevious()
	case fyne.KeyDown, fyne.KeyRight:
		c.FocusNext()
	default:
		if k.screen != nil {
			k.screen.typedKey(ev)
		}
	}
}

// closeRequested is the window's close button: it needs the passcode.
func (k *Kiosk) closeRequested() {
	if k.closed || k.busy {
		return
	}
	if k.election.Name == "" {
		k.exit()
		return
	}
	k.askPasscode("Close the kiosk", k.exit)
}

// officials opens the officials' menu behind the passcode.
func (k *Kiosk) officials() {
	if k.busy {
		return
	}
	k.askPasscode("Officials' menu", k.openMenu)
}

// askPasscode shows the passcode screen; then runs once it is entered.
func (k *Kiosk) askPasscode(purpose string, then func()) {
	if _, already := k.screen.(*passcodeScreen); already {
		return
	}
	k.passcode = newPasscodeScreen(k, purpose, k.screen, then)
	k.show(k.passcode)
}

// openMenu drops any voter's session and shows the officials' menu.
func (k *Kiosk) openMenu() {
	k.forgetVoter()
	k.passcode, k.paper = nil, nil
	k.menu = newMenuScreen(k)
	k.show(k.menu)
	k.refreshPending()
}

// exit unlocks the window and leaves the kiosk.
func (k *Kiosk) exit() {
	k.forgetVoter()
	k.passcode, k.menu, k.paper = nil, nil, nil
	if k.stopPending != nil {
		k.stopPending()
	}
	k.closed = true
	c := k.win.Canvas()
	c.SetOnTypedRune(nil)
	c.SetOnTypedKey(nil)
	k.win.SetCloseIntercept(nil)
	k.win.SetFullScreen(false)
	k.app.Settings().SetTheme(k.prevTheme)
	if k.cfg.OnExit != nil {
		k.cfg.OnExit()
		return
	}
	k.win.Close()
}

// schedulePending refreshes the count of ballots not yet synced now and
// every pendingEvery.
func (k *Kiosk) schedulePending() {
	if k.cfg.Sync == nil || k.closed {
		return
	}
	k.refreshPending()
	k.stopPending = k.run.After(pendingEvery, k.schedulePending)
}

// refreshPending asks the syncer, off the UI goroutine, how much is not yet
// synced.
func (k *Kiosk) refreshPending() {
	if k.cfg.Sync == nil {
		return
	}
	k.run.Go(func() func() {
		n, err := k.cfg.Sync.Pending(k.ctx)
		return func() {
			k.pendingCount, k.pendingErr = n, err
			k.bar.update()
			if k.menu != nil {
				k.menu.update()
			}
		}
	})
}
