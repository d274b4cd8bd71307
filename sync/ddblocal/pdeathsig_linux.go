package ddblocal

import (
	"os/exec"
	"syscall"
)

// dieWithParent makes the server die with the test binary, even when that is
// killed before it can call Stop.
func dieWithParent(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
