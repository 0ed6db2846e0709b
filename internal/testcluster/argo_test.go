package testcluster

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	wfv1 "github.com/argoproj/argo-workflows/v3/pkg/apis/workflow/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
)

var (
	argoWorkflows = schema.GroupVersionResource{Group: "argoproj.io", Version: "v1alpha1", Resource: "workflows"}
	pods          = schema.GroupVersionResource{Version: "v1", Resource: "pods"}
)

// kueueGate is the scheduling gate Kueue's pod webhook puts on the pods it manages until their
// Workload is admitted.
const kueueGate = "kueue.x-k8s.io/admission"

// TestArgoWorkflowPodQueuedByKueue runs a one-step Workflow through both real controllers: Argo
// creates the pod, Kueue's webhook gates it until its Workload is admitted, kube-scheduler binds it
// to a node KWOK plays, which runs it for the time its annotation asks, the stand-in for Argo's
// executor reports its task result, and the Workflow succeeds.
func TestArgoWorkflowPodQueuedByKueue(t *testing.T) {
	c := client(t)
	ctx := context.Background()
	const ns, wfName = "team-argo", "train"
	kwokNode(t, cluster, "argo-node", corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("4"), corev1.ResourceMemory: resource.MustParse("16Gi")})
	mustCreate(t, c, namespaces, map[string]any{"apiVersion": "v1", "kind": "Namespace",
		"metadata": map[string]any{"name": ns, "labels": map[string]any{ManagedNamespaceLabel: "true"}}})
	mustCreate(t, c, flavors, map[string]any{"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "ResourceFlavor", "metadata": meta("cpu-argo")})
	// The ClusterQueue comes later: first the pod must wait for quota.
	mustCreate(t, c, localQueues, map[string]any{"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "LocalQueue",
		"metadata": map[string]any{"name": "training", "namespace": ns}, "spec": map[string]any{"clusterQueue": "argo"}})

	cpu := corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("500m")}
	wf := &wfv1.Workflow{
		TypeMeta:   metav1.TypeMeta{APIVersion: "argoproj.io/v1alpha1", Kind: "Workflow"},
		ObjectMeta: metav1.ObjectMeta{Name: wfName, Namespace: ns},
		Spec: wfv1.WorkflowSpec{
			Entrypoint:  "train",
			PodMetadata: &wfv1.Metadata{Annotations: map[string]string{RunForAnnotation: "3s"}},
			Templates: []wfv1.Template{{
				Name:     "train",
				Metadata: wfv1.Metadata{Labels: map[string]string{"kueue.x-k8s.io/queue-name": "training"}},
				Container: &corev1.Container{Image: "trainer:1", Command: []string{"train"},
					Resources: corev1.ResourceRequirements{Requests: cpu, Limits: cpu}},
			}},
		},
	}
	obj, err := runtime.DefaultUnstructuredConverter.ToUnstructured(wf)
	if err != nil {
		t.Fatal(err)
	}
	mustCreate(t, c, argoWorkflows, obj)

	// Argo creates the pod; Kueue's webhook marks it managed and gates it, and its Workload waits.
	var podName string
	eventually(t, "Argo creating the Workflow's pod, gated by Kueue", func() (bool, string) {
		list, err := c.Resource(pods).Namespace(ns).List(ctx, metav1.ListOptions{LabelSelector: "workflows.argoproj.io/workflow=" + wfName})
		if err != nil {
			t.Fatal(err)
		}
		if len(list.Items) != 1 {
			return false, fmt.Sprintf("%d pods", len(list.Items))
		}
		pod := typedPod(t, &list.Items[0])
		podName = pod.Name
		return hasGate(pod) && pod.Labels["kueue.x-k8s.io/managed"] == "true",
			fmt.Sprintf("pod %s: gates %v, labels %v", pod.Name, pod.Spec.SchedulingGates, pod.Labels)
	})
	eventually(t, "the pod's Workload pending", func() (bool, string) {
		wl := ownedWorkload(t, c, ns, "Pod", podName)
		if wl == nil {
			return false, "no Workload owned by the pod"
		}
		s, r, m := condition(wl, "QuotaReserved")
		return s == "False", fmt.Sprintf("QuotaReserved=%q (%s: %s)", s, r, m)
	})

	// With quota, Kueue admits the Workload and lifts the gate.
	q := gpuQueue("argo", "cpu-argo", []any{"cpu"}, quota("cpu", "1"))
	mustCreate(t, c, clusterQueues, q)
	eventually(t, "Kueue admitting the pod's Workload and removing the gate", func() (bool, string) {
		s, r, m := condition(ownedWorkload(t, c, ns, "Pod", podName), "Admitted")
		pod := getPod(t, ns, podName)
		return s == "True" && !hasGate(pod), fmt.Sprintf("Admitted=%q (%s: %s), gates %v", s, r, m, pod.Spec.SchedulingGates)
	})

	// The scheduler binds it, KWOK runs it and ends it, the stand-in reports its task result.
	waitWorkflow(t, c, ns, wfName, "Succeeded", "Succeeded")
	if pod := getPod(t, ns, podName); pod.Spec.NodeName != "argo-node" {
		t.Errorf("pod %s ran on node %q; want the only node, argo-node", podName, pod.Spec.NodeName)
	}

	// Kueue sees the pod finish and releases the quota.
	eventually(t, "Kueue finishing the pod's Workload", func() (bool, string) {
		s, r, m := condition(ownedWorkload(t, c, ns, "Pod", podName), "Finished")
		return s == "True", fmt.Sprintf("Finished=%q (%s: %s)", s, r, m)
	})
}

func typedPod(t *testing.T, u *unstructured.Unstructured) *corev1.Pod {
	t.Helper()
	var pod corev1.Pod
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, &pod); err != nil {
		t.Fatal(err)
	}
	return &pod
}

func getPod(t *testing.T, ns, name string) *corev1.Pod {
	t.Helper()
	pod, err := kubernetes.NewForConfigOrDie(cluster.Config).CoreV1().Pods(ns).Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return pod
}

func hasGate(pod *corev1.Pod) bool {
	return slices.ContainsFunc(pod.Spec.SchedulingGates, func(g corev1.PodSchedulingGate) bool { return g.Name == kueueGate })
}

// workflowPhases is a Workflow's phase and that of its one pod node ("" while absent).
func workflowPhases(t *testing.T, c dynamic.Interface, ns, name string) (workflow, node string) {
	t.Helper()
	obj, err := c.Resource(argoWorkflows).Namespace(ns).Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var wf wfv1.Workflow
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(obj.Object, &wf); err != nil {
		t.Fatal(err)
	}
	for _, n := range wf.Status.Nodes {
		if n.Type == wfv1.NodeTypePod {
			node = string(n.Phase)
		}
	}
	return string(wf.Status.Phase), node
}

// waitWorkflow waits until a Workflow and its pod node have the given phases.
func waitWorkflow(t *testing.T, c dynamic.Interface, ns, name, phase, nodePhase string) {
	t.Helper()
	eventually(t, fmt.Sprintf("Workflow %s %s with its pod node %s", name, phase, nodePhase), func() (bool, string) {
		wf, node := workflowPhases(t, c, ns, name)
		return wf == phase && node == nodePhase, fmt.Sprintf("Workflow %q, pod node %q", wf, node)
	})
}

// TestKueueGatesQueuedPodsOnlyInManagedNamespaces checks Kueue's pod webhook as the API server
// calls it, synchronously at creation: a pod with a queue-name label is gated in a namespace
// labelled ManagedNamespaceLabel=true and left alone elsewhere.
func TestKueueGatesQueuedPodsOnlyInManagedNamespaces(t *testing.T) {
	c := client(t)
	pods := kubernetes.NewForConfigOrDie(cluster.Config).CoreV1()
	for _, tc := range []struct {
		ns      string
		managed bool
	}{{"team-gated", true}, {"team-unmanaged", false}} {
		labels := map[string]any{}
		if tc.managed {
			labels[ManagedNamespaceLabel] = "true"
		}
		mustCreate(t, c, namespaces, map[string]any{"apiVersion": "v1", "kind": "Namespace",
			"metadata": map[string]any{"name": tc.ns, "labels": labels}})
		pod := &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Name: "queued", Labels: map[string]string{"kueue.x-k8s.io/queue-name": "training"}},
			Spec:       corev1.PodSpec{RestartPolicy: corev1.RestartPolicyNever, Containers: []corev1.Container{{Name: "main", Image: "trainer:1"}}},
		}
		// Kueue's webhook looks the namespace up in its informer's cache, which may not have the new
		// one yet: it then refuses the pod, "Namespace ... not found".
		var created *corev1.Pod
		eventually(t, "creating a pod in "+tc.ns, func() (bool, string) {
			var err error
			created, err = pods.Pods(tc.ns).Create(context.Background(), pod, metav1.CreateOptions{})
			if err != nil && !strings.Contains(err.Error(), "not found") {
				t.Fatalf("creating a pod in %s: %v", tc.ns, err)
			}
			return err == nil, fmt.Sprint(err)
		})
		if hasGate(created) != tc.managed || (created.Labels["kueue.x-k8s.io/managed"] == "true") != tc.managed {
			t.Errorf("pod in %s (managed namespace: %v): gates %v, labels %v", tc.ns, tc.managed, created.Spec.SchedulingGates, created.Labels)
		}
	}
}
