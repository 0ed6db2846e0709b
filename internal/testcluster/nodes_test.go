package testcluster

import (
	"context"
	"fmt"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/pricing"
)

// TestNodesRunPods: a NodePool written for EC2 runs on KWOK once UseKWOKNodeClass has pointed it at
// a KWOKNodeClass; a GPU pod makes the real Karpenter launch a node of the instance type the pool
// allows, the real kube-scheduler binds the pod there, KWOK runs it for the duration it asks and
// ends it; a pod deleted while running exits 143 and goes; the empty node is then removed, as the
// pool's disruption says.
func TestNodesRunPods(t *testing.T) {
	client(t)
	ctx := context.Background()
	k, err := cluster.ctrlClient()
	if err != nil {
		t.Fatal(err)
	}
	never := karpv1.MustParseNillableDuration("Never")
	pool := &karpv1.NodePool{
		ObjectMeta: metav1.ObjectMeta{Name: "smoke-on-demand", Annotations: map[string]string{"mlplatform.io/owner": "test"}},
		Spec: karpv1.NodePoolSpec{
			Template: karpv1.NodeClaimTemplate{
				ObjectMeta: karpv1.ObjectMeta{Labels: map[string]string{"mlplatform.io/gpu": "l4"}},
				Spec: karpv1.NodeClaimTemplateSpec{
					Requirements: []karpv1.NodeSelectorRequirementWithMinValues{
						{Key: corev1.LabelInstanceTypeStable, Operator: corev1.NodeSelectorOpIn, Values: []string{"g6.xlarge"}},
						{Key: karpv1.CapacityTypeLabelKey, Operator: corev1.NodeSelectorOpIn, Values: []string{karpv1.CapacityTypeOnDemand}},
					},
					Taints:       []corev1.Taint{{Key: "nvidia.com/gpu", Value: "true", Effect: corev1.TaintEffectNoSchedule}},
					NodeClassRef: &karpv1.NodeClassReference{Group: "karpenter.k8s.aws", Kind: "EC2NodeClass", Name: "default"},
					ExpireAfter:  never,
				},
			},
			Disruption: karpv1.Disruption{ConsolidationPolicy: karpv1.ConsolidationPolicyWhenEmpty, ConsolidateAfter: karpv1.MustParseNillableDuration("1s")},
			Limits:     karpv1.Limits{"nvidia.com/gpu": resource.MustParse("2")},
		},
	}
	if err := k.Create(ctx, pool); err != nil {
		t.Fatal(err)
	}
	originals, err := cluster.RunPoolsOnKWOK(ctx, pricing.DefaultRegion)
	t.Cleanup(func() { _ = cluster.StopKarpenter() })
	if err != nil {
		t.Fatal(err)
	}
	if len(originals) != 1 || originals[0].Name != pool.Name {
		t.Fatalf("UseKWOKNodeClass replaced %d NodePools; want %s", len(originals), pool.Name)
	}

	t.Cleanup(func() {
		if t.Failed() {
			nodes, _ := kubernetes.NewForConfigOrDie(cluster.Config).CoreV1().Nodes().List(context.Background(), metav1.ListOptions{})
			for _, n := range nodes.Items {
				t.Logf("node %s labels %v taints %v allocatable %v conditions %v", n.Name, n.Labels, n.Spec.Taints, n.Status.Allocatable, n.Status.Conditions)
			}
		}
	})
	const ns = "team-nodes"
	core := kubernetes.NewForConfigOrDie(cluster.Config).CoreV1()
	if _, err := core.Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	gpuPod := func(name string, annotations map[string]string) *corev1.Pod {
		return &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns, Annotations: annotations},
			Spec: corev1.PodSpec{
				RestartPolicy: corev1.RestartPolicyNever,
				NodeSelector:  map[string]string{karpv1.NodePoolLabelKey: pool.Name},
				Tolerations:   []corev1.Toleration{{Key: "nvidia.com/gpu", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule}},
				Containers: []corev1.Container{{Name: "main", Image: "trainer:1", Resources: corev1.ResourceRequirements{
					Requests: corev1.ResourceList{"nvidia.com/gpu": resource.MustParse("1"), corev1.ResourceCPU: resource.MustParse("2")},
					Limits:   corev1.ResourceList{"nvidia.com/gpu": resource.MustParse("1")},
				}}},
			},
		}
	}
	for _, p := range []*corev1.Pod{
		gpuPod("finishes", map[string]string{RunForAnnotation: "3s"}),
		gpuPod("fails", map[string]string{RunForAnnotation: "3s", ExitCodeAnnotation: "3"}),
	} {
		if _, err := core.Pods(ns).Create(ctx, p, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	finished := waitPod(t, cluster, ns, "finishes", corev1.PodSucceeded)
	failed := waitPod(t, cluster, ns, "fails", corev1.PodFailed)
	if code := failed.Status.ContainerStatuses[0].State.Terminated.ExitCode; code != 3 {
		t.Errorf("pod fails exited %d; want the 3 its annotation asks", code)
	}
	node, err := core.Nodes().Get(ctx, finished.Spec.NodeName, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := node.Labels[corev1.LabelInstanceTypeStable]; got != "g6.xlarge" {
		t.Errorf("node %s is a %q; want the pool's g6.xlarge", node.Name, got)
	}
	for k, want := range map[string]string{"karpenter.k8s.aws/instance-gpu-name": "l4", "mlplatform.io/gpu": "l4", karpv1.CapacityTypeLabelKey: "on-demand"} {
		if got := node.Labels[k]; got != want {
			t.Errorf("node %s label %s = %q; want %q", node.Name, k, got, want)
		}
	}
	t.Logf("pods ran on node %s (%s)", node.Name, node.Labels[corev1.LabelInstanceTypeStable])

	// Deleted while running, a trainer exits on SIGTERM (143) after the seconds its annotation
	// asks, or is killed (137) when the pod's grace period ends first; the pod then goes.
	two := int64(2)
	for _, tc := range []struct {
		name  string
		exit  int32
		grace *int64
		after string
	}{{"preempted", 143, nil, ""}, {"outlives-grace", 137, &two, "30"}} {
		p := gpuPod(tc.name, map[string]string{SIGTERMExitSecondsAnnotation: tc.after})
		if tc.after == "" {
			p.Annotations = nil
		}
		p.Spec.TerminationGracePeriodSeconds = tc.grace
		if _, err := core.Pods(ns).Create(ctx, p, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		running := waitPod(t, cluster, ns, tc.name, corev1.PodRunning)
		exit := WatchExit(t, core.Pods(ns), running)
		start := time.Now()
		if err := core.Pods(ns).Delete(ctx, tc.name, metav1.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
		if code := exit(); code != tc.exit {
			t.Errorf("deleted pod %s exited %d after %s; want %d", tc.name, code, time.Since(start).Round(100*time.Millisecond), tc.exit)
		}
		eventually(t, "pod "+tc.name+" removed once its trainer exited", func() (bool, string) {
			_, err := core.Pods(ns).Get(ctx, tc.name, metav1.GetOptions{})
			return apierrors.IsNotFound(err), fmt.Sprint(err)
		})
	}
	for _, name := range []string{"finishes", "fails"} {
		if err := core.Pods(ns).Delete(ctx, name, metav1.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	eventually(t, "the empty node removed (consolidateAfter 1s)", func() (bool, string) {
		_, err := core.Nodes().Get(ctx, node.Name, metav1.GetOptions{})
		return apierrors.IsNotFound(err), fmt.Sprint(err)
	})
	if err := cluster.StopPoolsOnKWOK(ctx, originals); err != nil {
		t.Fatal(err)
	}
}

// waitPod waits until the pod on c is in phase and bound to a node.
func waitPod(t *testing.T, c *Cluster, ns, name string, phase corev1.PodPhase) *corev1.Pod {
	t.Helper()
	core := kubernetes.NewForConfigOrDie(c.Config).CoreV1()
	var pod *corev1.Pod
	eventually(t, fmt.Sprintf("pod %s/%s %s", ns, name, phase), func() (bool, string) {
		p, err := core.Pods(ns).Get(context.Background(), name, metav1.GetOptions{})
		if err != nil {
			return false, notYet(t, err)
		}
		pod = p
		return p.Status.Phase == phase && p.Spec.NodeName != "", fmt.Sprintf("phase %s on node %q, conditions %+v", p.Status.Phase, p.Spec.NodeName, p.Status.Conditions)
	})
	return pod
}

// kwokNode creates a node on c that KWOK plays, with capacity, and removes it when the test ends.
func kwokNode(t *testing.T, c *Cluster, name string, capacity corev1.ResourceList) {
	t.Helper()
	nodes := kubernetes.NewForConfigOrDie(c.Config).CoreV1().Nodes()
	if _, err := nodes.Create(context.Background(), KWOKNode(name, nil, nil, capacity), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = nodes.Delete(context.Background(), name, metav1.DeleteOptions{}) })
}
