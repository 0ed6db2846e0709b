package testcluster

import (
	"context"
	"fmt"
	"log"

	wfv1 "github.com/argoproj/argo-workflows/v3/pkg/apis/workflow/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
)

// The stand-in for Argo's executor. KWOK plays a pod's containers but runs none of them, so the
// wait container of an Argo pod reports nothing; the workflow controller then never counts the
// pod's node done. The stand-in does what the executor does with the Kubernetes API, and nothing
// else: when an Argo pod on a node runs, it creates the node's WorkflowTaskResult, incomplete (as
// the wait container does when it starts); when the pod's containers have ended (finished, or
// killed after SIGTERM), it marks it complete (as the executor does once it has reported the
// outputs). A template's outputs (parameters, artifacts) are not played: none of the provider's
// templates has any.

// Argo's names (workflow/common of argo-workflows v3.7.18, the same in v4.0.5), not imported: that
// package pulls in much of the controller.
const (
	argoNodeIDAnnotation   = "workflows.argoproj.io/node-id"
	argoWorkflowLabel      = "workflows.argoproj.io/workflow"
	argoOutputsCompleted   = "workflows.argoproj.io/report-outputs-completed"
	argoWaitContainer      = "wait"
	argoWorkflowKind       = "Workflow"
	argoWorkflowAPIVersion = "argoproj.io/v1alpha1"
)

var argoTaskResults = schema.GroupVersionResource{Group: "argoproj.io", Version: "v1alpha1", Resource: "workflowtaskresults"}

// argoExecutor is the running stand-in; stop ends it.
type argoExecutor struct{ stop context.CancelFunc }

// startArgoExecutor watches the Argo pods of every namespace and reports for those bound to a node.
func startArgoExecutor(c *Cluster) (*argoExecutor, error) {
	pods, err := kubernetes.NewForConfig(c.Config)
	if err != nil {
		return nil, err
	}
	results, err := dynamic.NewForConfig(c.Config)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	factory := informers.NewSharedInformerFactoryWithOptions(pods, 0, informers.WithTweakListOptions(func(o *metav1.ListOptions) {
		o.LabelSelector = argoWorkflowLabel
	}))
	report := func(obj any) {
		if pod, ok := obj.(*corev1.Pod); ok {
			// A namespace being deleted refuses new objects, and its pods go with it: nothing to report.
			err := reportArgoPod(ctx, results, pod)
			if err != nil && ctx.Err() == nil && !apierrors.IsNotFound(err) && !apierrors.HasStatusCause(err, corev1.NamespaceTerminatingCause) {
				log.Printf("testcluster: Argo executor stand-in, pod %s/%s: %v", pod.Namespace, pod.Name, err)
			}
		}
	}
	informer := factory.Core().V1().Pods().Informer()
	if _, err := informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    report,
		UpdateFunc: func(_, obj any) { report(obj) },
	}); err != nil {
		cancel()
		return nil, err
	}
	factory.Start(ctx.Done())
	return &argoExecutor{stop: cancel}, nil
}

// reportArgoPod creates or completes the WorkflowTaskResult of an Argo pod that runs or has run on
// a node.
func reportArgoPod(ctx context.Context, results dynamic.Interface, pod *corev1.Pod) error {
	nodeID, workflow, ok := argoPod(pod)
	if !ok || pod.Spec.NodeName == "" || pod.Status.Phase == corev1.PodPending {
		return nil
	}
	completed := containersEnded(pod)
	client := results.Resource(argoTaskResults).Namespace(pod.Namespace)
	existing, err := client.Get(ctx, nodeID, metav1.GetOptions{})
	switch {
	case apierrors.IsNotFound(err):
		result := &wfv1.WorkflowTaskResult{
			TypeMeta: metav1.TypeMeta{APIVersion: argoWorkflowAPIVersion, Kind: "WorkflowTaskResult"},
			ObjectMeta: metav1.ObjectMeta{
				Name: nodeID, Namespace: pod.Namespace,
				Labels:          map[string]string{argoWorkflowLabel: workflow.Name, argoOutputsCompleted: fmt.Sprint(completed)},
				OwnerReferences: []metav1.OwnerReference{workflow},
			},
		}
		obj, err := runtime.DefaultUnstructuredConverter.ToUnstructured(result)
		if err != nil {
			return err
		}
		_, err = client.Create(ctx, &unstructured.Unstructured{Object: obj}, metav1.CreateOptions{})
		if apierrors.IsAlreadyExists(err) {
			return nil // the next event of the pod completes it
		}
		return err
	case err != nil:
		return err
	case completed && existing.GetLabels()[argoOutputsCompleted] != "true":
		patch := fmt.Appendf(nil, `{"metadata":{"labels":{%q:"true"}}}`, argoOutputsCompleted)
		_, err = client.Patch(ctx, nodeID, types.MergePatchType, patch, metav1.PatchOptions{})
		return err
	}
	return nil
}

// containersEnded reports whether every container of the pod other than Argo's wait has ended.
func containersEnded(pod *corev1.Pod) bool {
	if pod.Status.Phase == corev1.PodSucceeded || pod.Status.Phase == corev1.PodFailed {
		return true
	}
	n := 0
	for _, s := range pod.Status.ContainerStatuses {
		if s.Name == argoWaitContainer {
			continue
		}
		if s.State.Terminated == nil {
			return false
		}
		n++
	}
	return n > 0
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
