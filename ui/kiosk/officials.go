package kiosk

import (
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"votedesk/app"
)

// passcodeScreen asks for the officer passcode before an official's action.
// The passcode is checked off the UI goroutine (argon2id takes about 0.1 s)
// and the field is emptied at every try.
type passcodeScreen struct {
	noKeys
	k        *Kiosk
	prev     screen
	then     func()
	entry    *entry
	unlock   *button
	back     *button
	msg      *widget.Label
	obj      fyne.CanvasObject
	checking bool
}

func newPasscodeScreen(k *Kiosk, purpose string, prev screen, then func()) *passcodeScreen {
	s := &passcodeScreen{k: k, prev: prev, then: then, msg: message(widget.DangerImportance)}
	s.entry = newPasswordEntry("Officer passcode", func(string) { s.submit() })
	s.entry.keys = map[fyne.KeyName]func(){fyne.KeyEscape: s.cancel}
	s.unlock = newButton(k, "Unlock", theme.ConfirmIcon(), s.submit)
	s.unlock.Importance = widget.HighImportance
	s.back = newButton(k, "Back", theme.NavigateBackIcon(), s.cancel)
	if d := k.lock.LockedFor(); d > 0 {
		s.msg.SetText(fmt.Sprintf("Too many wrong passcodes. Try again in %s.", app.WaitText(d)))
	}
	help := label(purpose + ": officials only. Enter the officer passcode and press Enter. Voters: press Back (or Escape).")
	s.obj = page(heading("Officer passcode"), container.NewVBox(help, s.entry, s.msg), s.back, s.unlock)
	return s
}

func (s *passcodeScreen) view() fyne.CanvasObject { return s.obj }
func (s *passcodeScreen) first() fyne.Focusable   { return s.entry }

func (s *passcodeScreen) typedKey(ev *fyne.KeyEvent) {
	if ev.Name == fyne.KeyEscape {
		s.cancel()
	}
}

func (s *passcodeScreen) submit() {
	if s.checking {
		return
	}
	k, passcode := s.k, s.entry.Text
	s.entry.SetText("")
	s.checking = true
	s.unlock.Disable()
	s.msg.Importance = widget.MediumImportance
	s.msg.SetText("Checking…")
	k.run.Go(func() func() {
		err := k.lock.Unlock(passcode)
		return func() {
			s.checking = false
			s.unlock.Enable()
			if k.passcode != s {
				return
			}
			if err == nil {
				k.passcode = nil
				s.then()
				return
			}
			s.msg.Importance = widget.DangerImportance
			s.msg.SetText(app.ErrorMessage(err))
			k.win.Canvas().Focus(s.entry)
		}
	})
}

// cancel goes back to the screen the passcode was asked from, if it is still
// there, or else to check-in.
func (s *passcodeScreen) cancel() {
	k := s.k
	if k.passcode != s {
		return
	}
	k.passcode = nil
	if k.live(s.prev) {
		k.show(s.prev)
		return
	}
	k.nextVoter()
}

// menuScreen is what officials can do once the passcode is entered.
type menuScreen struct {
	noKeys
	k *Kiosk

	info, pending, syncMsg                *widget.Label
	resume, paper, syncNow, screen, leave *button
	obj                                   fyne.CanvasObject
	syncing                               bool
}

func newMenuScreen(k *Kiosk) *menuScreen {
	m := &menuScreen{k: k, info: label(""), pending: label(""), syncMsg: message(widget.MediumImportance)}
	m.syncMsg.Hide()
	m.resume = newButton(k, "Back to voting", theme.MediaPlayIcon(), k.resume)
	m.resume.Importance = widget.HighImportance
	m.paper = newButton(k, "Paper ballot entry", theme.DocumentCreateIcon(), k.openPaper)
	m.syncNow = newButton(k, "Sync now", theme.ViewRefreshIcon(), m.sync)
	m.screen = newButton(k, "", theme.ViewFullScreenIcon(), m.toggleFullScreen)
	m.leave = newButton(k, "Close the kiosk", theme.LogoutIcon(), k.exit)
	m.leave.Importance = widget.DangerImportance
	actions := container.NewVBox(m.resume, m.paper)
	if k.cfg.Sync != nil {
		actions.Add(container.NewVBox(m.pending, m.syncNow, m.syncMsg))
	}
	actions.Add(m.screen)
	actions.Add(m.leave)
	help := label("The kiosk is unlocked. Press Back to voting before you leave it.")
	m.obj = page(heading("Officials"), container.NewVBox(help, m.info, widget.NewSeparator(), actions))
	m.update()
	return m
}

func (m *menuScreen) view() fyne.CanvasObject { return m.obj }
func (m *menuScreen) first() fyne.Focusable   { return m.resume }

// update shows the kiosk's counts.
func (m *menuScreen) update() {
	k := m.k
	m.info.SetText(fmt.Sprintf("Election: %s\nJoin code: %s\nSigned in as: %s\nBallots cast at this kiosk since it started: %d",
		k.election.Name, k.joinCode, k.cfg.Official, k.casts))
	if k.pendingErr != nil {
		m.pending.SetText("Not yet synced: unknown (" + app.ErrorMessage(k.pendingErr) + ")")
	} else {
		m.pending.SetText(fmt.Sprintf("Not yet synced: %d", k.pendingCount))
	}
	if k.win.FullScreen() {
		m.screen.SetText("Leave full screen")
	} else {
		m.screen.SetText("Full screen")
	}
}

// sync runs one sync off the UI goroutine.
func (m *menuScreen) sync() {
	k := m.k
	if m.syncing || k.cfg.Sync == nil {
		return
	}
	m.syncing = true
	m.syncNow.Disable()
	m.syncMsg.Importance = widget.MediumImportance
	m.syncMsg.SetText("Syncing…")
	m.syncMsg.Show()
	k.run.Go(func() func() {
		err := k.cfg.Sync.SyncNow(k.ctx)
		return func() {
			m.syncing = false
			m.syncNow.Enable()
			if err != nil {
				m.syncMsg.Importance = widget.DangerImportance
				m.syncMsg.SetText("Sync failed: " + app.ErrorMessage(err) + ". Ballots stay safe on this device; try again later.")
			} else {
				m.syncMsg.Importance = widget.SuccessImportance
				m.syncMsg.SetText("Synced.")
			}
			k.refreshPending()
		}
	})
}

func (m *menuScreen) toggleFullScreen() {
	m.k.win.SetFullScreen(!m.k.win.FullScreen())
	m.update()
}

// resume locks the kiosk again: full screen, check-in.
func (k *Kiosk) resume() {
	k.win.SetFullScreen(true)
	k.nextVoter()
}

// openPaper shows paper ballot entry.
func (k *Kiosk) openPaper() {
	k.menu = nil
	k.paper = newPaperScreen(k)
	k.show(k.paper)
}

// backToMenu leaves paper entry for the menu.
func (k *Kiosk) backToMenu() {
	k.paper = nil
	k.menu = newMenuScreen(k)
	k.show(k.menu)
}
