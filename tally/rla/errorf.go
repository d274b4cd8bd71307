package rla

import "votedesk/tally"

// errorf makes an error of package rla: a tally.Error, whose Message is its
// text without the package's name.
func errorf(format string, a ...any) error { return tally.NewError("rla", format, a...) }
