package relaunch

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
)

// Restart starts this program again with the same arguments and
// environment and one variable more, marker ("NAME=value", replacing any
// NAME set already). On Unix the new program replaces this process and
// Restart returns only if that failed; elsewhere it starts the new program
// as a process of its own and returns nil, and the caller exits.
func Restart(marker string) error { return again(restart, marker) }

// again runs this program again through start, with marker set.
func again(start func(exe string, args, env []string) error, marker string) error {
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("relaunch: %w", err)
	}
	return start(exe, os.Args[1:], withVar(os.Environ(), marker))
}

// withVar returns env with kv ("NAME=value") as NAME's only value.
func withVar(env []string, kv string) []string {
	name, _, _ := strings.Cut(kv, "=")
	out := make([]string, 0, len(env)+1)
	for _, e := range env {
		if n, _, _ := strings.Cut(e, "="); n != name {
			out = append(out, e)
		}
	}
	return append(out, kv)
}

// spawn starts exe with args and env as a new process that has this one's
// standard streams, and does not wait for it.
func spawn(exe string, args, env []string) error {
	cmd := exec.Command(exe, args...)
	cmd.Env = env
	// A Windows GUI program may have no standard streams: the new process
	// then has none either.
	if os.Stdin != nil {
		cmd.Stdin = os.Stdin
	}
	if os.Stdout != nil {
		cmd.Stdout = os.Stdout
	}
	if os.Stderr != nil {
		cmd.Stderr = os.Stderr
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("relaunch: start %s: %w", exe, err)
	}
	return cmd.Process.Release()
}
