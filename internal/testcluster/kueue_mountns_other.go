//go:build !linux

package testcluster

import (
	"fmt"
	"os/exec"
	"runtime"
)

// kueueCommand needs a Linux mount namespace to give Kueue's manager its fixed certificate path
// without writing the host's /etc.
func kueueCommand(string, []string, string, string) (*exec.Cmd, error) {
	return nil, fmt.Errorf("running Kueue's manager needs Linux mount namespaces, not %s: "+
		"run the tests against a cluster named by KUBECONFIG", runtime.GOOS)
}

const mountNamespaceHint = "run the tests on Linux, or against a cluster named by KUBECONFIG"
