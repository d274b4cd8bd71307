package app

import (
	"strings"
	"testing"

	"golang.org/x/text/unicode/norm"
)

// FuzzNameKey: the quick path for plain ASCII names gives what the full
// rule (normalize, tidy spacing, fold case) gives, as a string and as
// bytes appended.
func FuzzNameKey(f *testing.F) {
	for _, s := range []string{"Ann Lee", "ann lee", " Ann", "Ann ", "Ann  Lee", "Ann\tLee", "ANN", "Zoë", "Zoe\u0308", "A\u00a0B",
		"x\u0085y", "", " ", "O'Brien-Smith", "\x00A", "a\x7fB", "\u212a", "İstanbul"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := strings.ToLower(strings.Join(strings.Fields(norm.NFC.String(s)), " "))
		if got := NameKey(s); got != want {
			t.Errorf("NameKey(%q) = %q, want %q", s, got, want)
		}
		if got := string(appendNameKey([]byte("x"), []byte(s))); got != "x"+want {
			t.Errorf("appendNameKey(%q) = %q, want %q", s, got, "x"+want)
		}
	})
}
