//go:build !linux

package ddblocal

import "os/exec"

// dieWithParent does nothing where the kernel cannot tie a child's life to
// its parent's; Stop still ends the server.
func dieWithParent(cmd *exec.Cmd) {}
