package ui

import (
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"votedesk/app"
	"votedesk/localstore"
)

// TestCreatePrompt: the question names the path and says nothing was
// created; each button gives its answer.
func TestCreatePrompt(t *testing.T) {
	for _, tc := range []struct {
		button string
		want   bool
	}{{"Quit", false}, {"Create a new database", true}} {
		var got *bool
		p := NewCreatePrompt("/home/olga/votse.db", func(ok bool) { got = &ok })
		if !strings.Contains(p.Message.Text, "/home/olga/votse.db") || !strings.Contains(p.Message.Text, "nothing has been created") {
			t.Errorf("message: %q", p.Message.Text)
		}
		b := p.Quit
		if tc.button != "Quit" {
			b = p.Create
		}
		if b.Text != tc.button {
			t.Fatalf("button %q, want %q", b.Text, tc.button)
		}
		test.Tap(b)
		if got == nil || *got != tc.want {
			t.Errorf("%s answered %v", tc.button, got)
		}
	}
}

// TestCreatePromptKeys: the focus starts on Quit; Escape quits from it,
// Enter presses the focused button, and Tab then Enter creates.
func TestCreatePromptKeys(t *testing.T) {
	test.NewTempApp(t)
	for _, tc := range []struct {
		keys []fyne.KeyName
		want bool
	}{
		{[]fyne.KeyName{fyne.KeyEscape}, false},
		{[]fyne.KeyName{fyne.KeyReturn}, false},
		{[]fyne.KeyName{fyne.KeyTab, fyne.KeyReturn}, true},
	} {
		var got []bool
		p := NewCreatePrompt("/home/olga/votse.db", func(ok bool) { got = append(got, ok) })
		w := test.NewTempWindow(t, nil)
		p.Put(w)
		c := w.Canvas()
		if c.Focused() != p.Quit {
			t.Fatalf("focus on %v, want Quit", c.Focused())
		}
		for _, k := range tc.keys {
			if k == fyne.KeyTab {
				c.FocusNext()
				continue
			}
			c.Focused().TypedKey(&fyne.KeyEvent{Name: k})
		}
		if len(got) != 1 || got[0] != tc.want {
			t.Errorf("%v: answered %v, want [%v]", tc.keys, got, tc.want)
		}
	}
}

// TestCannotOpen: a database the app cannot open (here, one another
// VoteDesk has open, as localstore says it) is said in a window of its
// own, naming the file and why, with the focus on Quit; Enter, Escape and
// Quit each close it once.
func TestCannotOpen(t *testing.T) {
	test.NewTempApp(t)
	path := filepath.Join(t.TempDir(), "votedesk.db")
	st, err := localstore.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	_, err = localstore.Open(path)
	if err == nil {
		t.Fatal("a second open of the database succeeded")
	}
	for _, key := range []fyne.KeyName{fyne.KeyReturn, fyne.KeyEscape, ""} {
		closed := 0
		p := NewCannotOpen(path, app.ErrorMessage(err), func() { closed++ })
		if !strings.Contains(p.Message.Text, path) || !strings.Contains(p.Message.Text, "already open by another VoteDesk") || !strings.Contains(p.Message.Text, "Nothing was changed") {
			t.Errorf("message: %q", p.Message.Text)
		}
		w := test.NewTempWindow(t, nil)
		p.Put(w)
		c := w.Canvas()
		if c.Focused() != p.Quit {
			t.Fatalf("focus on %v, want Quit", c.Focused())
		}
		if key == "" {
			test.Tap(p.Quit)
		} else {
			c.Focused().TypedKey(&fyne.KeyEvent{Name: key})
		}
		if closed != 1 {
			t.Errorf("%q: closed %d times, want once", key, closed)
		}
	}
}
