package testcluster

import (
	"context"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/testcluster/kubelet"
)

// TestKubeletRemovesDeletedPods: without a kubelet a running pod that is deleted stays
// Terminating; kubelet.PodFinished and PodDeleted end it as the kubelet would.
func TestKubeletRemovesDeletedPods(t *testing.T) {
	client(t)
	ctx := context.Background()
	const ns = "team-kubelet"
	core := kubernetes.NewForConfigOrDie(cluster.Config).CoreV1()
	if _, err := core.Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "victim", Namespace: ns},
		Spec:       corev1.PodSpec{RestartPolicy: corev1.RestartPolicyNever, Containers: []corev1.Container{{Name: "main", Image: "trainer:1"}}},
	}
	if _, err := core.Pods(ns).Create(ctx, pod, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	kubelet.PodRunning(t, cluster.Config, ns, "victim")
	if err := core.Pods(ns).Delete(ctx, "victim", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := getPod(t, ns, "victim"); got.DeletionTimestamp == nil || got.Spec.NodeName != kubelet.NodeName {
		t.Fatalf("deleted running pod: deletionTimestamp %v, node %q; want it Terminating on %s", got.DeletionTimestamp, got.Spec.NodeName, kubelet.NodeName)
	}
	kubelet.PodFinished(t, cluster.Config, ns, "victim", 137, "", "")
	if got := getPod(t, ns, "victim"); got.Status.Phase != corev1.PodFailed || got.Status.ContainerStatuses[0].State.Terminated.Reason != "Error" {
		t.Fatalf("killed pod: phase %s, main container %+v", got.Status.Phase, got.Status.ContainerStatuses[0].State)
	}
	kubelet.PodDeleted(t, cluster.Config, ns, "victim")
	if _, err := core.Pods(ns).Get(ctx, "victim", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Fatalf("after PodDeleted: %v; want NotFound", err)
	}
}
