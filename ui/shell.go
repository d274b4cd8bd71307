package ui

import (
	"context"
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"votedesk/app"
)

// Shell is the main window's frame: it shows the first-run or sign-in screen,
// then the screens of the signed-in user.
type Shell struct {
	app  fyne.App
	win  fyne.Window
	cfg  Config
	user app.User
}

// NewShell builds the frame over a window.
func NewShell(a fyne.App, w fyne.Window, cfg Config) *Shell {
	return &Shell{app: a, win: w, cfg: cfg}
}

// Show puts the first screen in the window.
func (s *Shell) Show() {
	s.win.Resize(fyne.NewSize(1000, 700))
	has, err := s.cfg.Service.HasUsers(context.Background())
	if err != nil {
		s.win.SetContent(widget.NewLabel(app.ErrorMessage(err)))
		return
	}
	if !has {
		s.win.SetContent(s.firstRun())
		return
	}
	s.win.SetContent(s.signIn())
}

func (s *Shell) firstRun() fyne.CanvasObject {
	name, email, pw := widget.NewEntry(), widget.NewEntry(), widget.NewPasswordEntry()
	form := widget.NewForm(
		widget.NewFormItem("Name", name),
		widget.NewFormItem("Email", email),
		widget.NewFormItem("Password", pw),
	)
	form.SubmitText = "Create owner account"
	form.OnSubmit = func() {
		ctx := context.Background()
		if err := s.cfg.Service.RegisterUser(ctx, "", name.Text, email.Text, pw.Text); err != nil {
			dialog.ShowError(fmt.Errorf("%s", app.ErrorMessage(err)), s.win)
			return
		}
		s.finishSignIn(name.Text, pw.Text)
	}
	return container.NewCenter(container.NewVBox(
		widget.NewLabelWithStyle("Welcome to VoteDesk", fyne.TextAlignCenter, fyne.TextStyle{Bold: true}),
		widget.NewLabel("Create the owner account of this database."),
		form))
}

func (s *Shell) signIn() fyne.CanvasObject {
	login, pw := widget.NewEntry(), widget.NewPasswordEntry()
	form := widget.NewForm(widget.NewFormItem("Name or email", login), widget.NewFormItem("Password", pw))
	form.SubmitText = "Sign in"
	form.OnSubmit = func() { s.finishSignIn(login.Text, pw.Text) }
	return container.NewCenter(container.NewVBox(
		widget.NewLabelWithStyle("VoteDesk", fyne.TextAlignCenter, fyne.TextStyle{Bold: true}), form))
}

func (s *Shell) finishSignIn(login, pw string) {
	u, err := s.cfg.Service.SignIn(context.Background(), login, pw)
	if err != nil {
		dialog.ShowError(fmt.Errorf("%s", app.ErrorMessage(err)), s.win)
		return
	}
	s.user = u
	s.win.SetContent(s.elections())
}

func (s *Shell) elections() fyne.CanvasObject {
	es, err := s.cfg.Service.Elections(context.Background(), s.user.Name)
	if err != nil {
		return widget.NewLabel(app.ErrorMessage(err))
	}
	now := s.cfg.Service.Now()
	list := widget.NewList(
		func() int { return len(es) },
		func() fyne.CanvasObject { return widget.NewLabel("") },
		func(i widget.ListItemID, o fyne.CanvasObject) {
			e := es[i]
			o.(*widget.Label).SetText(fmt.Sprintf("%s  —  %s, %d ballots", e.Name, e.Phase(now), e.Ballots))
		})
	return container.NewBorder(widget.NewLabelWithStyle("Elections", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}), nil, nil, nil, list)
}
