package simulate

import (
	"cmp"
	"fmt"
	"slices"
	"time"
)

// Result is what a run shows: per team, per flavor, the timeline and what the numbers rest on.
type Result struct {
	Teams    []TeamResult
	Flavors  []FlavorResult
	Timeline []Step
	Caveats  []string
	// Cycles is how many scheduling cycles Kueue ran.
	Cycles int
	// Admitted is when each job admitted within the horizon was first admitted, by name.
	Admitted map[string]time.Duration
}

// TeamResult is one team's jobs: a team is the namespace its jobs run in (or Job.Team).
type TeamResult struct {
	Team, ClusterQueue                              string
	Submitted, Admitted, Finished, Waiting, Running int
	// GaveUp counts jobs queued MaxAttempts times: preemption loops.
	GaveUp int
	// Waits are from arrival to first admission; a job never admitted counts as waiting until
	// the horizon (a lower bound).
	WaitP50, WaitP95, WaitMax time.Duration
	// Preemptions by Kueue's reason: InClusterQueue, InCohortReclamation,
	// InCohortReclaimWhileBorrowing, InCohortFairSharing.
	Preemptions map[string]int
	// MostPreemptionsOfOneJob shows loops: one job preempted again and again.
	MostPreemptionsOfOneJob                                      int
	Interruptions                                                int
	GPUHours, BorrowedGPUHours, LentGPUHours, LostGPUHours, Cost float64
}

// FlavorResult is one flavor's GPU resource over the horizon.
type FlavorResult struct {
	Flavor, Resource string
	// Quota is the nominal quota the ClusterQueues give it, in units of Resource.
	Quota, Peak, UnitHours float64
	// Utilisation is UnitHours over Quota held for the whole horizon.
	Utilisation float64
}

// Step is one interval of the timeline: GPUs in use by flavor (averaged over the interval) and
// jobs waiting by team (at its end).
type Step struct {
	At      time.Duration
	InUse   map[string]float64
	Pending map[string]int
}

// Caveats says what the numbers rest on besides Kueue's own decisions.
var Caveats = []string{
	"Admission, borrowing, reclaim and preemption are decided by Kueue's scheduler (sigs.k8s.io/kueue v0.19.2) on a virtual clock; everything else is the simulator's model.",
	"Nodes: quota is taken to be capacity; pool limits, node fit and MIG slices per node are not modelled, and an admitted run waits the flavor's node start before it works.",
	"A preempted or interrupted run's pod is replaced by a new one (Argo's retry) that queues behind those already waiting; without a checkpoint its work so far is lost.",
	"Spot interruptions arrive at random at the flavor's rate while a run holds a node; the seed fixes them.",
	"Lent GPU-hours split what a cohort borrows among its queues in proportion to the quota each leaves unused.",
	"Waits of jobs never admitted are counted up to the horizon.",
}

func (e *engine) result() *Result {
	res := &Result{Cycles: e.cycles, Timeline: e.acct.steps, Caveats: slices.Clone(Caveats), Admitted: map[string]time.Duration{}}
	if e.stopped != "" {
		res.Caveats = append(res.Caveats, "The run was cut short: "+e.stopped+".")
	}
	teams := map[string]*TeamResult{}
	waits := map[string][]time.Duration{}
	queueOf := map[string]string{}
	for _, lq := range e.in.LocalQueues {
		queueOf[lq.Namespace+"/"+lq.Name] = string(lq.Spec.ClusterQueue)
		if teams[lq.Namespace] == nil {
			teams[lq.Namespace] = &TeamResult{Team: lq.Namespace, Preemptions: map[string]int{}, ClusterQueue: string(lq.Spec.ClusterQueue)}
		}
	}
	for _, r := range e.runs {
		if r.job.Arrival > e.in.Horizon {
			continue
		}
		name := r.job.team()
		t := teams[name]
		if t == nil {
			t = &TeamResult{Team: name, Preemptions: map[string]int{}, ClusterQueue: queueOf[r.job.Namespace+"/"+r.job.Queue]}
			teams[name] = t
		}
		t.Submitted++
		wait := e.in.Horizon - r.job.Arrival
		if r.admitted {
			t.Admitted++
			wait = r.firstWait
			res.Admitted[r.job.Name] = r.job.Arrival + r.firstWait
		}
		waits[name] = append(waits[name], wait)
		switch {
		case r.finished:
			t.Finished++
		case r.gaveUp:
			t.GaveUp++
		case r.running:
			t.Running++
		default:
			t.Waiting++
		}
		n := 0
		for reason, c := range r.preemptions {
			t.Preemptions[reason] += c
			n += c
		}
		t.MostPreemptionsOfOneJob = max(t.MostPreemptionsOfOneJob, n)
		t.Interruptions += r.interruptions
		t.LostGPUHours += r.lost.Hours() * e.jobGPUs(r)
	}
	for name, t := range teams {
		w := waits[name]
		slices.Sort(w)
		t.WaitP50, t.WaitP95, t.WaitMax = quantile(w, 0.5), quantile(w, 0.95), quantile(w, 1)
		t.GPUHours, t.Cost = e.acct.gpuHours[name], e.acct.cost[name]
		t.BorrowedGPUHours, t.LentGPUHours = e.acct.borrowed[t.ClusterQueue], e.acct.lent[t.ClusterQueue]
		res.Teams = append(res.Teams, *t)
	}
	slices.SortFunc(res.Teams, func(a, b TeamResult) int { return cmp.Compare(a.Team, b.Team) })
	for s, q := range e.acct.capacity {
		f := FlavorResult{Flavor: s.flavor, Resource: s.resource, Quota: q, Peak: e.acct.peak[s], UnitHours: e.acct.slotHours[s]}
		if q > 0 {
			f.Utilisation = f.UnitHours / (q * e.in.Horizon.Hours())
		}
		res.Flavors = append(res.Flavors, f)
	}
	slices.SortFunc(res.Flavors, func(a, b FlavorResult) int {
		return cmp.Or(cmp.Compare(a.Flavor, b.Flavor), cmp.Compare(a.Resource, b.Resource))
	})
	return res
}

// jobGPUs is how many GPUs a job's pods ask for, for the work it lost.
func (e *engine) jobGPUs(r *run) float64 {
	g := 0.0
	for name, q := range r.job.Requests {
		if isGPU(name) {
			per := 1.0
			if r.flavor != "" {
				if u := e.in.Flavor[r.flavor].UnitsPerGPU[name]; u > 0 {
					per = u
				}
			}
			g += q.AsApproximateFloat64() / per
		}
	}
	return g * float64(r.job.Pods)
}

// quantile is the nearest-rank quantile of sorted values.
func quantile(sorted []time.Duration, q float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(q*float64(len(sorted))+0.999999) - 1
	return sorted[max(0, min(i, len(sorted)-1))]
}

// String is a short summary, for logs and benchmarks.
func (t TeamResult) String() string {
	return fmt.Sprintf("%s: %d submitted, %d admitted, %d finished, wait p50 %s p95 %s max %s, preemptions %v, %.1f GPU-h",
		t.Team, t.Submitted, t.Admitted, t.Finished, t.WaitP50, t.WaitP95, t.WaitMax, t.Preemptions, t.GPUHours)
}
