package testcluster

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"time"
)

// schedulerStartTimeout bounds kube-scheduler's start, generous for a busy 2-core machine.
const schedulerStartTimeout = 2 * time.Minute

// startScheduler runs kube-scheduler (the apiserver's release, its default profile) against c,
// logging to scheduler.log in dir, until it reports ready. It binds pods to the nodes KWOK plays.
func startScheduler(bin, dir string, c *Cluster) (*process, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin,
		"--kubeconfig="+c.Kubeconfig,
		// One scheduler, no Lease: it starts working at once.
		"--leader-elect=false",
		// Its health endpoint, on a port of its own so that test binaries do not clash; it serves
		// HTTPS with a certificate it makes in cert-dir.
		"--bind-address=127.0.0.1",
		fmt.Sprintf("--secure-port=%d", port),
		"--cert-dir="+filepath.Join(dir, "scheduler-certs"),
	)
	killWithParent(cmd)
	return startProcess("kube-scheduler", cmd, filepath.Join(dir, "scheduler.log"), func(p *process) error {
		return p.waitHealthy(fmt.Sprintf("https://127.0.0.1:%d/readyz", port), schedulerStartTimeout)
	})
}
