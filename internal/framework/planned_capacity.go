package framework

import (
	"maps"
	"slices"
	"sync"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/capacity"
)

// Plan-time capacity between resources of one configuration: GPU node pools record what they
// supply, ResourceFlavors the nodes they select, ClusterQueues their nominal quotas. A queue then
// checks its quotas against the pools its flavors select and sums the quotas of every queue
// planned so far, from the planned values rather than the objects in the cluster, which may be
// older or not written yet. A queue that names its flavors by reference (and a flavor that takes
// its node labels from a pool's `supplies`) is planned after them, so it sees them.
//
// A flavor meant for GPU nodes that a queue gives GPU quota, but whose labels every planned pool's
// nodes contradict, is reported (a warning: its nodes may come from elsewhere) by whichever of the
// flavor, the quota and the first pool is planned last: the plan that makes it so. A pool planned
// later that supplies the flavor cannot take the warning back, so a flavor whose labels are
// written by hand is judged against the pools planned before it; one that takes them from a pool's
// `supplies` is planned after that pool.

type plannedCapacity struct {
	mu      sync.Mutex
	pools   map[string]capacity.Pool    // by NodePool name
	flavors map[string]capacity.Flavor  // by ResourceFlavor name
	quotas  map[string][]capacity.Quota // by ClusterQueue name
}

// UnselectedAtPlan ends the plan-time warning about a flavor that selects no planned pool.
const UnselectedAtPlan = " At plan, the flavor is compared with the GPU node pools of this configuration that Terraform " +
	"planned before this warning (a flavor that takes its node_labels from a pool's supplies is planned after that " +
	"pool): if its nodes come from elsewhere, such as a node group or another configuration's pool, it does not apply."

// PlanPools records the NodePools a GPU node pool plans, and returns the flavors planned before
// that no pool now supplies (capacity.Unselected) and did before: only the first pool can.
func (p *ProviderData) PlanPools(pools []capacity.Pool) []capacity.Finding {
	pc := &p.capacity
	pc.mu.Lock()
	defer pc.mu.Unlock()
	return pc.newlyUnselected("", func() {
		if pc.pools == nil {
			pc.pools = map[string]capacity.Pool{}
		}
		for _, pool := range pools {
			pc.pools[pool.Name] = pool
		}
	})
}

// PlanFlavor records a planned ResourceFlavor, and returns it if no planned pool supplies it
// while a queue gives it GPU quota (capacity.Unselected).
func (p *ProviderData) PlanFlavor(f capacity.Flavor) []capacity.Finding {
	pc := &p.capacity
	pc.mu.Lock()
	defer pc.mu.Unlock()
	return pc.newlyUnselected("", func() {
		if pc.flavors == nil {
			pc.flavors = map[string]capacity.Flavor{}
		}
		pc.flavors[f.Name] = f
	})
}

// newlyUnselected applies change and returns the flavors it made unselected. The quotas of queue
// come first, so that a finding is on its quota when it has one (with its own Ref).
func (pc *plannedCapacity) newlyUnselected(queue string, change func()) []capacity.Finding {
	before := pc.unselected(queue)
	change()
	var out []capacity.Finding
	for _, f := range pc.unselected(queue) {
		if !slices.ContainsFunc(before, func(b capacity.Finding) bool { return b.Flavor == f.Flavor }) {
			out = append(out, f)
		}
	}
	return out
}

// unselected is capacity.Unselected of everything planned, queue's quotas first.
func (pc *plannedCapacity) unselected(queue string) []capacity.Finding {
	quotas := slices.Clone(pc.quotas[queue])
	for _, q := range slices.Sorted(maps.Keys(pc.quotas)) {
		if q != queue {
			quotas = append(quotas, pc.quotas[q]...)
		}
	}
	pools := make([]capacity.Pool, 0, len(pc.pools))
	for _, name := range slices.Sorted(maps.Keys(pc.pools)) {
		pools = append(pools, pc.pools[name])
	}
	flavors := make([]capacity.Flavor, 0, len(pc.flavors))
	for _, name := range slices.Sorted(maps.Keys(pc.flavors)) {
		flavors = append(flavors, pc.flavors[name])
	}
	found, err := capacity.Unselected(flavors, pools, quotas)
	if err != nil {
		return nil // a pool the provider refused at plan
	}
	return found
}

// PlannedCapacity is what the configuration planned so far, besides the queue being checked.
type PlannedCapacity struct {
	Pools   []capacity.Pool
	Flavors map[string]capacity.Flavor
	// Quotas of the other queues planned so far, by queue name.
	Quotas map[string][]capacity.Quota
	// Unselected are the flavors the queue's quotas made unselected (capacity.Unselected): on the
	// queue's quota (Ref) when it gives them GPU quota, else on another queue's (Ref -1).
	Unselected []capacity.Finding
}

// PlanQuotas records a ClusterQueue's planned quotas and returns what was planned so far. The
// other queues' quotas carry Ref -1.
func (p *ProviderData) PlanQuotas(queue string, quotas []capacity.Quota) PlannedCapacity {
	pc := &p.capacity
	pc.mu.Lock()
	defer pc.mu.Unlock()
	unselected := pc.newlyUnselected(queue, func() {
		if pc.quotas == nil {
			pc.quotas = map[string][]capacity.Quota{}
		}
		pc.quotas[queue] = quotas
	})
	for i, f := range unselected {
		if f.Queue != queue {
			unselected[i].Ref = -1
		}
	}
	out := PlannedCapacity{Flavors: maps.Clone(pc.flavors), Quotas: map[string][]capacity.Quota{}, Unselected: unselected}
	for _, name := range slices.Sorted(maps.Keys(pc.pools)) {
		out.Pools = append(out.Pools, pc.pools[name])
	}
	for q, qs := range pc.quotas {
		if q == queue {
			continue
		}
		for _, x := range qs {
			x.Ref = -1
			out.Quotas[q] = append(out.Quotas[q], x)
		}
	}
	return out
}
