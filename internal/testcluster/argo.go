package testcluster

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
)

// ArgoNamespace is where the workflow controller runs, as a release install's "argo": it reads its
// ConfigMap (workflow-controller-configmap) there. It watches Workflows in every namespace.
const ArgoNamespace = "argo"

// argoStartTimeout bounds the controller's start, generous for a busy 2-core machine.
const argoStartTimeout = 2 * time.Minute

// argoConfig is the workflow-controller-configmap's data. The controller exits when the ConfigMap
// is missing. Metrics are off: their server listens on a fixed port (9090) on every interface and
// panics when the port is taken, e.g. by a second test binary's controller. Values are YAML
// documents under top-level keys; each must end in a newline, or the controller joins key and
// value into invalid YAML.
var argoConfig = map[string]string{
	"metricsConfig": "enabled: false\n",
}

// argoProbe is a Workflow the controller must reconcile before it counts as ready: a suspend
// template, so no pod is involved.
const argoProbe = "testcluster-argo-probe"

// argoController is a running Argo Workflows workflow controller (cmd/workflow-controller).
type argoController struct{ *process }

// startArgo creates the controller's namespace and ConfigMap and runs the controller of release r
// against c, logging to argo.log in dir, until it has reconciled a probe Workflow.
func startArgo(r argoRelease, bin, dir string, c *Cluster) (*argoController, error) {
	if err := createArgoConfig(c); err != nil {
		return nil, fmt.Errorf("starting Argo's workflow controller: %w", err)
	}
	_, version, err := r.dir()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin,
		"--namespace="+ArgoNamespace,
		// Watch Workflows and pods in every namespace, as a cluster-wide install does.
		"--namespaced=false",
		// No kubelet runs here, so no image is ever pulled; Argo still writes it into every pod's
		// init and wait containers: the release's own, as an install of it has.
		"--executor-image=quay.io/argoproj/argoexec:"+version,
		"--loglevel=info",
	)
	cmd.Env = append(os.Environ(),
		"KUBECONFIG="+c.Kubeconfig,
		// One controller, no Lease: it starts working at once.
		"LEADER_ELECTION_DISABLE=true",
		// Argo processes a Workflow at most once per this interval (10s by default), also after a
		// pod change; its own end-to-end tests use 1s, "to speed up tests" (Makefile).
		"DEFAULT_REQUEUE_TIME=1s",
	)
	// Its /healthz listens on the fixed address :6060 (cmd/workflow-controller/main.go); when a
	// second controller holds the port this one only logs it, so readiness is not taken from there.
	killWithParent(cmd)
	p, err := startProcess("Argo's workflow controller", cmd, filepath.Join(dir, "argo.log"), func(p *process) error {
		return (&argoController{p}).waitReady(c)
	})
	if err != nil {
		return nil, err
	}
	return &argoController{p}, nil
}

// createArgoConfig creates ArgoNamespace and the controller's ConfigMap in it.
func createArgoConfig(c *Cluster) error {
	ctx := context.Background()
	client, err := kubernetes.NewForConfig(c.Config)
	if err != nil {
		return err
	}
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ArgoNamespace}}
	if _, err := client.CoreV1().Namespaces().Create(ctx, ns, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return fmt.Errorf("creating namespace %s: %w", ArgoNamespace, err)
	}
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "workflow-controller-configmap", Namespace: ArgoNamespace}, Data: argoConfig}
	if _, err := client.CoreV1().ConfigMaps(ArgoNamespace).Create(ctx, cm, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return fmt.Errorf("creating the workflow controller's ConfigMap: %w", err)
	}
	return nil
}

var workflowsGVR = schema.GroupVersionResource{Group: "argoproj.io", Version: "v1alpha1", Resource: "workflows"}

// waitReady submits a probe Workflow and waits until the controller gives it a phase: its
// informers have synced and its workers run. The probe is then deleted.
func (a *argoController) waitReady(c *Cluster) error {
	ctx, cancel := context.WithTimeout(context.Background(), argoStartTimeout)
	defer cancel()
	client, err := dynamic.NewForConfig(c.Config)
	if err != nil {
		return err
	}
	workflows := client.Resource(workflowsGVR).Namespace(ArgoNamespace)
	probe := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "argoproj.io/v1alpha1", "kind": "Workflow",
		"metadata": map[string]any{"name": argoProbe},
		"spec": map[string]any{
			"entrypoint": "wait",
			"templates":  []any{map[string]any{"name": "wait", "suspend": map[string]any{}}},
		},
	}}
	if _, err := workflows.Create(ctx, probe, metav1.CreateOptions{}); err != nil {
		return fmt.Errorf("creating the probe Workflow: %w", err)
	}
	defer func() { _ = workflows.Delete(context.Background(), argoProbe, metav1.DeleteOptions{}) }()
	return a.poll(ctx, "reconciling the probe Workflow "+ArgoNamespace+"/"+argoProbe, argoStartTimeout, func() error {
		wf, err := workflows.Get(ctx, argoProbe, metav1.GetOptions{})
		if err != nil {
			return fmt.Errorf("reading the probe Workflow: %w", err)
		}
		if phase, _, _ := unstructured.NestedString(wf.Object, "status", "phase"); phase == "" {
			return fmt.Errorf("it has no phase yet")
		}
		return nil
	})
}
