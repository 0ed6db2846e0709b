// Package kubelet plays, in tests, what a node does for a pod on the local control plane, which
// runs no scheduler, kubelet or container: binding the pod to a node, reporting its containers
// running and then terminated, and, in an Argo Workflows pod, what Argo's executor (the wait
// container) reports to the workflow controller through a WorkflowTaskResult.
//
// The order of a real pod is PodRunning, TaskResultCompleted (the executor reports its outputs
// before the wait container exits), PodFinished; FinishWorkflowPod does the last two. PodDeleted
// completes the deletion of a pod deleted while it ran.
package kubelet

import (
	"context"
	"fmt"
	"testing"
	"time"

	wfv1 "github.com/argoproj/argo-workflows/v3/pkg/apis/workflow/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/util/retry"
)

// NodeName is the node that PodRunning binds pods to. No Node object exists: binding does not
// need one.
const NodeName = "testcluster-node"

// Argo's names (github.com/argoproj/argo-workflows/v3/workflow/common, v3.7.3), not imported: that
// package pulls in much of the controller.
const (
	argoNodeIDAnnotation    = "workflows.argoproj.io/node-id"
	argoWorkflowLabel       = "workflows.argoproj.io/workflow"
	argoOutputsCompleted    = "workflows.argoproj.io/report-outputs-completed"
	argoWaitContainer       = "wait"
	argoWorkflowKind        = "Workflow"
	argoTaskResultKind      = "WorkflowTaskResult"
	argoWorkflowAPIVersion  = "argoproj.io/v1alpha1"
	argoTaskResultsResource = "workflowtaskresults"
)

var taskResults = schema.GroupVersionResource{Group: "argoproj.io", Version: "v1alpha1", Resource: argoTaskResultsResource}

// PodRunning binds the pod to NodeName, as the scheduler would, and reports it Running with its
// init containers completed and its containers started and ready, as the kubelet would. It fails
// the test while the pod has scheduling gates (e.g. Kueue's, before admission): the API server
// refuses to bind such a pod. In an Argo pod it also creates the WorkflowTaskResult that the
// executor creates when the wait container starts, marked incomplete.
func PodRunning(t testing.TB, cfg *rest.Config, namespace, name string) {
	t.Helper()
	ctx := context.Background()
	pods := clientset(t, cfg).CoreV1().Pods(namespace)
	pod := get(t, pods, name)
	if pod.Spec.NodeName == "" {
		binding := &corev1.Binding{
			ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: namespace},
			Target:     corev1.ObjectReference{Kind: "Node", Name: NodeName},
		}
		if err := pods.Bind(ctx, binding, metav1.CreateOptions{}); err != nil {
			t.Fatalf("binding pod %s/%s to %s as the scheduler would: %v", namespace, name, NodeName, err)
		}
	}
	updateStatus(t, pods, name, "Running", func(pod *corev1.Pod, now metav1.Time) {
		pod.Status.Phase = corev1.PodRunning
		pod.Status.StartTime = &now
		pod.Status.HostIP, pod.Status.PodIP = "127.0.0.1", "127.0.0.1"
		previous := append(append([]corev1.ContainerStatus{}, pod.Status.InitContainerStatuses...), pod.Status.ContainerStatuses...)
		pod.Status.InitContainerStatuses, pod.Status.ContainerStatuses = nil, nil
		for _, c := range pod.Spec.InitContainers {
			s := status(pod, previous, c)
			s.Ready = true
			s.State = corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: 0, Reason: "Completed", StartedAt: now, FinishedAt: now, ContainerID: s.ContainerID}}
			pod.Status.InitContainerStatuses = append(pod.Status.InitContainerStatuses, s)
		}
		for _, c := range pod.Spec.Containers {
			s := status(pod, previous, c)
			s.Ready, s.Started = true, ptr(true)
			s.State = corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: now}}
			pod.Status.ContainerStatuses = append(pod.Status.ContainerStatuses, s)
		}
		for _, typ := range []corev1.PodConditionType{corev1.PodInitialized, corev1.ContainersReady, corev1.PodReady} {
			setCondition(pod, typ, corev1.ConditionTrue, "", now)
		}
	})
	if nodeID, workflow, ok := argoPod(pod); ok {
		result := &wfv1.WorkflowTaskResult{
			TypeMeta: metav1.TypeMeta{APIVersion: argoWorkflowAPIVersion, Kind: argoTaskResultKind},
			ObjectMeta: metav1.ObjectMeta{
				Name: nodeID, Namespace: namespace,
				Labels:          map[string]string{argoWorkflowLabel: workflow.Name, argoOutputsCompleted: "false"},
				OwnerReferences: []metav1.OwnerReference{workflow},
			},
		}
		obj, err := runtime.DefaultUnstructuredConverter.ToUnstructured(result)
		if err != nil {
			t.Fatal(err)
		}
		_, err = dynamicClient(t, cfg).Resource(taskResults).Namespace(namespace).Create(ctx, &unstructured.Unstructured{Object: obj}, metav1.CreateOptions{})
		if err != nil && !apierrors.IsAlreadyExists(err) {
			t.Fatalf("creating WorkflowTaskResult %s/%s as Argo's executor would: %v", namespace, nodeID, err)
		}
	}
}

// TaskResultCompleted marks the WorkflowTaskResult of an Argo pod complete
// (workflows.argoproj.io/report-outputs-completed=true), as the executor does once it has reported
// the outputs. Until then the workflow controller does not count the pod's node as succeeded.
func TaskResultCompleted(t testing.TB, cfg *rest.Config, namespace, podName string) {
	t.Helper()
	pod := get(t, clientset(t, cfg).CoreV1().Pods(namespace), podName)
	nodeID, _, ok := argoPod(pod)
	if !ok {
		t.Fatalf("pod %s/%s is not an Argo Workflows pod with a wait container", namespace, podName)
	}
	patch := fmt.Appendf(nil, `{"metadata":{"labels":{%q:"true"}}}`, argoOutputsCompleted)
	_, err := dynamicClient(t, cfg).Resource(taskResults).Namespace(namespace).Patch(context.Background(), nodeID, types.MergePatchType, patch, metav1.PatchOptions{})
	if err != nil {
		t.Fatalf("completing WorkflowTaskResult %s/%s as Argo's executor would (PodRunning creates it): %v", namespace, nodeID, err)
	}
}

// PodFinished reports every container of a running pod terminated, as the kubelet would: Argo's
// wait container with exit code 0, every other one with exitCode, reason and message (reason ""
// is the runtime's "Completed" for 0, else "Error"). The pod is Succeeded when exitCode is 0, else
// Failed. It fails the test unless PodRunning ran first.
func PodFinished(t testing.TB, cfg *rest.Config, namespace, name string, exitCode int, reason, message string) {
	t.Helper()
	if reason == "" {
		reason = "Completed"
		if exitCode != 0 {
			reason = "Error"
		}
	}
	pods := clientset(t, cfg).CoreV1().Pods(namespace)
	updateStatus(t, pods, name, "finished", func(pod *corev1.Pod, now metav1.Time) {
		if pod.Status.Phase != corev1.PodRunning {
			t.Fatalf("pod %s/%s is %s: a kubelet finishes only a running pod (call PodRunning first)", namespace, name, pod.Status.Phase)
		}
		pod.Status.Phase = corev1.PodSucceeded
		if exitCode != 0 {
			pod.Status.Phase = corev1.PodFailed
		}
		for i := range pod.Status.ContainerStatuses {
			s := &pod.Status.ContainerStatuses[i]
			term := &corev1.ContainerStateTerminated{ExitCode: int32(exitCode), Reason: reason, Message: message, FinishedAt: now, ContainerID: s.ContainerID}
			if _, _, ok := argoPod(pod); ok && s.Name == argoWaitContainer {
				term.ExitCode, term.Reason, term.Message = 0, "Completed", ""
			}
			if s.State.Running != nil {
				term.StartedAt = s.State.Running.StartedAt
			}
			s.State = corev1.ContainerState{Terminated: term}
			s.Ready, s.Started = false, ptr(false)
		}
		setCondition(pod, corev1.ContainersReady, corev1.ConditionFalse, "PodCompleted", now)
		setCondition(pod, corev1.PodReady, corev1.ConditionFalse, "PodCompleted", now)
	})
}

// FinishWorkflowPod ends a running Argo pod as a real one ends: the executor completes its
// WorkflowTaskResult, then the containers terminate (see PodFinished).
func FinishWorkflowPod(t testing.TB, cfg *rest.Config, namespace, name string, exitCode int, reason, message string) {
	t.Helper()
	TaskResultCompleted(t, cfg, namespace, name)
	PodFinished(t, cfg, namespace, name, exitCode, reason, message)
}

// PodDeleted ends the graceful deletion of a pod that something deleted (e.g. Kueue, preempting
// it), as the kubelet does once the containers are gone: it removes the pod with grace period 0.
// Without a kubelet, a deleted pod that is bound to a node and not finished stays Terminating
// forever. Call PodFinished first (e.g. exit code 137) to report the containers killed; without it
// the pod vanishes with its last status, as when the kubelet's status update is lost. Finalizers
// (e.g. Kueue's kueue.x-k8s.io/managed) still hold the object until their controllers remove them.
func PodDeleted(t testing.TB, cfg *rest.Config, namespace, name string) {
	t.Helper()
	pods := clientset(t, cfg).CoreV1().Pods(namespace)
	pod := get(t, pods, name)
	if pod.DeletionTimestamp == nil {
		t.Fatalf("pod %s/%s is not being deleted: a kubelet removes only pods deleted through the API", namespace, name)
	}
	err := pods.Delete(context.Background(), name, metav1.DeleteOptions{
		GracePeriodSeconds: ptr(int64(0)),
		Preconditions:      &metav1.Preconditions{UID: &pod.UID},
	})
	if err != nil && !apierrors.IsNotFound(err) {
		t.Fatalf("removing pod %s/%s as the kubelet would: %v", namespace, name, err)
	}
}

// argoPod is an Argo pod's node ID and a reference to its Workflow, if the pod has Argo's executor.
func argoPod(pod *corev1.Pod) (nodeID string, workflow metav1.OwnerReference, ok bool) {
	nodeID = pod.Annotations[argoNodeIDAnnotation]
	hasWait := false
	for _, c := range pod.Spec.Containers {
		hasWait = hasWait || c.Name == argoWaitContainer
	}
	for _, o := range pod.OwnerReferences {
		if o.Kind == argoWorkflowKind && o.APIVersion == argoWorkflowAPIVersion {
			workflow = metav1.OwnerReference{APIVersion: o.APIVersion, Kind: o.Kind, Name: o.Name, UID: o.UID}
		}
	}
	return nodeID, workflow, nodeID != "" && hasWait && workflow.Name != "" && pod.Labels[argoWorkflowLabel] == workflow.Name
}

// status is the kubelet's status of container c: its previous one, or a new one.
func status(pod *corev1.Pod, previous []corev1.ContainerStatus, c corev1.Container) corev1.ContainerStatus {
	for _, s := range previous {
		if s.Name == c.Name {
			return s
		}
	}
	return corev1.ContainerStatus{
		Name: c.Name, Image: c.Image, ImageID: c.Image,
		ContainerID: fmt.Sprintf("testcluster://%s/%s/%s", pod.Namespace, pod.Name, c.Name),
	}
}

// setCondition sets a pod condition, changing its transition time only when the status changes.
func setCondition(pod *corev1.Pod, typ corev1.PodConditionType, s corev1.ConditionStatus, reason string, now metav1.Time) {
	for i := range pod.Status.Conditions {
		c := &pod.Status.Conditions[i]
		if c.Type == typ {
			if c.Status != s {
				c.LastTransitionTime = now
			}
			c.Status, c.Reason = s, reason
			return
		}
	}
	pod.Status.Conditions = append(pod.Status.Conditions, corev1.PodCondition{Type: typ, Status: s, Reason: reason, LastTransitionTime: now})
}

type podClient interface {
	Get(ctx context.Context, name string, opts metav1.GetOptions) (*corev1.Pod, error)
	UpdateStatus(ctx context.Context, pod *corev1.Pod, opts metav1.UpdateOptions) (*corev1.Pod, error)
}

func get(t testing.TB, pods podClient, name string) *corev1.Pod {
	t.Helper()
	pod, err := pods.Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		t.Fatalf("reading pod %s: %v", name, err)
	}
	return pod
}

// updateStatus changes a pod's status with change, retrying when a controller (Kueue, Argo)
// changed the pod meanwhile.
func updateStatus(t testing.TB, pods podClient, name, what string, change func(*corev1.Pod, metav1.Time)) {
	t.Helper()
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		pod, err := pods.Get(context.Background(), name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		change(pod, metav1.NewTime(time.Now().Truncate(time.Second)))
		_, err = pods.UpdateStatus(context.Background(), pod, metav1.UpdateOptions{FieldManager: "kubelet"})
		return err
	})
	if err != nil {
		t.Fatalf("reporting pod %s %s as the kubelet would: %v", name, what, err)
	}
}

func clientset(t testing.TB, cfg *rest.Config) kubernetes.Interface {
	t.Helper()
	c, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func dynamicClient(t testing.TB, cfg *rest.Config) dynamic.Interface {
	t.Helper()
	c, err := dynamic.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func ptr[T any](v T) *T { return &v }
