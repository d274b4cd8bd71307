package ui

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"votedesk/app"
	"votedesk/ui/modal"
	"votedesk/ui/uitest"
)

func TestUsersAndRoles(t *testing.T) {
	h := newHarness(t, nil)
	h.owner()
	h.signIn("Olivia")
	h.sh.ShowScreen(screenUsers)
	h.wait()
	u := h.sh.Users

	t.Run("RefusedKeepsTheForm", func(t *testing.T) {
		test.Tap(u.Add)
		f := u.AddForm
		if c := h.win.Canvas(); c.Focused() != f.Name {
			t.Errorf("Add user: focus on %T, want the name", c.Focused())
		}
		test.Type(f.Name, "Adam")
		test.Type(f.Email, "adam@example.org")
		test.Type(f.Password, "short")
		test.Tap(f.Add)
		h.wait()
		if h.win.Canvas().Overlays().Top() == nil || f.Name.Text != "Adam" || !strings.Contains(h.dialogText(), "at least 8 characters") {
			t.Errorf("a refused user: dialog open %v, name %q, text %q", h.win.Canvas().Overlays().Top() != nil, f.Name.Text, h.dialogText())
		}
		h.closeDialogs()
	})
	t.Run("UserAdded", func(t *testing.T) {
		test.Tap(u.Add)
		f := u.AddForm
		test.Type(f.Name, "Adam")
		test.Type(f.Email, "adam@example.org")
		test.Type(f.Password, "adam-pass")
		test.Tap(f.Add)
		h.wait()
		got, err := h.svc.User(h.ctx, "Olivia", "Adam")
		h.must(err)
		if got.Role != app.RoleUser {
			t.Errorf("new user is %s", got.Role)
		}
		if len(u.users) != 2 {
			t.Errorf("the table shows %d users", len(u.users))
		}
	})
	t.Run("OwnerOffersRolesBelowOwner", func(t *testing.T) {
		u.Select("Adam")
		want := "NO_ACCESS OBSERVER VOTER USER ADMIN AUDITOR"
		if got := strings.Join(u.Role.Options, " "); got != want {
			t.Errorf("roles offered %q, want %q", got, want)
		}
		u.Role.SetSelected("ADMIN")
		h.wait()
		got, _ := h.svc.User(h.ctx, "Olivia", "Adam")
		if got.Role != app.RoleAdmin {
			t.Errorf("Adam is %s", got.Role)
		}
	})
	t.Run("SeeingSecretBallotsIsConfirmed", func(t *testing.T) {
		u.Select("Adam")
		u.Role.SetSelected("AUDITOR")
		h.wait()
		if got, _ := h.svc.User(h.ctx, "Olivia", "Adam"); got.Role != app.RoleAdmin {
			t.Fatalf("Adam is %s before anyone confirmed", got.Role)
		}
		if text := h.dialogText(); !strings.Contains(text, "Make Adam an AUDITOR?") || !strings.Contains(text, "who cast each ballot") {
			t.Errorf("the confirmation says %q", text)
		}
		h.tapDialogButton("No")
		h.wait()
		if got, _ := h.svc.User(h.ctx, "Olivia", "Adam"); got.Role != app.RoleAdmin {
			t.Errorf("Adam is %s after the change was cancelled", got.Role)
		}
		if u.Role.Selected != "" {
			t.Errorf("after a cancel the role picker shows %q", u.Role.Selected)
		}
		u.Role.SetSelected("AUDITOR")
		h.wait()
		h.tapDialogButton("Make AUDITOR")
		h.wait()
		if got, _ := h.svc.User(h.ctx, "Olivia", "Adam"); got.Role != app.RoleAuditor {
			t.Errorf("Adam is %s after the change was confirmed", got.Role)
		}
		h.clock.Add(time.Second) // not the same event as the first change to ADMIN
		u.Select("Adam")
		u.Role.SetSelected("ADMIN") // less is not asked
		h.wait()
		h.clock.Add(-time.Second)
		if got, _ := h.svc.User(h.ctx, "Olivia", "Adam"); got.Role != app.RoleAdmin || h.win.Canvas().Overlays().Top() != nil {
			t.Errorf("back to ADMIN: Adam is %s, a dialog open: %q", got.Role, h.dialogText())
		}
	})
	t.Run("NoRolesForOneself", func(t *testing.T) {
		u.Select("Olivia")
		if !u.Role.Disabled() || len(u.Role.Options) != 0 {
			t.Errorf("roles offered for oneself: %v", u.Role.Options)
		}
		if !u.Transfer.Disabled() {
			t.Error("transfer to oneself offered")
		}
	})
	t.Run("AdminOffersRolesBelowAdmin", func(t *testing.T) {
		h.addUser("Ursula", app.RoleUser)
		h.addUser("Audrey", app.RoleAuditor)
		h.signIn("Adam")
		h.sh.ShowScreen(screenUsers)
		h.wait()
		u := h.sh.Users
		u.Select("Ursula")
		if got := strings.Join(u.Role.Options, " "); got != "NO_ACCESS OBSERVER VOTER USER" {
			t.Errorf("roles offered %q", got)
		}
		u.Select("Audrey")
		if !u.Role.Disabled() || !u.Remove.Disabled() {
			t.Error("an ADMIN may change an AUDITOR")
		}
		if u.Transfer.Visible() {
			t.Error("an ADMIN sees Transfer ownership")
		}
		h.assertGolden("users_admin.xml")
	})
	t.Run("ObserverSeesNoActions", func(t *testing.T) {
		h.addUser("Oscar", app.RoleObserver)
		h.signIn("Oscar")
		h.sh.ShowScreen(screenUsers)
		h.wait()
		u := h.sh.Users
		if u.Add.Visible() || u.Role.Visible() || u.Remove.Visible() || u.Transfer.Visible() {
			t.Error("an OBSERVER sees user management")
		}
		if len(u.users) != 5 {
			t.Errorf("observer sees %d users", len(u.users))
		}
	})
	t.Run("OwnershipTransferred", func(t *testing.T) {
		h.signIn("Olivia")
		h.sh.ShowScreen(screenUsers)
		h.wait()
		u := h.sh.Users
		u.Select("Adam")
		test.Tap(u.Transfer)
		h.tapDialogButton("Transfer")
		adam, _ := h.svc.User(h.ctx, "Olivia", "Adam")
		olivia, _ := h.svc.User(h.ctx, "Olivia", "Olivia")
		if adam.Role != app.RoleOwner || olivia.Role != app.RoleAuditor {
			t.Errorf("Adam %s, Olivia %s", adam.Role, olivia.Role)
		}
		h.assertDialog("Your role changed", "You are now AUDITOR")
		if h.sh.UserLabel.Text != "Olivia · AUDITOR" {
			t.Errorf("user label %q", h.sh.UserLabel.Text)
		}
		if h.sh.Users.Transfer.Visible() {
			t.Error("the former owner still sees Transfer ownership")
		}
	})
}

// TestRolesAreExplained: the users screen says what every role may do, in
// words, from the one description each role has.
func TestRolesAreExplained(t *testing.T) {
	h := newHarness(t, nil)
	h.owner()
	h.signIn("Olivia")
	h.sh.ShowScreen(screenUsers)
	h.wait()
	sc := h.sh.Users
	if sc == nil || sc.Roles == nil {
		t.Fatal("no users screen")
	}
	text := sc.Roles.Text
	for _, r := range app.Roles() {
		d := r.Description()
		if len(d) < 20 {
			t.Errorf("%s has no description: %q", r, d)
		}
		if !strings.Contains(text, r.String()) || !strings.Contains(text, d) {
			t.Errorf("the users screen does not explain %s", r)
		}
	}
}

// TestChangePasswordKeepsARefusal: the rule is stated before the first try;
// a short or mistyped password is refused inside the dialog, which keeps
// what was typed; a good one changes it and closes the dialog.
func TestChangePasswordKeepsARefusal(t *testing.T) {
	h := newHarness(t, nil)
	h.owner()
	h.signIn("Olivia")
	h.sh.ShowScreen(screenUsers)
	h.wait()
	u := h.sh.Users
	test.Tap(u.Password)
	f := u.PasswordForm
	if got := strings.Join(uitest.Texts(h.win.Canvas()), " "); !strings.Contains(got, "At least 8 characters") {
		t.Errorf("the rule is not stated before the first try")
	}
	entries := dialogEntries(h)
	for _, tc := range []struct{ pw, again, says string }{
		{"short", "short", "at least 8 characters"},
		{"long-enough", "long-enuogh", "the two passwords differ"},
	} {
		entries[0].SetText(tc.pw)
		entries[1].SetText(tc.again)
		test.Tap(f.Confirm)
		h.wait()
		if len(h.overlays()) != 1 || !f.Error.Visible() || !strings.Contains(f.Error.Text, tc.says) || entries[0].Text != tc.pw {
			t.Errorf("%q/%q: %d dialogs, error %q, field %q", tc.pw, tc.again, len(h.overlays()), f.Error.Text, entries[0].Text)
		}
	}
	entries[1].SetText("long-enough")
	test.Tap(f.Confirm)
	h.wait()
	if _, err := h.svc.SignIn(h.ctx, "Olivia", "long-enough"); err != nil {
		t.Fatalf("the password was not changed: %v", err)
	}
	h.assertDialog("Password changed")
}

// dialogEntries lists the text fields of the top dialog.
func dialogEntries(h *harness) []*modal.Entry {
	var out []*modal.Entry
	for _, o := range walk(h.win.Canvas().Overlays().Top()) {
		if e, ok := o.(*modal.Entry); ok {
			out = append(out, e)
		}
	}
	return out
}
