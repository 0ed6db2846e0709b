package testcluster

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// controllers are the kube-controller-manager controllers the local control plane runs: deleting a
// namespace deletes what is in it and then the namespace, and dependents follow their owners, as
// on a real cluster. No others: the Jobs and pods tests make are theirs.
const controllers = "namespace-controller,garbage-collector-controller"

// nodeControllers are added when nodes run (WithNodes), as on a real cluster: a new node loses
// its node.kubernetes.io/not-ready taint once Ready (and gets it back when its heartbeats stop),
// and the pods of a node that is gone are deleted.
const nodeControllers = ",node-lifecycle-controller,pod-garbage-collector-controller"

// controllersStartTimeout bounds the controller manager's start, generous for a busy 2-core machine.
const controllersStartTimeout = 2 * time.Minute

// controllersProbe is a namespace the controllers must delete before they count as ready.
const controllersProbe = "testcluster-controllers-probe"

// controllerManager is a running kube-controller-manager.
type controllerManager struct{ *process }

// startControllers runs kube-controller-manager against c (with nodeControllers when nodes run), logging to controllers.log in dir,
// until its namespace controller has deleted a probe namespace.
func startControllers(bin, dir string, c *Cluster, nodes bool) (*controllerManager, error) {
	list := controllers
	if nodes {
		list += nodeControllers
	}
	cmd := exec.Command(bin,
		"--kubeconfig="+c.Kubeconfig,
		"--controllers="+list,
		// One manager, no Lease: it starts working at once.
		"--leader-elect=false",
		// No serving: nothing scrapes or probes it, and a fixed port would clash between test binaries.
		"--secure-port=0",
	)
	killWithParent(cmd)
	p, err := startProcess("kube-controller-manager", cmd, filepath.Join(dir, "controllers.log"), func(p *process) error {
		return (&controllerManager{p}).waitReady(c)
	})
	if err != nil {
		return nil, err
	}
	return &controllerManager{p}, nil
}

// waitReady creates and deletes a probe namespace and waits until it is gone.
func (m *controllerManager) waitReady(c *Cluster) error {
	ctx, cancel := context.WithTimeout(context.Background(), controllersStartTimeout)
	defer cancel()
	client, err := kubernetes.NewForConfig(c.Config)
	if err != nil {
		return err
	}
	namespaces := client.CoreV1().Namespaces()
	probe := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: controllersProbe}}
	if _, err := namespaces.Create(ctx, probe, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return fmt.Errorf("creating the probe namespace: %w", err)
	}
	if err := namespaces.Delete(ctx, controllersProbe, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("deleting the probe namespace: %w", err)
	}
	return m.poll(ctx, "deleting the probe namespace "+controllersProbe, controllersStartTimeout, func() error {
		_, err := namespaces.Get(ctx, controllersProbe, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return nil
		}
		if err != nil {
			return err
		}
		return fmt.Errorf("it is still there")
	})
}
