package testcluster

import (
	"os/exec"
	"syscall"
)

// killWithParent has cmd killed when the test binary dies (e.g. on a test timeout), so that it
// does not linger retrying a stopped apiserver.
func killWithParent(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
