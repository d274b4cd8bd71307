package ui

import (
	"os"
	"os/signal"
	"syscall"

	"fyne.io/fyne/v2"
	fyneapp "fyne.io/fyne/v2/app"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"votedesk/ui/modal"
)

// CreatePrompt asks whether to create a new database where the app was
// pointed at one that does not exist (an explicit --db or VOTEDESK_DB): a
// mistyped path must not look like "all my elections are gone". Quit is
// the safe answer, so it has the focus; Escape quits too.
type CreatePrompt struct {
	Message      *widget.Label
	Create, Quit *modal.Button
	Content      fyne.CanvasObject
	done         func(create bool)
}

// Put puts the question in w, with the focus on Quit: Enter or Space
// presses the focused button, Escape quits from anywhere.
func (p *CreatePrompt) Put(w fyne.Window) {
	w.SetContent(p.Content)
	w.Canvas().SetOnTypedKey(func(k *fyne.KeyEvent) {
		if k.Name == fyne.KeyEscape {
			p.done(false)
		}
	})
	w.Canvas().Focus(p.Quit)
}

// NewCreatePrompt builds the question about path; done gets the answer.
func NewCreatePrompt(path string, done func(create bool)) *CreatePrompt {
	p := &CreatePrompt{done: done}
	p.Message = widget.NewLabel("There is no VoteDesk database at\n" + path + "\n\n" +
		"If you meant an existing database, quit and check the path (--db or VOTEDESK_DB): nothing has been created. " +
		"Create a new, empty database there only if you are setting up VoteDesk on this computer.")
	p.Message.Wrapping = fyne.TextWrapWord
	p.Create = modal.NewButtonWithIcon("Create a new database", theme.ContentAddIcon(), func() { done(true) })
	p.Quit = modal.NewButtonWithIcon("Quit", theme.CancelIcon(), func() { done(false) })
	p.Quit.Importance = widget.HighImportance
	p.Content = container.NewPadded(container.NewBorder(nil, container.NewHBox(p.Create, widget.NewSeparator(), p.Quit), nil, nil, p.Message))
	return p
}

// AskCreate asks, in a window of its own, whether to create a new database
// at path, and returns the answer once the window is gone. The app proper
// runs in a new process (Fyne runs one app per process).
func AskCreate(path string, icon fyne.Resource) bool {
	create := false
	runPrompt("VoteDesk: no database", icon, func(w fyne.Window, quit func()) {
		NewCreatePrompt(path, func(ok bool) { create = ok; quit() }).Put(w)
	})
	return create
}

// CannotOpen says why the app cannot open the database at path (another
// VoteDesk has it open, it is damaged, a newer VoteDesk wrote it): started
// from a desktop icon, the app has no terminal to say it in. Quit, Enter
// and Escape close it.
type CannotOpen struct {
	Message *widget.Label
	Quit    *modal.Button
	Content fyne.CanvasObject
	done    func()
}

// NewCannotOpen builds the message; done runs when it is closed.
func NewCannotOpen(path, why string, done func()) *CannotOpen {
	p := &CannotOpen{done: done}
	p.Message = widget.NewLabel("VoteDesk cannot open the database\n" + path + "\n\n" + why + "\n\nNothing was changed.")
	p.Message.Wrapping = fyne.TextWrapWord
	p.Quit = modal.NewButtonWithIcon("Quit", theme.CancelIcon(), done)
	p.Quit.Importance = widget.HighImportance
	p.Content = container.NewPadded(container.NewBorder(nil, container.NewHBox(layout.NewSpacer(), p.Quit), nil, nil, p.Message))
	return p
}

// Put puts the message in w, with the focus on Quit (Enter or Space
// presses it); Escape quits from anywhere.
func (p *CannotOpen) Put(w fyne.Window) {
	w.SetContent(p.Content)
	w.Canvas().SetOnTypedKey(func(k *fyne.KeyEvent) {
		if k.Name == fyne.KeyEscape {
			p.done()
		}
	})
	w.Canvas().Focus(p.Quit)
}

// ShowCannotOpen shows why the database at path cannot be opened, in a
// window of its own, and returns once the window is gone.
func ShowCannotOpen(path, why string, icon fyne.Resource) {
	runPrompt("VoteDesk: cannot open the database", icon, func(w fyne.Window, quit func()) {
		NewCannotOpen(path, why, quit).Put(w)
	})
}

// runPrompt runs a small window titled title, which put fills (quit
// closes it), until it is closed. A session manager's close (SIGTERM) or
// Ctrl-C quits too, from the first moment the window can be seen.
func runPrompt(title string, icon fyne.Resource, put func(w fyne.Window, quit func())) {
	a := fyneapp.NewWithID(AppID)
	useDeskTheme(a)
	if icon != nil {
		a.SetIcon(icon)
	}
	w := a.NewWindow(title)
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM)
	defer signal.Stop(sig)
	go func() {
		if _, ok := <-sig; ok {
			fyne.Do(a.Quit)
		}
	}()
	w.Resize(fyne.NewSize(560, 220))
	w.CenterOnScreen()
	w.SetMaster()
	a.Lifecycle().SetOnStarted(func() { fyne.Do(func() { put(w, a.Quit) }) })
	w.ShowAndRun()
}
