package ui

import (
	"os"
	"os/signal"
	"syscall"

	"fyne.io/fyne/v2"
	fyneapp "fyne.io/fyne/v2/app"
	"fyne.io/fyne/v2/container"
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
	a := fyneapp.NewWithID(AppID)
	useDeskTheme(a)
	if icon != nil {
		a.SetIcon(icon)
	}
	w := a.NewWindow("VoteDesk: no database")
	create := false
	p := NewCreatePrompt(path, func(ok bool) { create = ok; a.Quit() })
	// A session manager's close (SIGTERM) or Ctrl-C answers Quit, from
	// the first moment the window can be seen.
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
	a.Lifecycle().SetOnStarted(func() { fyne.Do(func() { p.Put(w) }) })
	w.ShowAndRun()
	return create
}
