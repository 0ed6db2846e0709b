package testcluster

import (
	"os/exec"
	"syscall"
)

// mountKueueEtc runs in the manager's private mount namespace before it starts, with the arguments
// tmpfsDir certDir kueueMetricsCertDir command.... /etc/kueue does not exist on the host, and
// creating it would write there, so /etc is overlaid: reads fall through to the host's /etc, writes
// go to an upper layer on a tmpfs (which, unlike an overlay root filesystem, can hold one), and
// certDir is bind-mounted at the fixed certificate path. All of it goes away with the process.
const mountKueueEtc = `set -eu
tmpfs=$1 certs=$2 target=$3
shift 3
fail() {
	echo "testcluster: $1: Kueue's manager finds its certificate at $target through an overlay of /etc in a private mount namespace, which needs root (CAP_SYS_ADMIN) and overlayfs" >&2
	exit 1
}
mount -t tmpfs -o mode=0700 kueue-etc "$tmpfs" || fail "cannot mount a tmpfs on $tmpfs"
(cd "$tmpfs" && mkdir upper work && mount -t overlay kueue-etc -o lowerdir=/etc,upperdir=upper,workdir=work /etc) || fail "cannot overlay /etc"
mkdir -p "$target" && mount --bind "$certs" "$target" || fail "cannot bind-mount $certs at $target"
exec "$@"
`

// kueueCommand runs bin with args in a new mount namespace (Go makes its mounts private, so none
// reaches the host) in which certDir is at kueueMetricsCertDir; tmpfsDir, an empty directory, holds
// the overlay of /etc. The child is killed if the test binary dies (e.g. on a test timeout), so
// that it does not linger holding ports and retrying a stopped apiserver.
func kueueCommand(bin string, args []string, tmpfsDir, certDir string) (*exec.Cmd, error) {
	shArgs := append([]string{"-c", mountKueueEtc, "sh", tmpfsDir, certDir, kueueMetricsCertDir, bin}, args...)
	cmd := exec.Command("/bin/sh", shArgs...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Unshareflags: syscall.CLONE_NEWNS, Pdeathsig: syscall.SIGKILL}
	return cmd, nil
}

// mountNamespaceHint says what kueueCommand's process needs when it cannot start.
const mountNamespaceHint = "Kueue's manager runs in a private mount namespace (unshare CLONE_NEWNS), so that its fixed " +
	"certificate path " + kueueMetricsCertDir + " exists without writing the host's /etc: run the tests as root " +
	"(or with CAP_SYS_ADMIN), or against a cluster named by KUBECONFIG"
