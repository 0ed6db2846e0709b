package moduletest

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	mlacctest "github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
)

// runs submits the templates' runs and watches them.
type runs struct {
	t   *testing.T
	cfg *rest.Config
}

// submit runs template as Workflow ns/name, whose pods end after runFor; the Workflow is deleted
// before the destroy (cleanups run last first), as a team's destroy refuses to delete a namespace
// that holds what it did not write.
func (r *runs) submit(ns, name, template, runFor string) {
	r.t.Helper()
	client := dynamic.NewForConfigOrDie(r.cfg)
	mlacctest.SubmitRun(r.t, client, ns, name, template, runFor, "")
	r.t.Cleanup(func() {
		err := client.Resource(mlacctest.Workflows).Namespace(ns).Delete(context.Background(), name, metav1.DeleteOptions{})
		if err != nil && !apierrors.IsNotFound(err) {
			r.t.Error(err)
		}
	})
}

// waitWorkflow waits up to three minutes (a node to launch, the run, Argo's requeue) for the
// Workflow's phase.
func (r *runs) waitWorkflow(ns, name, phase string) *unstructured.Unstructured {
	r.t.Helper()
	var got, msg string
	var wf *unstructured.Unstructured
	for deadline := time.Now().Add(3 * time.Minute); time.Now().Before(deadline); time.Sleep(time.Second) {
		var err error
		if wf, err = dynamic.NewForConfigOrDie(r.cfg).Resource(mlacctest.Workflows).Namespace(ns).Get(r.t.Context(), name, metav1.GetOptions{}); err != nil {
			r.t.Fatal(err)
		}
		got, _, _ = unstructured.NestedString(wf.Object, "status", "phase")
		msg, _, _ = unstructured.NestedString(wf.Object, "status", "message")
		if got == phase {
			return wf
		}
	}
	r.t.Fatalf("Workflow %s/%s is %q (%s) after 3m; want %s; its pods: %s", ns, name, got, msg, phase, r.describePods(ns, name))
	return nil
}

// podOf is the one pod of a Workflow's run.
func (r *runs) podOf(ns, workflow string) *corev1.Pod {
	r.t.Helper()
	list, err := kubernetes.NewForConfigOrDie(r.cfg).CoreV1().Pods(ns).List(r.t.Context(), metav1.ListOptions{LabelSelector: "workflows.argoproj.io/workflow=" + workflow})
	if err != nil {
		r.t.Fatal(err)
	}
	if len(list.Items) != 1 {
		r.t.Fatalf("Workflow %s/%s has %d pods; want 1", ns, workflow, len(list.Items))
	}
	return &list.Items[0]
}

func (r *runs) node(name string) *corev1.Node {
	r.t.Helper()
	node, err := kubernetes.NewForConfigOrDie(r.cfg).CoreV1().Nodes().Get(r.t.Context(), name, metav1.GetOptions{})
	if err != nil {
		r.t.Fatalf("node %q of the run: %v", name, err)
	}
	return node
}

// waitNodeGone waits until Karpenter has removed the node, and says when it saw it gone.
func (r *runs) waitNodeGone(name string) time.Time {
	r.t.Helper()
	for deadline := time.Now().Add(2 * time.Minute); time.Now().Before(deadline); time.Sleep(time.Second) {
		_, err := kubernetes.NewForConfigOrDie(r.cfg).CoreV1().Nodes().Get(r.t.Context(), name, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return time.Now()
		}
	}
	r.t.Fatalf("node %s is still there 2m after its run ended; the pool's disruption removes an empty node after %s", name, consolidateAfter)
	return time.Time{}
}

// describePods is the Workflow's pods with their phase, node and conditions, for a failure message.
func (r *runs) describePods(ns, workflow string) string {
	list, err := kubernetes.NewForConfigOrDie(r.cfg).CoreV1().Pods(ns).List(context.Background(), metav1.ListOptions{LabelSelector: "workflows.argoproj.io/workflow=" + workflow})
	if err != nil {
		return err.Error()
	}
	var out []string
	for _, p := range list.Items {
		out = append(out, fmt.Sprintf("%s %s on %q gates %v conditions %+v", p.Name, p.Status.Phase, p.Spec.NodeName, p.Spec.SchedulingGates, p.Status.Conditions))
	}
	return fmt.Sprint(out)
}

// waitRunning waits for a pod of the Workflow, other than those in skip, running on a node.
func (r *runs) waitRunning(ns, workflow string, skip []types.UID) *corev1.Pod {
	r.t.Helper()
	pods := kubernetes.NewForConfigOrDie(r.cfg).CoreV1().Pods(ns)
	for deadline := time.Now().Add(3 * time.Minute); time.Now().Before(deadline); time.Sleep(time.Second) {
		list, err := pods.List(r.t.Context(), metav1.ListOptions{LabelSelector: "workflows.argoproj.io/workflow=" + workflow})
		if err != nil {
			r.t.Fatal(err)
		}
		for i := range list.Items {
			p := &list.Items[i]
			if !slices.Contains(skip, p.UID) && p.DeletionTimestamp == nil && p.Status.Phase == corev1.PodRunning && p.Spec.NodeName != "" {
				return p
			}
		}
	}
	r.t.Fatalf("no pod of Workflow %s/%s running on a node within 3m; its pods: %s", ns, workflow, r.describePods(ns, workflow))
	return nil
}

// nodeClaimOf is the NodeClaim of a node. Karpenter sets a NodeClaim's providerID when it
// launches, but its nodeName (and the node's nodeclaim label) only once it has registered the
// node, which may come after the node already runs pods: match either, and wait for them.
func (r *runs) nodeClaimOf(node *corev1.Node) string {
	r.t.Helper()
	client := dynamic.NewForConfigOrDie(r.cfg).Resource(nodeClaims)
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(time.Second) {
		list, err := client.List(r.t.Context(), metav1.ListOptions{})
		if err != nil {
			r.t.Fatal(err)
		}
		for _, c := range list.Items {
			name, _, _ := unstructured.NestedString(c.Object, "status", "nodeName")
			id, _, _ := unstructured.NestedString(c.Object, "status", "providerID")
			if name == node.Name || (id != "" && id == node.Spec.ProviderID) {
				return c.GetName()
			}
		}
	}
	r.t.Fatalf("no NodeClaim has node %s (providerID %q) within 30s", node.Name, node.Spec.ProviderID)
	return ""
}

// workloads counts the Kueue Workloads of the runs whose Workflow names start with prefix: those
// admitted, and those held (created, not admitted).
func (r *runs) workloads(ns, prefix string) (admitted, held int) {
	r.t.Helper()
	list, err := dynamic.NewForConfigOrDie(r.cfg).Resource(kueueWorkloads).Namespace(ns).List(r.t.Context(), metav1.ListOptions{})
	if err != nil {
		r.t.Fatal(err)
	}
	for _, w := range list.Items {
		owner := ""
		for _, o := range w.GetOwnerReferences() {
			owner = o.Name
		}
		if !strings.HasPrefix(owner, prefix) {
			continue
		}
		conds, _, _ := unstructured.NestedSlice(w.Object, "status", "conditions")
		ok := false
		for _, c := range conds {
			c := c.(map[string]any)
			ok = ok || (c["type"] == "Admitted" && c["status"] == "True")
		}
		if ok {
			admitted++
		} else {
			held++
		}
	}
	return admitted, held
}

func kueueGVR(resource string) schema.GroupVersionResource {
	return schema.GroupVersionResource{Group: "kueue.x-k8s.io", Version: "v1beta2", Resource: resource}
}
