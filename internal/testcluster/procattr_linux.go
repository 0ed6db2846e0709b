package testcluster

import (
	"os/exec"
	"syscall"
)

// setParentDeathSignal kills a child when the test binary dies (e.g. on a test timeout), so that it
// does not linger holding ports and retrying a stopped apiserver.
func setParentDeathSignal(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
