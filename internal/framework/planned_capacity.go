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

type plannedCapacity struct {
	mu      sync.Mutex
	pools   map[string]capacity.Pool    // by NodePool name
	flavors map[string]capacity.Flavor  // by ResourceFlavor name
	quotas  map[string][]capacity.Quota // by ClusterQueue name
}

// PlanPools records the NodePools a GPU node pool plans.
func (p *ProviderData) PlanPools(pools []capacity.Pool) {
	pc := &p.capacity
	pc.mu.Lock()
	defer pc.mu.Unlock()
	if pc.pools == nil {
		pc.pools = map[string]capacity.Pool{}
	}
	for _, pool := range pools {
		pc.pools[pool.Name] = pool
	}
}

// PlanFlavor records a planned ResourceFlavor.
func (p *ProviderData) PlanFlavor(f capacity.Flavor) {
	pc := &p.capacity
	pc.mu.Lock()
	defer pc.mu.Unlock()
	if pc.flavors == nil {
		pc.flavors = map[string]capacity.Flavor{}
	}
	pc.flavors[f.Name] = f
}

// PlannedCapacity is what the configuration planned so far, besides the queue being checked.
type PlannedCapacity struct {
	Pools   []capacity.Pool
	Flavors map[string]capacity.Flavor
	// Quotas of the other queues planned so far, by queue name.
	Quotas map[string][]capacity.Quota
}

// PlanQuotas records a ClusterQueue's planned quotas and returns what was planned so far. The
// other queues' quotas carry Ref -1.
func (p *ProviderData) PlanQuotas(queue string, quotas []capacity.Quota) PlannedCapacity {
	pc := &p.capacity
	pc.mu.Lock()
	defer pc.mu.Unlock()
	if pc.quotas == nil {
		pc.quotas = map[string][]capacity.Quota{}
	}
	pc.quotas[queue] = quotas
	out := PlannedCapacity{Flavors: maps.Clone(pc.flavors), Quotas: map[string][]capacity.Quota{}}
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
