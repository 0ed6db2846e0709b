package testcluster

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

const karpenterModule = "sigs.k8s.io/karpenter"

// karpenterStartTimeout bounds Karpenter's start, generous for a busy 2-core machine.
const karpenterStartTimeout = 2 * time.Minute

// karpenterFeatureGates are Karpenter's feature gates as the platform needs them: NodeOverlay on,
// for the MIG capacity the pools declare (the rest at their defaults).
const karpenterFeatureGates = "NodeOverlay=true"

// StartKarpenter runs Karpenter's controllers with its KWOK cloud provider (sigs.k8s.io/karpenter
// kwok/, the version go.mod pins) against the cluster, with instanceTypes (see
// KarpenterInstanceTypes) as the instance types it may launch, logging to karpenter.log in the
// cluster's directory (karpenter-N.log for its Nth start). Karpenter reads them once, at its start, so a running one is stopped first.
// It launches nodes only for NodePools whose nodeClassRef is a KWOKNodeClass (see
// UseKWOKNodeClass); KWOK, which the cluster runs WithNodes, plays the nodes.
func (c *Cluster) StartKarpenter(instanceTypes []byte) error {
	if c.scheduler == nil {
		return fmt.Errorf("starting Karpenter: the cluster was started without WithNodes, so no scheduler or KWOK runs")
	}
	if err := c.StopKarpenter(); err != nil {
		return err
	}
	bin, err := pinnedTool("karpenter-kwok", karpenterModule)
	if err != nil {
		return err
	}
	types := filepath.Join(c.dir, "karpenter-instance-types.json")
	if err := os.WriteFile(types, instanceTypes, 0o600); err != nil {
		return err
	}
	metrics, err := freePort()
	if err != nil {
		return err
	}
	health, err := freePort()
	if err != nil {
		return err
	}
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(),
		"KUBECONFIG="+c.Kubeconfig,
		"INSTANCE_TYPES_FILE_PATH="+types,
		// One controller, no Lease: it starts working at once.
		"DISABLE_LEADER_ELECTION=true",
		fmt.Sprintf("METRICS_PORT=%d", metrics),
		fmt.Sprintf("HEALTH_PROBE_PORT=%d", health),
		"FEATURE_GATES="+karpenterFeatureGates,
	)
	killWithParent(cmd)
	c.karpenterStarts++
	logName := "karpenter.log"
	if c.karpenterStarts > 1 {
		logName = fmt.Sprintf("karpenter-%d.log", c.karpenterStarts)
	}
	p, err := startProcess("Karpenter", cmd, filepath.Join(c.dir, logName), func(p *process) error {
		return p.waitHealthy(fmt.Sprintf("http://127.0.0.1:%d/readyz", health), karpenterStartTimeout)
	})
	if err != nil {
		return err
	}
	c.karpenter = p
	return nil
}

// StopKarpenter stops Karpenter if it runs; the nodes it made stay.
func (c *Cluster) StopKarpenter() error {
	if c.karpenter == nil {
		return nil
	}
	err := c.karpenter.stop()
	c.karpenter = nil
	return err
}
