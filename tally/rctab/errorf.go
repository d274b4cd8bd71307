package rctab

import "votedesk/tally"

// errorf makes an error of package rctab: a tally.Error, whose Message is its
// text without the package's name.
func errorf(format string, a ...any) error { return tally.NewError("rctab", format, a...) }
