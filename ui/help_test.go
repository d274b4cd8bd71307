package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"

	"votedesk/ui/uitest"
)

// menuItem finds an item of the main menu by its menu and label.
func menuItem(t *testing.T, m *fyne.MainMenu, menu, label string) *fyne.MenuItem {
	t.Helper()
	for _, mm := range m.Items {
		if mm.Label != menu {
			continue
		}
		for _, it := range mm.Items {
			if it.Label == label {
				return it
			}
		}
	}
	t.Fatalf("no %s ▸ %s", menu, label)
	return nil
}

// TestHelpMenu: Help lists the keyboard shortcuts (the ones the window
// binds, as they are typed) and opens a short guide that stays inside the
// window and scrolls.
func TestHelpMenu(t *testing.T) {
	h := newHarness(t, nil)
	h.owner()
	h.signIn("Olivia")
	menu := h.sh.menu()
	menuItem(t, menu, "Help", "Keyboard shortcuts").Action()
	got := h.dialogText()
	for _, want := range []string{"Ctrl+N", "New election", "Ctrl+Shift+L", "Sign out", "F5", "Escape"} {
		if !strings.Contains(got, want) {
			t.Errorf("the shortcuts dialog lacks %q:\n%s", want, got)
		}
	}
	h.closeDialogs()
	menuItem(t, menu, "Help", "Getting started").Action()
	h.relayout()
	got = strings.Join(uitest.Texts(h.win.Canvas()), " ")
	for _, want := range []string{"Close polls", "Finalize", "Back up database", "PRELIMINARY"} {
		if !strings.Contains(got, want) {
			t.Errorf("the guide lacks %q:\n%.400s", want, got)
		}
	}
	win := h.win.Canvas().Size()
	for _, o := range h.overlays() {
		if s := o.Size(); s.Width > win.Width || s.Height > win.Height {
			t.Errorf("the guide is %v in a window of %v", s, win)
		}
	}
	if h.win.Canvas().Size() != win {
		t.Errorf("the window grew to %v", h.win.Canvas().Size())
	}
}
