package simulate

import (
	"context"
	"runtime"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
)

const gpu = corev1.ResourceName("nvidia.com/gpu")

// quota is one ClusterQueue's GPUs on one flavor: nominal, and borrowing and lending limits
// (negative: none).
type quota struct {
	nominal, borrow, lend int64
}

func clusterQueue(name, cohort string, q quota, preemption kueue.ClusterQueuePreemption) kueue.ClusterQueue {
	rq := kueue.ResourceQuota{Name: gpu, NominalQuota: *resource.NewQuantity(q.nominal, resource.DecimalSI)}
	if q.borrow >= 0 {
		rq.BorrowingLimit = resource.NewQuantity(q.borrow, resource.DecimalSI)
	}
	if q.lend >= 0 {
		rq.LendingLimit = resource.NewQuantity(q.lend, resource.DecimalSI)
	}
	return kueue.ClusterQueue{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: kueue.ClusterQueueSpec{
			CohortName:        kueue.CohortReference(cohort),
			NamespaceSelector: &metav1.LabelSelector{},
			Preemption:        &preemption,
			ResourceGroups: []kueue.ResourceGroup{{
				CoveredResources: []corev1.ResourceName{gpu},
				Flavors:          []kueue.FlavorQuotas{{Name: "a100", Resources: []kueue.ResourceQuota{rq}}},
			}},
		},
	}
}

// platform is one flavor and one team (namespace and LocalQueue of the same name) per queue.
func platform(cqs ...kueue.ClusterQueue) Input {
	in := Input{
		Flavors:         []kueue.ResourceFlavor{{ObjectMeta: metav1.ObjectMeta{Name: "a100"}}},
		ClusterQueues:   cqs,
		PriorityClasses: []kueue.WorkloadPriorityClass{{ObjectMeta: metav1.ObjectMeta{Name: "low"}, Value: 100}, {ObjectMeta: metav1.ObjectMeta{Name: "high"}, Value: 1000}},
		Flavor:          map[string]FlavorModel{"a100": {Price: map[corev1.ResourceName]float64{gpu: 4}}},
		Horizon:         24 * time.Hour,
		Interval:        time.Hour,
	}
	for _, cq := range cqs {
		in.LocalQueues = append(in.LocalQueues, kueue.LocalQueue{
			ObjectMeta: metav1.ObjectMeta{Namespace: cq.Name, Name: cq.Name},
			Spec:       kueue.LocalQueueSpec{ClusterQueue: kueue.ClusterQueueReference(cq.Name)},
		})
	}
	return in
}

func job(team, name string, arrival, work time.Duration, gpus int64, priority string) Job {
	return Job{
		Name: name, Namespace: team, Queue: team, PriorityClass: priority, Arrival: arrival, Work: work, Pods: 1,
		Requests: corev1.ResourceList{gpu: *resource.NewQuantity(gpus, resource.DecimalSI)},
	}
}

func simulate(t *testing.T, in Input) *Result {
	t.Helper()
	res, err := Run(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range res.Teams {
		t.Log(tr)
	}
	t.Logf("%d scheduling cycles", res.Cycles)
	return res
}

func team(t *testing.T, res *Result, name string) TeamResult {
	t.Helper()
	for _, tr := range res.Teams {
		if tr.Team == name {
			return tr
		}
	}
	t.Fatalf("no team %s in %+v", name, res.Teams)
	return TeamResult{}
}

// FIFO within a queue's quota: two 4-GPU runs fill 8 GPUs, the third waits for the first to end.
func TestRun_fifoWithinQuota(t *testing.T) {
	in := platform(clusterQueue("a", "", quota{8, -1, -1}, kueue.ClusterQueuePreemption{}))
	in.Jobs = []Job{
		job("a", "j1", 0, time.Hour, 4, ""),
		job("a", "j2", time.Minute, 2*time.Hour, 4, ""),
		job("a", "j3", 2*time.Minute, time.Hour, 4, ""),
	}
	res := simulate(t, in)
	a := team(t, res, "a")
	if a.Finished != 3 || a.WaitMax != time.Hour-2*time.Minute || a.WaitP50 != 0 {
		t.Errorf("got %v; want 3 finished, j3 waiting 58m for j1's GPUs", a)
	}
	if want := 4.0 * 4; a.GPUHours != want || a.Cost != want*4 {
		t.Errorf("GPU-hours %v cost %v, want %v and %v", a.GPUHours, a.Cost, want, want*4)
	}
}

// Borrowing within a cohort stops at the borrowing limit, and at what the lender may lend.
func TestRun_borrowingAndLendingLimits(t *testing.T) {
	in := platform(
		clusterQueue("a", "pool", quota{4, 2, -1}, kueue.ClusterQueuePreemption{}),
		clusterQueue("b", "pool", quota{8, -1, 3}, kueue.ClusterQueuePreemption{}),
	)
	// a asks for 8 one-GPU runs at once: its 4, plus 2 borrowed (the limit); b lends at most 3.
	for i := range 8 {
		in.Jobs = append(in.Jobs, job("a", "a"+string(rune('0'+i)), 0, time.Hour, 1, ""))
	}
	a := team(t, simulate(t, in), "a")
	// 6 run at once for an hour, the last 2 in the second hour.
	if a.Admitted != 8 || a.WaitP50 != 0 || a.WaitMax != time.Hour {
		t.Errorf("got %v; want 6 admitted at once (4 own + 2 borrowed), 2 after an hour", a)
	}
	if a.BorrowedGPUHours != 2 {
		t.Errorf("borrowed %v GPU-hours, want 2", a.BorrowedGPUHours)
	}
	in.ClusterQueues[0] = clusterQueue("a", "pool", quota{4, 6, -1}, kueue.ClusterQueuePreemption{})
	res := simulate(t, in)
	if a := team(t, res, "a"); a.WaitP50 != 0 || a.WaitMax != time.Hour || a.BorrowedGPUHours != 3 {
		t.Errorf("got %v (borrowed %v); want 7 at once: b lends 3 of its 8", a, a.BorrowedGPUHours)
	}
	if b := team(t, res, "b"); b.LentGPUHours != 3 {
		t.Errorf("b lent %v GPU-hours, want 3", b.LentGPUHours)
	}
}

// A queue takes back what it lent: its run arrives, Kueue preempts the borrower's (reclaim).
func TestRun_reclaimWithinCohort(t *testing.T) {
	in := platform(
		clusterQueue("a", "pool", quota{4, -1, -1}, kueue.ClusterQueuePreemption{ReclaimWithinCohort: kueue.PreemptionPolicyAny}),
		clusterQueue("b", "pool", quota{4, -1, -1}, kueue.ClusterQueuePreemption{}),
	)
	in.Jobs = []Job{
		job("b", "b-big", 0, 4*time.Hour, 8, ""),
		job("a", "a-own", time.Hour, time.Hour, 4, ""),
	}
	res := simulate(t, in)
	a, b := team(t, res, "a"), team(t, res, "b")
	if a.WaitMax != 0 || b.Preemptions[kueue.InCohortReclamationReason] != 1 {
		t.Errorf("a: %v; b: %v; want a admitted at once, b's run reclaimed", a, b)
	}
	// b-big did not checkpoint: its first hour is lost, on 8 GPUs; it reruns after a-own.
	if b.LostGPUHours != 8 || b.WaitMax != 0 || b.Finished != 1 {
		t.Errorf("b: %v, lost %v GPU-hours; want 8 lost and the rerun finished", b, b.LostGPUHours)
	}
	in.Jobs[0].Checkpoint = true
	if b := team(t, simulate(t, in), "b"); b.LostGPUHours != 0 {
		t.Errorf("b lost %v GPU-hours with a checkpoint, want 0", b.LostGPUHours)
	}
}

// Within a queue, a higher priority run preempts a lower one; without preemption it waits.
func TestRun_priorityPreemptionWithinQueue(t *testing.T) {
	in := platform(clusterQueue("a", "", quota{8, -1, -1}, kueue.ClusterQueuePreemption{WithinClusterQueue: kueue.PreemptionPolicyLowerPriority}))
	in.Jobs = []Job{
		job("a", "low", 0, 3*time.Hour, 8, "low"),
		job("a", "high", time.Hour, time.Hour, 8, "high"),
	}
	a := team(t, simulate(t, in), "a")
	if a.Preemptions[kueue.InClusterQueueReason] != 1 || a.WaitP50 != 0 || a.Finished != 2 {
		t.Errorf("got %v; want low preempted by high at once, both finished", a)
	}
	in.ClusterQueues[0].Spec.Preemption = nil
	a = team(t, simulate(t, in), "a")
	if a.WaitMax != 2*time.Hour || len(a.Preemptions) != 0 {
		t.Errorf("without preemption got %v; want high waiting 2h for low", a)
	}
}

// A StrictFIFO head that does not fit blocks the runs behind it; BestEffortFIFO lets them pass.
func TestRun_strictFIFOBlocks(t *testing.T) {
	in := platform(clusterQueue("a", "", quota{8, -1, -1}, kueue.ClusterQueuePreemption{}))
	in.Jobs = []Job{
		job("a", "j1", 0, 2*time.Hour, 6, ""),
		job("a", "j2", time.Minute, time.Hour, 4, ""),
		job("a", "j3", 2*time.Minute, time.Hour, 2, ""),
	}
	a := team(t, simulate(t, in), "a")
	if a.WaitP50 != 0 {
		t.Errorf("BestEffortFIFO: got %v; want j3 admitted past j2", a)
	}
	in.ClusterQueues[0].Spec.QueueingStrategy = kueue.StrictFIFO
	a = team(t, simulate(t, in), "a")
	if a.WaitP50 == 0 || a.Finished != 3 {
		t.Errorf("StrictFIFO: got %v; want j3 held behind j2", a)
	}
}

// Same input, same output.
func TestRun_repeats(t *testing.T) {
	in := platform(clusterQueue("a", "", quota{8, -1, -1}, kueue.ClusterQueuePreemption{WithinClusterQueue: kueue.PreemptionPolicyLowerPriority}))
	in.Flavor["a100"] = FlavorModel{Price: map[corev1.ResourceName]float64{gpu: 4}, Spot: true}
	for i := range 40 {
		p := []string{"low", "high"}[i%2]
		j := job("a", "j"+time.Duration(i).String(), time.Duration(i)*17*time.Minute, time.Duration(1+i%3)*time.Hour, int64(1+i%4), p)
		j.NodeStart, j.SpotInterruptionsPerHour = 3*time.Minute, 0.3
		in.Jobs = append(in.Jobs, j)
	}
	first, second := simulate(t, in), simulate(t, in)
	if first.Teams[0].String() != second.Teams[0].String() || first.Teams[0].Interruptions == 0 {
		t.Errorf("runs differ or nothing was interrupted:\n%v\n%v", first.Teams[0], second.Teams[0])
	}
}

// The same day without MIG: 14 one-slice experiments fit at once on 2 GPUs of 7 slices each;
// as whole GPUs, 2 run at a time and the rest wait their turn.
func TestWholeGPUs_slicesBecomeGPUs(t *testing.T) {
	const slice = corev1.ResourceName("nvidia.com/mig-1g.10gb")
	in := platform(clusterQueue("a", "", quota{0, -1, -1}, kueue.ClusterQueuePreemption{}))
	in.ClusterQueues[0].Spec.ResourceGroups[0].CoveredResources = []corev1.ResourceName{gpu, slice}
	in.ClusterQueues[0].Spec.ResourceGroups[0].Flavors[0].Resources = append(in.ClusterQueues[0].Spec.ResourceGroups[0].Flavors[0].Resources,
		kueue.ResourceQuota{Name: slice, NominalQuota: resource.MustParse("14")})
	in.Flavor["a100"] = FlavorModel{Price: map[corev1.ResourceName]float64{slice: 0.5}, UnitsPerGPU: map[corev1.ResourceName]float64{slice: 7}}
	profiles := []Profile{{Team: "a", Namespace: "a", Queue: "a", Arrivals: make([]time.Duration, 14),
		Shapes:   []Shape{{Weight: 1, Pods: 1, Requests: corev1.ResourceList{slice: resource.MustParse("1")}}},
		Duration: Distribution{Kind: "fixed", Mean: time.Hour}}}
	in.Jobs = Jobs(profiles, in.Horizon, 1)
	sliced := team(t, simulate(t, in), "a")
	if err := WholeGPUs(&in, profiles); err != nil {
		t.Fatal(err)
	}
	in.Jobs = Jobs(profiles, in.Horizon, 1)
	whole := team(t, simulate(t, in), "a")
	if sliced.WaitMax != 0 || whole.WaitMax != 6*time.Hour || whole.Finished != 14 {
		t.Errorf("sliced: %v; whole GPUs: %v; want none waiting with slices, 2 at a time on whole GPUs", sliced, whole)
	}
	// The same money per GPU-hour: 7 slices at 0.5 is one GPU at 3.5.
	if sliced.Cost != 14*0.5 || whole.Cost != 14*3.5 {
		t.Errorf("cost %v sliced, %v whole; want 7 and 49", sliced.Cost, whole.Cost)
	}
}

// No goroutine outlives a run: Kueue's parts run inline, on the caller's goroutine. Goroutines
// are told apart by id, so that one ending elsewhere in the process cannot hide one the run left;
// one that is ending is waited for (a loaded machine may take a while to run it to its end), and
// one still alive a minute after the run returned is a leak.
func TestRun_leavesNoGoroutines(t *testing.T) {
	in := busyDay(40)
	if _, err := Run(context.Background(), in); err != nil { // warm: package-level caches
		t.Fatal(err)
	}
	before := goroutines()
	if _, err := Run(context.Background(), in); err != nil {
		t.Fatal(err)
	}
	var left []string
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(10 * time.Millisecond) {
		left = left[:0]
		for id, stack := range goroutines() {
			if _, ok := before[id]; !ok {
				left = append(left, stack)
			}
		}
		if len(left) == 0 || time.Now().After(deadline) {
			break
		}
	}
	if len(left) > 0 {
		t.Errorf("%d goroutines started during the run are alive a minute after it returned:\n%s", len(left), strings.Join(left, "\n\n"))
	}
}

// goroutines are the stacks of the process's goroutines, by id.
func goroutines() map[string]string {
	buf := make([]byte, 1<<16)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	out := map[string]string{}
	for _, stack := range strings.Split(string(buf), "\n\n") {
		// "goroutine 42 [chan receive]:"
		if head, ok := strings.CutPrefix(stack, "goroutine "); ok {
			id, _, _ := strings.Cut(head, " ")
			out[id] = stack
		}
	}
	return out
}
