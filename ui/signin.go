package ui

import (
	"context"
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/widget"

	"votedesk/app"
	"votedesk/ui/modal"
	"votedesk/ui/offui"
)

// FirstRunScreen creates the OWNER account on an empty database.
type FirstRunScreen struct {
	Name, Email      *modal.Entry
	Password, Repeat *modal.Entry
	Create           *modal.Button
	// Join fetches an existing deployment's users and elections from the
	// cloud instead (hidden when this build has no sync).
	Join    *modal.Button
	content fyne.CanvasObject
}

// newFirstRunScreen builds the screen; done is called with the new owner,
// already signed in; join, when set, joins an existing deployment.
// Hashing the password (argon2id, about 0.1 s) runs off the UI goroutine.
func newFirstRunScreen(svc *app.Service, w fyne.Window, t *offui.Runner, icon fyne.Resource, done func(app.User), join func()) *FirstRunScreen {
	s := &FirstRunScreen{Name: modal.NewEntry(), Email: modal.NewEntry(), Password: modal.NewPasswordEntry(), Repeat: modal.NewPasswordEntry()}
	s.Name.SetPlaceHolder("Your name")
	s.Email.SetPlaceHolder("name@example.org")
	s.Create = modal.NewButton("Create owner account", func() {
		if s.Password.Text != s.Repeat.Text {
			showError(w, "Cannot create the account", app.Errorf(app.CodeInvalid, "the two passwords differ"), "")
			return
		}
		name, email, password := s.Name.Text, s.Email.Text, s.Password.Text
		s.Create.Disable()
		offui.Run(t, func() (app.User, error) {
			ctx := context.Background()
			if err := svc.RegisterUser(ctx, "", name, email, password); err != nil {
				return app.User{}, err
			}
			return svc.SignIn(ctx, email, password)
		}, func(u app.User, err error) {
			s.Create.Enable()
			if err != nil {
				showError(w, "Cannot create the account", err, "")
				return
			}
			done(u)
		})
	})
	s.Create.Importance = widget.HighImportance
	form := widget.NewForm(
		widget.NewFormItem("Name", s.Name),
		widget.NewFormItem("Email", s.Email),
		&widget.FormItem{Text: "Password", Widget: s.Password, HintText: passwordHint()},
		widget.NewFormItem("Repeat password", s.Repeat),
	)
	s.Repeat.OnSubmitted = func(string) { s.Create.OnTapped() }
	parts := []fyne.CanvasObject{logo(icon),
		widget.NewLabelWithStyle("Welcome to VoteDesk", fyne.TextAlignCenter, fyne.TextStyle{Bold: true}),
		widget.NewLabelWithStyle("This database is new. Create the owner account: the owner manages users\nand hands ownership over; every later user is added by an administrator.", fyne.TextAlignCenter, fyne.TextStyle{}),
		form, s.Create}
	if join != nil {
		s.Join = modal.NewButton("Join an existing deployment from the cloud…", join)
		parts = append(parts, widget.NewLabelWithStyle("A laptop or kiosk of an office that already uses VoteDesk fetches its users and elections instead.", fyne.TextAlignCenter, fyne.TextStyle{}), s.Join)
	}
	s.content = centered(parts...)
	return s
}

// SignInScreen asks for a name or email and a password.
type SignInScreen struct {
	Login, Password *modal.Entry
	SignIn          *modal.Button
	content         fyne.CanvasObject
}

// newSignInScreen builds the screen; done is called with the signed-in user.
// Checking the password (argon2id, about 0.1 s) runs off the UI goroutine.
func newSignInScreen(svc *app.Service, w fyne.Window, t *offui.Runner, icon fyne.Resource, lastLogin string, done func(app.User)) *SignInScreen {
	s := &SignInScreen{Login: modal.NewEntry(), Password: modal.NewPasswordEntry()}
	s.Login.SetPlaceHolder("Name or email")
	s.Login.SetText(lastLogin)
	s.SignIn = modal.NewButton("Sign in", func() {
		login, password := s.Login.Text, s.Password.Text
		s.SignIn.Disable()
		offui.Run(t, func() (app.User, error) {
			return svc.SignIn(context.Background(), login, password)
		}, func(u app.User, err error) {
			s.SignIn.Enable()
			if err != nil {
				s.Password.SetText("")
				showError(w, "Cannot sign in", err, "")
				return
			}
			done(u)
		})
	})
	s.SignIn.Importance = widget.HighImportance
	s.Password.OnSubmitted = func(string) { s.SignIn.OnTapped() }
	s.Login.OnSubmitted = func(string) { w.Canvas().Focus(s.Password) }
	form := widget.NewForm(widget.NewFormItem("Name or email", s.Login), widget.NewFormItem("Password", s.Password))
	s.content = centered(logo(icon),
		widget.NewLabelWithStyle("Sign in to VoteDesk", fyne.TextAlignCenter, fyne.TextStyle{Bold: true}),
		form, s.SignIn)
	return s
}

// logo is the app icon, 72 units square, centred (nothing without an icon).
func logo(icon fyne.Resource) fyne.CanvasObject {
	if icon == nil {
		return layout.NewSpacer()
	}
	img := canvas.NewImageFromResource(icon)
	img.FillMode = canvas.ImageFillContain
	img.SetMinSize(fyne.NewSize(72, 72))
	return container.NewCenter(img)
}

// centered stacks objects in a column at least 460 wide in the middle of
// the window.
func centered(objs ...fyne.CanvasObject) fyne.CanvasObject {
	return container.NewCenter(container.NewStack(minWidth(460), container.NewVBox(objs...)))
}

// minWidth is an invisible object that holds its container at least w wide.
func minWidth(w float32) fyne.CanvasObject {
	r := canvas.NewRectangle(color.Transparent)
	r.SetMinSize(fyne.NewSize(w, 0))
	return r
}
