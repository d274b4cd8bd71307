//go:build unix

package relaunch

import (
	"fmt"
	"syscall"
)

// restart replaces this process with exe: the same process id, terminal
// and parent, which sees the new program's exit status.
func restart(exe string, args, env []string) error {
	err := syscall.Exec(exe, append([]string{exe}, args...), env)
	return fmt.Errorf("relaunch: exec %s: %w", exe, err)
}
