package simulate_test

import (
	"context"
	"fmt"
	"os"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes"
	typedcorev1 "k8s.io/client-go/kubernetes/typed/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/simulate"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/testcluster"
)

func TestMain(m *testing.M) {
	os.Exit(acctest.Run(m, testcluster.WithKueue(), testcluster.WithNodes()))
}

// dayJob is one job of a small day, time-compressed to seconds.
type dayJob struct {
	name    string
	arrival time.Duration
	gpus    int64
	work    time.Duration
}

// fidelityRuns numbers the test's runs in this process, so that -count runs name their objects apart.
var fidelityRuns atomic.Int32

// A small day, time-compressed to seconds, runs on the real Kueue manager of the local control
// plane (plain pods through its pod integration, on a KWOK node with 4 GPUs, ended by KWOK after
// the duration each asks) and through the simulator. j1 and j2 take the quota's 4 GPUs; j3 (4
// GPUs) and then j4 (1 GPU) wait; BestEffortFIFO admits j3 first when both end, and j4 when j3
// does.
//
// What is compared holds on a loaded machine, where the cluster's own latencies (the scheduler's,
// KWOK's, each watch's) grow and add up along the day, and its timestamps are whole seconds: no
// duration is compared, only the order of events.
//   - The order of admissions.
//   - Whom each job waits for. In the simulation, each job is admitted the moment it arrives or the
//     moment the last of the jobs it waits for ends. On Kueue it must be admitted neither before
//     that (its own queueing, or the last of those jobs' ends) nor after any other event of the day
//     that follows it (another job queued or ended): an admission after such an event waited for
//     something the simulation did not. Whole seconds keep these orders wherever they differ by a
//     second, so only events in the same second are taken as either.
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
	run := acctest.Name(fmt.Sprintf("fidelity%d", fidelityRuns.Add(1)))
	ns, flavor, cq := run, run+"-gpu", run

	in := simulate.Input{
		Flavors: []kueue.ResourceFlavor{{ObjectMeta: metav1.ObjectMeta{Name: flavor}}},
		ClusterQueues: []kueue.ClusterQueue{{
			ObjectMeta: metav1.ObjectMeta{Name: cq},
			Spec: kueue.ClusterQueueSpec{
				NamespaceSelector: &metav1.LabelSelector{},
				ResourceGroups: []kueue.ResourceGroup{{
					CoveredResources: []corev1.ResourceName{"nvidia.com/gpu"},
					Flavors: []kueue.FlavorQuotas{{Name: kueue.ResourceFlavorReference(flavor), Resources: []kueue.ResourceQuota{
						{Name: "nvidia.com/gpu", NominalQuota: resource.MustParse("4")},
					}}},
				}},
			},
		}},
		LocalQueues: []kueue.LocalQueue{{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "training"},
			Spec: kueue.LocalQueueSpec{ClusterQueue: kueue.ClusterQueueReference(cq)}}},
		// No node start: a simulated job works from its admission to its end.
		Flavor:   map[string]simulate.FlavorModel{flavor: {}},
		Horizon:  5 * time.Minute,
		Interval: 10 * time.Second,
	}
	day := []dayJob{
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
	if len(simulated) != len(day) {
		t.Fatalf("the simulation admitted %v; want all of %d jobs", simulated, len(day))
	}

	onKueue := runOnKueue(t, k, core, in, day)

	t.Logf("simulated admissions %v; on Kueue %v", simulated, onKueue)

	admittedOnKueue := map[string]time.Duration{}
	for name, o := range onKueue {
		admittedOnKueue[name] = o.admitted
	}
	// j1 and j2 are admitted in the same instant: their order between them is not compared.
	if got, want := admissionOrder(admittedOnKueue)[2:], admissionOrder(simulated)[2:]; !slices.Equal(got, want) {
		t.Errorf("admission order after the first two: Kueue %v, simulated %v", got, want)
	}
	for _, j := range day {
		waited := waitedFor(day, simulated, j)
		simFrom, kueueFrom := j.arrival, onKueue[j.name].workload
		for _, b := range waited {
			simFrom = max(simFrom, simulated[b.name]+b.work)
			kueueFrom = max(kueueFrom, onKueue[b.name].finished)
		}
		admitted := onKueue[j.name].admitted
		t.Logf("%s waited for %v: admitted at %s in the simulation, when the last of them ended (or it arrived) at %s; on Kueue at %s and %s",
			j.name, names(waited), simulated[j.name], simFrom, admitted, kueueFrom)
		if simulated[j.name] != simFrom {
			t.Errorf("the simulation admitted %s at %s, not when the last of %v ended (or it arrived) at %s", j.name, simulated[j.name], names(waited), simFrom)
		}
		if admitted < kueueFrom {
			t.Errorf("%s was admitted on Kueue at %s, before %v ended (or it was queued) at %s, which the simulation has it wait for",
				j.name, admitted, names(waited), kueueFrom)
		}
		for _, e := range otherEvents(onKueue, j, waited) {
			if kueueFrom < e.at && e.at < admitted {
				t.Errorf("%s was admitted on Kueue at %s, after %s at %s, which followed what the simulation has it wait for (%v, or its queueing, at %s)",
					j.name, admitted, e.what, e.at, names(waited), kueueFrom)
			}
		}
	}
}

// event is something that happened to a job on the cluster, for the order of a day's events.
type event struct {
	what string
	at   time.Duration
}

// otherEvents is what happened on Kueue to the jobs other than j and those it waited for: each
// one queued and ended.
func otherEvents(onKueue map[string]observed, j dayJob, waited []dayJob) []event {
	var out []event
	for name, o := range onKueue {
		if name == j.name || slices.ContainsFunc(waited, func(b dayJob) bool { return b.name == name }) {
			continue
		}
		out = append(out, event{name + " queued", o.workload}, event{name + " ended", o.finished})
	}
	return out
}

// observed is one job's life on the cluster, from its objects' timestamps (whole seconds), from
// the second in which the day began.
type observed struct {
	pod      time.Duration // the pod created
	workload time.Duration // Kueue created its Workload: the job queued
	admitted time.Duration // Kueue reserved its quota
	finished time.Duration // Kueue marked it finished, which frees its quota
}

func (o observed) String() string {
	return fmt.Sprintf("{pod %s, queued %s, admitted %s, finished %s}", o.pod, o.workload, o.admitted, o.finished)
}

// runOnKueue runs the day on the cluster: in's queues, a KWOK node with 4 GPUs, and a pod per job
// at its arrival, ended by KWOK after its work. It returns each job's life once all have finished.
func runOnKueue(t *testing.T, k client.Client, core typedcorev1.CoreV1Interface, in simulate.Input, day []dayJob) map[string]observed {
	t.Helper()
	ctx := context.Background()
	ns := in.LocalQueues[0].Namespace
	for _, obj := range []client.Object{in.Flavors[0].DeepCopy(), in.ClusterQueues[0].DeepCopy()} {
		if err := k.Create(ctx, obj); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = k.Delete(context.Background(), obj) })
	}
	if _, err := core.Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns,
		Labels: map[string]string{testcluster.ManagedNamespaceLabel: "true"}}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = core.Namespaces().Delete(context.Background(), ns, metav1.DeleteOptions{}) })
	if err := k.Create(ctx, in.LocalQueues[0].DeepCopy()); err != nil {
		t.Fatal(err)
	}
	node := testcluster.KWOKNode(ns+"-node", map[string]string{corev1.LabelHostname: ns + "-node"}, nil, gpuNode())
	if _, err := core.Nodes().Create(ctx, node, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = core.Nodes().Delete(context.Background(), node.Name, metav1.DeleteOptions{}) })

	start := time.Now()
	origin := start.Truncate(time.Second)
	podCreated := map[string]time.Duration{}
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
		created, err := core.Pods(ns).Create(ctx, pod, metav1.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		podCreated[j.name] = created.CreationTimestamp.Sub(origin)
	}

	// Each pod's Workload: when Kueue created it, reserved its quota (as first seen) and marked it
	// finished. The wait is generous: the day takes about 40s, and only a failure waits it out.
	out := map[string]observed{}
	admitted := map[string]time.Duration{}
	var list kueue.WorkloadList
	for deadline := time.Now().Add(5 * time.Minute); len(out) < len(day); time.Sleep(500 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("after 5 minutes, these jobs were admitted and finished on Kueue: %v; want all of %d; Workloads: %v", out, len(day), describe(list.Items))
		}
		if err := k.List(ctx, &list, client.InNamespace(ns)); err != nil {
			t.Fatal(err)
		}
		for _, wl := range list.Items {
			if len(wl.OwnerReferences) == 0 {
				continue
			}
			job := wl.OwnerReferences[0].Name
			if c := apimeta.FindStatusCondition(wl.Status.Conditions, kueue.WorkloadQuotaReserved); c != nil && c.Status == metav1.ConditionTrue {
				if _, seen := admitted[job]; !seen {
					admitted[job] = c.LastTransitionTime.Sub(origin)
				}
			}
			c := apimeta.FindStatusCondition(wl.Status.Conditions, kueue.WorkloadFinished)
			if at, ok := admitted[job]; ok && c != nil && c.Status == metav1.ConditionTrue {
				out[job] = observed{pod: podCreated[job], workload: wl.CreationTimestamp.Sub(origin), admitted: at, finished: c.LastTransitionTime.Sub(origin)}
			}
		}
	}
	return out
}

// describe is each Workload's conditions, for a failure message.
func describe(wls []kueue.Workload) []string {
	var out []string
	for _, wl := range wls {
		var conds []string
		for _, c := range wl.Status.Conditions {
			conds = append(conds, fmt.Sprintf("%s=%s (%s) at %s", c.Type, c.Status, c.Reason, c.LastTransitionTime.Format(time.TimeOnly)))
		}
		out = append(out, fmt.Sprintf("%s created at %s: %v", wl.Name, wl.CreationTimestamp.Format(time.TimeOnly), conds))
	}
	return out
}

// waitedFor is the jobs j waited for in the simulation: admitted before it, and ending after it
// arrived and no later than its admission.
func waitedFor(day []dayJob, simulated map[string]time.Duration, j dayJob) []dayJob {
	var out []dayJob
	for _, b := range day {
		end := simulated[b.name] + b.work
		if b.name != j.name && simulated[b.name] < simulated[j.name] && end > j.arrival && end <= simulated[j.name] {
			out = append(out, b)
		}
	}
	return out
}

func names(jobs []dayJob) []string {
	out := make([]string, 0, len(jobs))
	for _, j := range jobs {
		out = append(out, j.name)
	}
	return out
}

// admissionOrder is the jobs by admission, earliest first.
func admissionOrder(at map[string]time.Duration) []string {
	names := make([]string, 0, len(at))
	for n := range at {
		names = append(names, n)
	}
	slices.SortStableFunc(names, func(a, b string) int { return int(at[a] - at[b]) })
	return names
}

func gpuNode() corev1.ResourceList {
	return corev1.ResourceList{
		corev1.ResourceCPU: resource.MustParse("32"), corev1.ResourceMemory: resource.MustParse("256Gi"),
		corev1.ResourcePods: resource.MustParse("110"), "nvidia.com/gpu": resource.MustParse("4"),
	}
}
