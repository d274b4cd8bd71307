package tally

import (
	"fmt"
	"slices"
	"strings"
)

// Error is an error of package tally or of a reader or writer beside it
// (cvr, rctab). Its text starts with the package's name, as Go errors do;
// Message is the same text without it, for a person. Callers in other
// packages find it with errors.As or Message, never by its text.
type Error struct {
	Package string
	Err     error
}

func (e *Error) Error() string { return e.Package + ": " + e.Err.Error() }

// Unwrap returns the error inside, for errors.Is and errors.As.
func (e *Error) Unwrap() error { return e.Err }

// Message is the error's text without the package's name.
func (e *Error) Message() string { return e.Err.Error() }

// NewError formats an Error of package pkg as fmt.Errorf formats (%w
// wraps); an Error among the arguments appears by its Message, so a chain
// of them names its package once.
func NewError(pkg, format string, a ...any) *Error {
	for i, x := range a {
		if e, ok := x.(*Error); ok {
			a = slices.Clone(a) // the caller's arguments stay as they were
			a[i] = told{e}
		}
	}
	return &Error{Package: pkg, Err: fmt.Errorf(format, a...)}
}

// told is an Error inside another: shown by its Message, unwrapping to it.
type told struct{ e *Error }

func (t told) Error() string { return t.e.Message() }
func (t told) Unwrap() error { return t.e }

// Message is err's text for a person: an Error's, or each of several joined
// errors', without the package's name; any other error's text as it is.
func Message(err error) string {
	switch x := err.(type) {
	case nil:
		return ""
	case *Error:
		return x.Message()
	case interface{ Unwrap() []error }:
		var parts []string
		for _, e := range x.Unwrap() {
			parts = append(parts, Message(e))
		}
		return strings.Join(parts, "\n")
	}
	return err.Error()
}

// errorf is NewError for package tally.
func errorf(format string, a ...any) error { return NewError("tally", format, a...) }
