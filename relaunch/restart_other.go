//go:build !unix

package relaunch

// restart starts exe as a new process, for this one to exit: there is no
// exec here (on Windows syscall.Exec returns EWINDOWS).
func restart(exe string, args, env []string) error { return spawn(exe, args, env) }
