package simulate

import (
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
)

// slot is one flavor's GPU resource: the unit the accounts count in.
type slot struct{ flavor, resource string }

// isGPU tells the resources accounted as GPUs: whole GPUs and MIG slices.
func isGPU(r corev1.ResourceName) bool {
	return r == "nvidia.com/gpu" || strings.HasPrefix(string(r), "nvidia.com/mig-")
}

// accounts integrates what the admitted runs hold over time, and samples the timeline.
type accounts struct {
	in        *Input
	active    map[*run]bool
	pending   map[string]int // jobs waiting, by team
	cohort    map[string]string
	nominal   map[string]map[slot]float64 // by ClusterQueue
	capacity  map[slot]float64
	gpuHours  map[string]float64 // by team, in GPUs
	borrowed  map[string]float64 // by ClusterQueue, GPU-hours
	lent      map[string]float64
	cost      map[string]float64 // by team, USD
	slotHours map[slot]float64   // units x hours
	peak      map[slot]float64
	steps     []Step
}

func newAccounts(in *Input) *accounts {
	a := &accounts{
		in: in, active: map[*run]bool{}, pending: map[string]int{}, cohort: map[string]string{},
		nominal: map[string]map[slot]float64{}, capacity: map[slot]float64{},
		gpuHours: map[string]float64{}, borrowed: map[string]float64{}, lent: map[string]float64{},
		cost: map[string]float64{}, slotHours: map[slot]float64{}, peak: map[slot]float64{},
	}
	for _, cq := range in.ClusterQueues {
		a.cohort[cq.Name] = string(cq.Spec.CohortName)
		a.nominal[cq.Name] = map[slot]float64{}
		for _, rg := range cq.Spec.ResourceGroups {
			for _, fq := range rg.Flavors {
				for _, rq := range fq.Resources {
					if !isGPU(rq.Name) {
						continue
					}
					s := slot{string(fq.Name), string(rq.Name)}
					n := rq.NominalQuota.AsApproximateFloat64()
					a.nominal[cq.Name][s] += n
					a.capacity[s] += n
				}
			}
		}
	}
	n := int((in.Horizon + in.Interval - 1) / in.Interval)
	a.steps = make([]Step, n)
	for i := range a.steps {
		a.steps[i] = Step{At: time.Duration(i) * in.Interval, InUse: map[string]float64{}, Pending: map[string]int{}}
	}
	return a
}

// usageOf is what an admitted Workload holds of each GPU slot, and the flavor of its GPUs.
func (a *accounts) usageOf(wl *kueue.Workload) (map[slot]float64, string) {
	use := map[slot]float64{}
	flavor := ""
	for _, ps := range wl.Status.Admission.PodSetAssignments {
		for r, f := range ps.Flavors {
			if flavor == "" || isGPU(r) {
				flavor = string(f)
			}
			if q, ok := ps.ResourceUsage[r]; ok && isGPU(r) {
				use[slot{string(f), string(r)}] += q.AsApproximateFloat64()
			}
		}
	}
	return use, flavor
}

// gpus turns units of a slot into GPUs (a MIG slice is a fraction of one).
func (a *accounts) gpus(s slot, units float64) float64 {
	per := a.in.Flavor[s.flavor].UnitsPerGPU[corev1.ResourceName(s.resource)]
	if per <= 0 {
		per = 1
	}
	return units / per
}

func (a *accounts) start(r *run) { a.active[r] = true }
func (a *accounts) stop(r *run)  { delete(a.active, r) }

// elapse accounts [from, to): what the active runs hold, borrowing and lending within cohorts,
// and the timeline's steps, split at their boundaries.
func (a *accounts) elapse(from, to time.Duration) {
	for from < to {
		i := int(from / a.in.Interval)
		end := min(to, time.Duration(i+1)*a.in.Interval)
		a.span(i, from, end)
		from = end
	}
}

func (a *accounts) span(step int, from, to time.Duration) {
	h := (to - from).Hours()
	held := map[string]map[slot]float64{}
	total := map[slot]float64{}
	for r := range a.active {
		if held[r.cq] == nil {
			held[r.cq] = map[slot]float64{}
		}
		team := r.job.team()
		for s, u := range r.usage {
			held[r.cq][s] += u
			total[s] += u
			g := a.gpus(s, u)
			a.gpuHours[team] += g * h
			a.cost[team] += u * h * a.in.Flavor[s.flavor].Price[corev1.ResourceName(s.resource)]
		}
	}
	for s, u := range total {
		a.slotHours[s] += u * h
		a.peak[s] = max(a.peak[s], u)
		if step < len(a.steps) {
			a.steps[step].InUse[s.flavor] += a.gpus(s, u) * h / a.in.Interval.Hours()
		}
	}
	a.lend(held, h)
	if step < len(a.steps) {
		for t, n := range a.pending {
			a.steps[step].Pending[t] = n
		}
	}
}

// lend books borrowing above a queue's nominal quota, and lends it from the unused quota of the
// queues of its cohort in proportion to what each leaves unused.
func (a *accounts) lend(held map[string]map[slot]float64, h float64) {
	type key struct {
		cohort string
		s      slot
	}
	borrowed := map[key]float64{}
	unused := map[key]float64{}
	for cq, nominal := range a.nominal {
		k := func(s slot) key { return key{a.cohort[cq], s} }
		for s, n := range nominal {
			u := held[cq][s]
			if u > n {
				b := a.gpus(s, u-n)
				borrowed[k(s)] += b
				a.borrowed[cq] += b * h
			} else {
				unused[k(s)] += a.gpus(s, n-u)
			}
		}
		for s, u := range held[cq] {
			if _, ok := nominal[s]; !ok {
				b := a.gpus(s, u)
				borrowed[k(s)] += b
				a.borrowed[cq] += b * h
			}
		}
	}
	for cq, nominal := range a.nominal {
		for s, n := range nominal {
			kk := key{a.cohort[cq], s}
			if u := held[cq][s]; u < n && unused[kk] > 0 && a.cohort[cq] != "" {
				a.lent[cq] += borrowed[kk] * a.gpus(s, n-u) / unused[kk] * h
			}
		}
	}
}
