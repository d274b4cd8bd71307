package app

import (
	"errors"
	"fmt"

	"votedesk/tally"
)

// Code classifies a domain error so callers (GUI, CLI, sync) can react
// without parsing messages.
type Code string

// The error codes every command and query may return.
const (
	CodeInvalid     Code = "invalid"
	CodeNotFound    Code = "not found"
	CodeConflict    Code = "conflict"
	CodeForbidden   Code = "forbidden"
	CodeUnavailable Code = "unavailable"
	CodeInternal    Code = "internal"
)

// Error is a domain error: a code and a message a user can act on. Err keeps
// the underlying cause for logs.
type Error struct {
	Code    Code
	Message string
	Err     error
}

// Error returns the user-facing message, followed by the cause if any.
func (e *Error) Error() string {
	if e.Err != nil {
		return e.Message + ": " + e.Err.Error()
	}
	return e.Message
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Errorf builds a domain error with a formatted message.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// ErrorCode returns the code of the first domain error in err's chain, or
// CodeInternal when there is none.
func ErrorCode(err error) Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return CodeInternal
}

// ErrorMessage returns the message to show a user: the domain error's message
// when there is one, a counting or file error's without its package's name
// (tally.Message), otherwise the whole error text.
func ErrorMessage(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Message
	}
	return tally.Message(err)
}

// IsCode reports whether err carries the given code.
func IsCode(err error, code Code) bool {
	var e *Error
	return errors.As(err, &e) && e.Code == code
}
