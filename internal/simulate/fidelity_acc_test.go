package simulate_test

import (
	"context"
	"fmt"
	"os"
	"slices"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes"
	"sigs.k8s.io/controller-runtime/pkg/client"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/simulate"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/testcluster"
)

func TestMain(m *testing.M) {
	os.Exit(acctest.Run(m, testcluster.WithKueue(), testcluster.WithNodes()))
}

// tolerance is how far a wait on the real cluster may be from the simulated one: the manager
// reacts to a pod's end through watches and its own queue, and KWOK ends a pod within a second or
// so of the duration it asks.
const tolerance = 6 * time.Second

// A small day, time-compressed to seconds, runs on the real Kueue manager of the local control
// plane (plain pods through its pod integration, on a KWOK node with 4 GPUs, ended by KWOK after
// the duration each asks) and through the simulator: the same admission order, and waits within
// the tolerance. j1 and j2 take the quota's 4 GPUs; j3 (4 GPUs) and then j4 (1 GPU) wait;
// BestEffortFIFO admits j3 first when both end, and j4 when j3 does.
func TestAccFidelity_smallDayMatchesKueue(t *testing.T) {
	acctest.RequireCluster(t)
	ctx := context.Background()
	cfg := acctest.RestConfig(t)
	scheme := runtime.NewScheme()
	if err := kueue.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	k, err := client.New(cfg, client.Options{Scheme: scheme})
	if err != nil {
		t.Fatal(err)
	}
	core := kubernetes.NewForConfigOrDie(cfg).CoreV1()
	const ns, flavor, cq = "fidelity", "fidelity-gpu", "fidelity"

	in := simulate.Input{
		Flavors: []kueue.ResourceFlavor{{ObjectMeta: metav1.ObjectMeta{Name: flavor}}},
		ClusterQueues: []kueue.ClusterQueue{{
			ObjectMeta: metav1.ObjectMeta{Name: cq},
			Spec: kueue.ClusterQueueSpec{
				NamespaceSelector: &metav1.LabelSelector{},
				ResourceGroups: []kueue.ResourceGroup{{
					CoveredResources: []corev1.ResourceName{"nvidia.com/gpu"},
					Flavors: []kueue.FlavorQuotas{{Name: flavor, Resources: []kueue.ResourceQuota{
						{Name: "nvidia.com/gpu", NominalQuota: resource.MustParse("4")},
					}}},
				}},
			},
		}},
		LocalQueues: []kueue.LocalQueue{{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "training"},
			Spec: kueue.LocalQueueSpec{ClusterQueue: cq}}},
		Flavor:   map[string]simulate.FlavorModel{flavor: {}},
		Horizon:  5 * time.Minute,
		Interval: 10 * time.Second,
	}
	day := []struct {
		name    string
		arrival time.Duration
		gpus    int64
		work    time.Duration
	}{
		{"j1", 0, 2, 20 * time.Second},
		{"j2", 0, 2, 20 * time.Second},
		{"j3", 2 * time.Second, 4, 10 * time.Second},
		{"j4", 4 * time.Second, 1, 10 * time.Second},
	}
	for _, j := range day {
		in.Jobs = append(in.Jobs, simulate.Job{Name: j.name, Namespace: ns, Queue: "training", Arrival: j.arrival, Work: j.work, Pods: 1,
			Requests: corev1.ResourceList{"nvidia.com/gpu": *resource.NewQuantity(j.gpus, resource.DecimalSI)}})
	}
	res, err := simulate.Run(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	simulated := res.Admitted

	// The same queues on the cluster, and a node for them.
	for _, obj := range []client.Object{in.Flavors[0].DeepCopy(), in.ClusterQueues[0].DeepCopy()} {
		if err := k.Create(ctx, obj); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := core.Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns,
		Labels: map[string]string{testcluster.ManagedNamespaceLabel: "true"}}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := k.Create(ctx, in.LocalQueues[0].DeepCopy()); err != nil {
		t.Fatal(err)
	}
	node := testcluster.KWOKNode("fidelity-gpu-node", map[string]string{corev1.LabelHostname: "fidelity-gpu-node"}, nil, gpuNode())
	if _, err := core.Nodes().Create(ctx, node, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = core.Nodes().Delete(context.Background(), node.Name, metav1.DeleteOptions{}) })

	start := time.Now()
	for _, j := range day {
		time.Sleep(time.Until(start.Add(j.arrival)))
		gpus := corev1.ResourceList{"nvidia.com/gpu": *resource.NewQuantity(j.gpus, resource.DecimalSI)}
		pod := &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Name: j.name, Namespace: ns,
				Labels:      map[string]string{"kueue.x-k8s.io/queue-name": "training"},
				Annotations: map[string]string{testcluster.RunForAnnotation: fmt.Sprintf("%ds", int(j.work.Seconds()))}},
			Spec: corev1.PodSpec{RestartPolicy: corev1.RestartPolicyNever, Containers: []corev1.Container{{
				Name: "train", Image: "trainer:1", Resources: corev1.ResourceRequirements{Requests: gpus, Limits: gpus},
			}}},
		}
		if _, err := core.Pods(ns).Create(ctx, pod, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}

	// Each pod's Workload: when it arrived and when Kueue reserved its quota.
	admitted := map[string]time.Duration{}
	deadline := time.Now().Add(2 * time.Minute)
	for len(admitted) < len(day) && time.Now().Before(deadline) {
		var list kueue.WorkloadList
		if err := k.List(ctx, &list, client.InNamespace(ns)); err != nil {
			t.Fatal(err)
		}
		for _, wl := range list.Items {
			c := apimeta.FindStatusCondition(wl.Status.Conditions, kueue.WorkloadQuotaReserved)
			if c == nil || c.Status != metav1.ConditionTrue || len(wl.OwnerReferences) == 0 {
				continue
			}
			owner := wl.OwnerReferences[0].Name
			if _, seen := admitted[owner]; !seen {
				admitted[owner] = c.LastTransitionTime.Sub(start.Truncate(time.Second))
			}
		}
		time.Sleep(500 * time.Millisecond)
	}
	if len(admitted) < len(day) {
		t.Fatalf("Kueue admitted %v within 2 minutes, want all of %d", admitted, len(day))
	}

	order := func(at map[string]time.Duration) []string {
		names := make([]string, 0, len(at))
		for n := range at {
			names = append(names, n)
		}
		slices.SortStableFunc(names, func(a, b string) int {
			if d := at[a] - at[b]; d != 0 {
				return int(d)
			}
			return 0
		})
		return names
	}
	t.Logf("simulated admissions %v, on Kueue %v", simulated, admitted)
	// j1 and j2 are admitted in the same instant: their order between them is not compared.
	if got, want := order(admitted)[2:], order(simulated)[2:]; !slices.Equal(got, want) {
		t.Errorf("admission order after the first two: Kueue %v, simulated %v", got, want)
	}
	for _, j := range day {
		onKueue, sim := admitted[j.name]-j.arrival, simulated[j.name]-j.arrival
		if d := onKueue - sim; d > tolerance || d < -tolerance {
			t.Errorf("%s waited %s on Kueue, %s simulated (tolerance %s)", j.name, onKueue, sim, tolerance)
		}
	}
}

func gpuNode() corev1.ResourceList {
	return corev1.ResourceList{
		corev1.ResourceCPU: resource.MustParse("32"), corev1.ResourceMemory: resource.MustParse("256Gi"),
		corev1.ResourcePods: resource.MustParse("110"), "nvidia.com/gpu": resource.MustParse("4"),
	}
}
