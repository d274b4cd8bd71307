package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
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
