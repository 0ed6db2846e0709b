package testcluster

import (
	_ "embed"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

const kwokModule = "sigs.k8s.io/kwok"

// kwokStartTimeout bounds KWOK's start, generous for a busy 2-core machine.
const kwokStartTimeout = 2 * time.Minute

// KWOKNodeAnnotation marks the nodes KWOK plays: Karpenter's KWOK cloud provider puts it on every
// node it makes (kwok.x-k8s.io/node=fake).
const KWOKNodeAnnotation = "kwok.x-k8s.io/node"

// kwokUpstreamStages are KWOK's own stages, read from its module: a node becomes Ready with the
// capacity Karpenter gave it and keeps sending heartbeats (its Lease, renewed by KWOK, as a
// kubelet does), and a pod bound to one runs at once. The project's stages (kwok_stages.yaml) end
// the pods' containers.
var kwokUpstreamStages = []string{
	"kustomize/stage/node/fast/node-initialize.yaml",
	"kustomize/stage/node/heartbeat-with-lease/node-heartbeat-with-lease.yaml",
	"kustomize/stage/pod/fast/pod-ready.yaml",
}

// The pod annotations the project's KWOK stages read (kwok_stages.yaml): how long a pod's
// containers run before they end, the exit code they end with (default 0), and how many seconds
// its trainer takes to exit on SIGTERM (default 1; at its grace period's end it is killed).
const (
	RunForAnnotation             = "testcluster.mlplatform.io/run-for"
	ExitCodeAnnotation           = "testcluster.mlplatform.io/exit-code"
	SIGTERMExitSecondsAnnotation = "testcluster.mlplatform.io/sigterm-exit-seconds"
)

//go:embed kwok_stages.yaml
var kwokStages []byte

// startKWOK runs KWOK's controller against c for the nodes annotated KWOKNodeAnnotation=fake,
// logging to kwok.log in dir, until it reports healthy.
func startKWOK(bin, dir string, c *Cluster) (*process, error) {
	root, err := toolModuleDir("kwok", kwokModule)
	if err != nil {
		return nil, err
	}
	own := filepath.Join(dir, "kwok-stages.yaml")
	if err := os.WriteFile(own, kwokStages, 0o600); err != nil {
		return nil, err
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	args := []string{
		"--kubeconfig=" + c.Kubeconfig,
		"--manage-nodes-with-annotation-selector=" + KWOKNodeAnnotation + "=fake",
		fmt.Sprintf("--server-address=127.0.0.1:%d", port),
		// The kubelet's default: the node lifecycle controller takes a node whose Lease is not
		// renewed within its grace period for NotReady.
		"--node-lease-duration-seconds=40",
		"--config=" + own,
	}
	for _, s := range kwokUpstreamStages {
		args = append(args, "--config="+filepath.Join(root, s))
	}
	cmd := exec.Command(bin, args...)
	killWithParent(cmd)
	return startProcess("KWOK", cmd, filepath.Join(dir, "kwok.log"), func(p *process) error {
		return p.waitHealthy(fmt.Sprintf("http://127.0.0.1:%d/healthz", port), kwokStartTimeout)
	})
}

// toolModuleDir is where the module cache holds module at the version that tools/<tool>/go.mod
// pins (the tool's own files, e.g. KWOK's stages).
func toolModuleDir(tool, module string) (string, error) {
	root, err := repoRoot()
	if err != nil {
		return "", err
	}
	dir, _, err := moduleDirIn(filepath.Join(root, "internal/testcluster/tools", tool), module)
	return dir, err
}
