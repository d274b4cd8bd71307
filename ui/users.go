package ui

import (
	"context"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"votedesk/app"
	"votedesk/ui/modal"
	"votedesk/ui/offui"
)

// UsersScreen lists the users and their roles. Managers (ADMIN and up) add
// users and change the roles of users below them, to roles below their own;
// the OWNER hands ownership over; everyone changes their own password.
type UsersScreen struct {
	s        *session
	users    []app.User
	selected int

	Table                 *grid
	Note                  *widget.Label
	Add, Transfer, Remove *modal.Button
	Password              *modal.Button
	Role                  *modal.Select
	// Roles says what each role may do, from app.Role.Description.
	Roles   *widget.Label
	AddForm *AddUserForm
	// PasswordForm is the Change my password dialog last opened.
	PasswordForm *modal.Form
	content      fyne.CanvasObject
	settingRole  bool
}

func newUsersScreen(s *session) *UsersScreen {
	sc := &UsersScreen{s: s, selected: -1, Note: widget.NewLabel("")}
	sc.Note.Wrapping = fyne.TextWrapWord
	sc.Table = newGrid([]column{
		{"User", 220, fyne.TextAlignLeading},
		{"Email", 260, fyne.TextAlignLeading},
		{"Role", 120, fyne.TextAlignLeading},
		{"Since", 150, fyne.TextAlignLeading},
	}, func() int { return len(sc.users) }, func(row, col int) string {
		u := sc.users[row]
		switch col {
		case 0:
			if u.Name == s.user.Name {
				return u.Name + " (you)"
			}
			return u.Name
		case 1:
			return u.Email
		case 2:
			return u.Role.String()
		}
		return fmtTime(u.Created)
	}, func(row, col int) bool { return col == 0 && sc.users[row].Name == s.user.Name })
	sc.Table.OnSelected = func(id widget.TableCellID) { sc.selected = id.Row; sc.updateButtons() }
	sc.Role = modal.NewSelect(nil, sc.setRole)
	sc.Role.PlaceHolder = "Change role to…"
	sc.Add = modal.NewButtonWithIcon("Add user", theme.ContentAddIcon(), sc.addUser)
	sc.Transfer = modal.NewButtonWithIcon("Transfer ownership", theme.AccountIcon(), sc.transfer)
	sc.Remove = modal.NewButtonWithIcon("Remove", theme.DeleteIcon(), sc.remove)
	sc.Password = modal.NewButtonWithIcon("Change my password", theme.SettingsIcon(), sc.changePassword)
	bar := container.NewHBox(sc.Add, container.NewGridWrap(fyne.NewSize(200, sc.Role.MinSize().Height), sc.Role), sc.Transfer, sc.Remove, widget.NewSeparator(), sc.Password)
	sc.Roles = widget.NewLabel(rolesLegend())
	sc.Roles.Wrapping = fyne.TextWrapWord
	legend := widget.NewAccordion(widget.NewAccordionItem("What each role may do", container.NewVScroll(sc.Roles)))
	sc.content = container.NewBorder(container.NewVBox(title("Users and roles"), sc.Note, bar), legend, nil, nil, sc.Table)
	sc.updateButtons()
	return sc
}

// rolesLegend lists every role with what it may do, lowest first.
func rolesLegend() string {
	var b strings.Builder
	for _, r := range app.Roles() {
		fmt.Fprintf(&b, "%s: %s\n", r, r.Description())
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// refresh reloads the users.
func (sc *UsersScreen) refresh() {
	load(sc.s, "Cannot list the users", func(ctx context.Context) ([]app.User, error) {
		return sc.s.svc.Users(ctx, sc.s.actor())
	}, func(us []app.User) {
		prev := ""
		if u, ok := sc.current(); ok {
			prev = u.Name
		}
		sc.users, sc.selected = us, -1
		sc.Table.UnselectAll()
		for i, u := range us {
			if u.Name == prev {
				sc.Table.Select(widget.TableCellID{Row: i})
			}
		}
		sc.Table.Refresh()
		sc.updateButtons()
	})
}

func (sc *UsersScreen) current() (app.User, bool) {
	if sc.selected < 0 || sc.selected >= len(sc.users) {
		return app.User{}, false
	}
	return sc.users[sc.selected], true
}

// Select selects a user by name, as a click on their row does.
func (sc *UsersScreen) Select(name string) {
	for i, u := range sc.users {
		if u.Name == name {
			sc.Table.Select(widget.TableCellID{Row: i})
		}
	}
}

func (sc *UsersScreen) updateButtons() {
	me := sc.s.user
	manage := sc.s.can(app.PermManageUsers)
	u, ok := sc.current()
	roles := app.RolesFor(me, u)
	opts := make([]string, len(roles))
	for i, r := range roles {
		opts[i] = r.String()
	}
	sc.settingRole = true
	sc.Role.SetOptions(opts)
	sc.Role.ClearSelected()
	sc.settingRole = false
	enable(sc.Role, ok && len(roles) > 0)
	enable(sc.Add, manage)
	enable(sc.Transfer, ok && sc.s.can(app.PermTransferOwner) && u.Name != me.Name)
	// Removing oneself is left to the CLI: here it would end the session
	// under the user's feet.
	enable(sc.Remove, ok && u.Name != me.Name && app.MayRemoveUser(me, u))
	switch {
	case sc.s.can(app.PermTransferOwner):
		sc.Note.SetText("You are the owner: you may add users, give anyone below you a role below OWNER, and hand ownership over (you then become AUDITOR).")
	case manage:
		sc.Note.SetText(fmt.Sprintf("As %s you may add users and give users ranked below you a role below %s.", me.Role, me.Role))
	default:
		sc.Note.SetText(fmt.Sprintf("As %s you may see the users; an ADMIN or the owner manages them.", me.Role))
	}
	if sc.Transfer.Disabled() && !sc.s.can(app.PermTransferOwner) {
		sc.Transfer.Hide()
	} else {
		sc.Transfer.Show()
	}
	if !manage {
		sc.Add.Hide()
		sc.Role.Hide()
		sc.Remove.Hide()
	} else {
		sc.Add.Show()
		sc.Role.Show()
		sc.Remove.Show()
	}
}

// setRole gives the selected user the role picked.
func (sc *UsersScreen) setRole(choice string) {
	if sc.settingRole || choice == "" {
		return
	}
	u, ok := sc.current()
	if !ok {
		return
	}
	r, err := app.ParseRole(choice)
	if err != nil {
		return
	}
	set := func() {
		sc.s.do("Cannot change the role of "+u.Name, func(ctx context.Context) error {
			return sc.s.svc.SetRole(app.ForUser(ctx, u.Name, u.ID), sc.s.actor(), u.Name, r)
		}, sc.refresh)
	}
	if !r.Has(app.PermViewSecrets) || u.Role.Has(app.PermViewSecrets) {
		set()
		return
	}
	// Seeing who cast each secret ballot is what a secret ballot is kept
	// from: a choice made by a slip of the mouse must not give it.
	msg := fmt.Sprintf("Make %s %s %s?\n\n%s will see, in every secret election, who cast each ballot and how they ranked the candidates, and the counts while the polls are open, and may back up the database (a backup holds every secret ballot).",
		u.Name, article(r.String()), r, u.Name)
	d := modal.NewConfirm("Give "+u.Name+" the role "+r.String(), msg, func(yes bool) {
		if yes {
			set()
			return
		}
		sc.settingRole = true
		sc.Role.ClearSelected()
		sc.settingRole = false
	}, sc.s.win)
	d.SetConfirmText("Make " + r.String())
	d.Show()
}

// article is "an" before a role name that starts with a vowel, else "a".
func article(name string) string {
	if name != "" && strings.ContainsRune("AEIOU", rune(name[0])) {
		return "an"
	}
	return "a"
}

// transfer asks for confirmation and makes the selected user the OWNER.
func (sc *UsersScreen) transfer() {
	u, ok := sc.current()
	if !ok {
		return
	}
	msg := fmt.Sprintf("Make %s the owner of this database? You become an AUDITOR and can no longer hand ownership over or manage the users above ADMIN.", u.Name)
	d := modal.NewConfirm("Transfer ownership", msg, func(yes bool) {
		if !yes {
			return
		}
		sc.s.do("Cannot transfer ownership", func(ctx context.Context) error {
			return sc.s.svc.TransferOwnership(app.ForUser(ctx, u.Name, u.ID), sc.s.actor(), u.Name)
		}, sc.s.changed)
	}, sc.s.win)
	d.SetConfirmText("Transfer")
	modal.Show(sc.s.win, d, nil)
}

// remove asks for confirmation and removes the selected user.
func (sc *UsersScreen) remove() {
	u, ok := sc.current()
	if !ok {
		return
	}
	modal.ShowConfirm("Remove user", fmt.Sprintf("Remove %s (%s)? They can no longer sign in; the audit log keeps what they did.", u.Name, u.Role), func(yes bool) {
		if !yes {
			return
		}
		sc.s.do("Cannot remove "+u.Name, func(ctx context.Context) error {
			return sc.s.svc.RemoveUser(app.ForUser(ctx, u.Name, u.ID), sc.s.actor(), u.Name)
		}, sc.refresh)
	}, sc.s.win)
}

// AddUserForm is the Add user dialog.
type AddUserForm struct {
	Name, Email, Password *modal.Entry
	Add, Cancel           *modal.Button
}

func (sc *UsersScreen) addUser() {
	f := &AddUserForm{Name: modal.NewEntry(), Email: modal.NewEntry(), Password: modal.NewPasswordEntry()}
	note := widget.NewLabel("New users start as USER; change their role once added. Give them the password to sign in with; they can change it.")
	note.Wrapping = fyne.TextWrapWord
	pw := widget.NewFormItem("Password", f.Password)
	pw.HintText = passwordHint()
	items := []*widget.FormItem{widget.NewFormItem("Name", f.Name), widget.NewFormItem("Email", f.Email), pw, widget.NewFormItem("", note)}
	// A form, as every dialog that asks for fields: the focus starts in
	// the name (it started nowhere, and what a keyboard user typed was
	// lost), and a refusal is said in the dialog, which keeps what was
	// typed.
	form := modal.NewForm(sc.s.win, "Add user", "Add user", "Cancel", items, func(done func(error)) {
		actor, name, email, password := sc.s.actor(), f.Name.Text, f.Email.Text, f.Password.Text
		offui.Run(sc.s.tasks, func() (struct{}, error) {
			return struct{}{}, sc.s.svc.RegisterUser(context.Background(), actor, name, email, password)
		}, func(_ struct{}, err error) {
			done(err)
			if err == nil {
				sc.refresh()
			}
		})
	})
	f.Add, f.Cancel = form.Confirm, form.Cancel
	form.Resize(fyne.NewSize(460, 0))
	sc.AddForm = f
	form.Show()
}

// changePassword asks for a new password for the signed-in user; a refused
// one keeps the dialog open with what was typed.
func (sc *UsersScreen) changePassword() {
	pw, again := modal.NewPasswordEntry(), modal.NewPasswordEntry()
	items := []*widget.FormItem{widget.NewFormItem("New password", pw), widget.NewFormItem("Repeat", again)}
	items[0].HintText = passwordHint()
	sc.PasswordForm = modal.NewForm(sc.s.win, "Change my password", "Change", "Cancel", items, func(done func(error)) {
		if pw.Text != again.Text {
			done(app.Errorf(app.CodeInvalid, "the two passwords differ"))
			return
		}
		actor, password := sc.s.actor(), pw.Text
		offui.Run(sc.s.tasks, func() (struct{}, error) {
			return struct{}{}, sc.s.svc.ChangePassword(context.Background(), actor, actor, password)
		}, func(_ struct{}, err error) {
			done(err)
			if err == nil {
				modal.ShowInformation("Password changed", "Use the new password from your next sign-in.", sc.s.win)
			}
		})
	})
	sc.PasswordForm.Resize(fyne.NewSize(460, 0))
	sc.PasswordForm.Show()
}

// passwordHint states the password rule before the first try.
func passwordHint() string {
	return fmt.Sprintf("At least %d characters", app.MinPasswordLength)
}
