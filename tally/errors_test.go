package tally

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestErrorMessage: an error of the tally family names its package in its
// text and not in its Message, however it is wrapped inside another of the
// family or joined with others; errors.Is and errors.As see through it.
func TestErrorMessage(t *testing.T) {
	inner := errorf("ballot %d: candidate %d does not exist", 3, 9)
	outer := errorf("pass %d: %w", 2, inner)
	joined := errors.Join(errorf("threshold: %s", "too low"), outer)
	for _, tc := range []struct {
		err       error
		text, msg string
	}{
		{inner, "tally: ballot 3: candidate 9 does not exist", "ballot 3: candidate 9 does not exist"},
		{outer, "tally: pass 2: ballot 3: candidate 9 does not exist", "pass 2: ballot 3: candidate 9 does not exist"},
		{joined, "tally: threshold: too low\ntally: pass 2: ballot 3: candidate 9 does not exist", "threshold: too low\npass 2: ballot 3: candidate 9 does not exist"},
		{fmt.Errorf("plain"), "plain", "plain"},
		{nil, "", ""},
	} {
		if tc.err != nil && tc.err.Error() != tc.text {
			t.Errorf("Error() = %q, want %q", tc.err.Error(), tc.text)
		}
		if got := Message(tc.err); got != tc.msg {
			t.Errorf("Message = %q, want %q", got, tc.msg)
		}
	}
	if !errors.Is(outer, inner) {
		t.Error("the wrapped error is lost to errors.Is")
	}
	var e *Error
	if !errors.As(joined, &e) || e.Package != "tally" {
		t.Error("errors.As finds no Error in a joined error")
	}
	if strings.Contains(Message(NewError("rctab", "config: %w", inner)), "tally:") {
		t.Error("an Error of another package inside shows its package name")
	}
}
