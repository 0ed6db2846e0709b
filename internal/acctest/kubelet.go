package acctest

import (
	"testing"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/testcluster/kubelet"
)

// The local control plane runs no kubelet: these play it (and Argo's executor) for a pod of the
// test cluster. See package kubelet for what each reports.

// PodRunning binds a pod to a node and reports it running; in an Argo pod it also creates the
// executor's WorkflowTaskResult, incomplete. It fails the test while the pod is gated (e.g. by
// Kueue, before admission).
func PodRunning(t *testing.T, namespace, name string) {
	t.Helper()
	kubelet.PodRunning(t, RestConfig(t), namespace, name)
}

// PodFinished reports a running pod's containers terminated with exitCode (Argo's wait container
// with 0): Succeeded when exitCode is 0, else Failed. reason "" is "Completed" or "Error".
func PodFinished(t *testing.T, namespace, name string, exitCode int, reason, message string) {
	t.Helper()
	kubelet.PodFinished(t, RestConfig(t), namespace, name, exitCode, reason, message)
}

// TaskResultCompleted marks an Argo pod's WorkflowTaskResult complete, as its executor does after
// reporting outputs; Argo does not count the node succeeded before.
func TaskResultCompleted(t *testing.T, namespace, podName string) {
	t.Helper()
	kubelet.TaskResultCompleted(t, RestConfig(t), namespace, podName)
}

// FinishWorkflowPod ends a running Argo pod as a real one ends: TaskResultCompleted, then
// PodFinished.
func FinishWorkflowPod(t *testing.T, namespace, name string, exitCode int, reason, message string) {
	t.Helper()
	kubelet.FinishWorkflowPod(t, RestConfig(t), namespace, name, exitCode, reason, message)
}

// PodDeleted removes a pod that was deleted while bound to a node (e.g. preempted by Kueue), as the
// kubelet does once its containers are gone; call PodFinished first to report them killed.
func PodDeleted(t *testing.T, namespace, name string) {
	t.Helper()
	kubelet.PodDeleted(t, RestConfig(t), namespace, name)
}
