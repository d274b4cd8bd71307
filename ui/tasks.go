package ui

import "votedesk/ui/offui"

// run calls work off the UI goroutine, then done with its result on it,
// on the screens' one Runner (offui), which tests wait on.
func run[T any](r *offui.Runner, work func() (T, error), done func(T, error)) {
	offui.Run(r, work, done)
}
