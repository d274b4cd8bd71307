package ui

import (
	"testing"

	"fyne.io/fyne/v2/test"

	"votedesk/app"
	"votedesk/app/apptest"
	"votedesk/assets"
	"votedesk/ui/offui"
)

func TestFirstRunCreatesTheOwner(t *testing.T) {
	h := newHarness(t, nil)
	s := h.sh.FirstRun
	if s == nil {
		t.Fatal("an empty database does not show the first-run screen")
	}
	h.assertGolden("first_run.xml")
	test.Type(s.Name, "Olivia")
	test.Type(s.Email, "Olivia@Example.org")
	test.Type(s.Password, "olivia-pass")
	test.Type(s.Repeat, "olivia-pass")
	test.Tap(s.Create)
	h.wait()
	u, err := h.svc.SignIn(h.ctx, "olivia@example.org", "olivia-pass")
	h.must(err)
	if u.Role != app.RoleOwner {
		t.Errorf("the first user is %s, want OWNER", u.Role)
	}
	if h.sh.Elections == nil || h.sh.screen != screenElections {
		t.Fatalf("after the first run the shell shows %q, want the elections", h.sh.screen)
	}
	h.assertGolden("elections_empty.xml")
}

func TestFirstRun(t *testing.T) {
	t.Run("ErrPasswordsDiffer", func(t *testing.T) {
		h := newHarness(t, nil)
		s := h.sh.FirstRun
		test.Type(s.Name, "Olivia")
		test.Type(s.Email, "olivia@example.org")
		test.Type(s.Password, "olivia-pass")
		test.Type(s.Repeat, "olivia-pasS")
		test.Tap(s.Create)
		h.wait()
		h.assertDialog("the two passwords differ")
		if ok, _ := h.svc.HasUsers(h.ctx); ok {
			t.Error("a user was registered")
		}
	})
	t.Run("ErrShortPassword", func(t *testing.T) {
		h := newHarness(t, nil)
		s := h.sh.FirstRun
		test.Type(s.Name, "Olivia")
		test.Type(s.Email, "olivia@example.org")
		test.Type(s.Password, "short")
		test.Type(s.Repeat, "short")
		test.Tap(s.Create)
		h.wait()
		h.assertDialog("at least 8 characters")
		if ok, _ := h.svc.HasUsers(h.ctx); ok {
			t.Error("a user was registered")
		}
	})
}

func TestSignIn(t *testing.T) {
	h := newHarness(t, nil)
	h.owner()
	h.sh.Show()
	if h.sh.SignIn == nil {
		t.Fatal("a database with users does not ask for sign-in")
	}
	h.assertGolden("sign_in.xml")
	t.Run("ErrWrongPassword", func(t *testing.T) {
		s := h.sh.SignIn
		test.Type(s.Login, "Olivia")
		test.Type(s.Password, "wrong-password")
		test.Tap(s.SignIn)
		h.wait()
		h.assertDialog("wrong name or password")
		if h.sh.sess != nil {
			t.Error("signed in with a wrong password")
		}
		if s.Password.Text != "" {
			t.Error("the wrong password stays in the field")
		}
		h.closeDialogs()
	})
	t.Run("SignedInByEmail", func(t *testing.T) {
		s := h.sh.SignIn
		s.Login.SetText("")
		test.Type(s.Login, "olivia@example.org")
		test.Type(s.Password, "olivia-pass")
		test.Tap(s.SignIn)
		h.wait()
		if h.sh.sess == nil || h.sh.sess.user.Name != "Olivia" {
			t.Fatal("not signed in")
		}
		if got := h.sh.UserLabel.Text; got != "Olivia · OWNER" {
			t.Errorf("user label %q", got)
		}
	})
	t.Run("RemembersLogin", func(t *testing.T) {
		h.sh.SignOut()
		if got := h.sh.SignIn.Login.Text; got != "Olivia" {
			t.Errorf("sign-in after sign-out offers %q, want Olivia", got)
		}
	})
	t.Run("OtherDatabaseDoesNotOfferIt", func(t *testing.T) {
		// The same app (its preferences) opens another database with
		// users of its own: Olivia is not one of them.
		other := mustOpenStore(t)
		svc := app.NewService(other, h.clock, &apptest.SeqIDs{})
		h.must(svc.RegisterUser(h.ctx, "", "Otto", "otto@example.org", "otto-password"))
		win := test.NewWindow(nil)
		defer win.Close()
		sh := NewShell(h.app, win, Config{Service: svc, DBPath: other.Path(), Icon: assets.Icon})
		sh.tasks = offui.NewManual()
		sh.Show()
		if got := sh.SignIn.Login.Text; got != "" {
			t.Errorf("another database's sign-in offers %q, want nothing", got)
		}
		if win.Canvas().Focused() != sh.SignIn.Login {
			t.Errorf("focus on %T, want the name", win.Canvas().Focused())
		}
		sh.Wait()
	})
}
