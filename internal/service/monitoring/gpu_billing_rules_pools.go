package monitoring

import (
	"fmt"
	"maps"
	"slices"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/gpu"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/capacity"
)

// unitShare is what one unit of a resource counts for in GPUs: 1 for a whole GPU, a MIG
// profile's compute slices over its GPU's (1/7 for a 1g.10gb of an A100). Pools is nil when every
// pool that declares the resource gives it this share, else the pools that do.
type unitShare struct {
	Resource string // as kube-state-metrics writes it, e.g. nvidia_com_mig_1g_10gb
	Share    float64
	Pools    []string
}

// poolError is a problem with one supply of the pools attribute.
type poolError struct {
	Pool, CapacityType string
	Msg                string
}

func (e *poolError) Error() string {
	return fmt.Sprintf("pools[%q][%q]: %s", e.Pool, e.CapacityType, e.Msg)
}

// checkSupply checks one supply against the GPU catalog and the labels GPU node pools write,
// and returns the GPU model its nodes carry.
func checkSupply(pool, capacityType string, s poolSupply) (*gpu.Model, *poolError) {
	fail := func(format string, a ...any) (*gpu.Model, *poolError) {
		return nil, &poolError{pool, capacityType, fmt.Sprintf(format, a...)}
	}
	if !slices.Contains(capacity.CapacityTypes, capacityType) {
		return fail("the capacity type must be one of %q (the keys of a GPU node pool's supplies)", capacity.CapacityTypes)
	}
	alias, ok := s.NodeLabels[capacity.LabelGPU]
	if !ok {
		return fail("node_labels has no %q: pass a mlplatform_gpu_node_pool's supplies", capacity.LabelGPU)
	}
	m, err := gpu.Lookup(alias)
	if err != nil {
		return fail("node_labels[%q]: %s", capacity.LabelGPU, err)
	}
	// The rules find a node's pool from its NodePool, <pool>-<capacity type>.
	if want := pool + "-" + capacityType; s.NodeLabels[capacity.LabelNodePool] != want {
		return fail("node_labels[%q] is %q, not %q: key pools by the GPU node pool's name", capacity.LabelNodePool, s.NodeLabels[capacity.LabelNodePool], want)
	}
	if ct, ok := s.NodeLabels[capacity.LabelCapacityType]; ok && ct != capacityType {
		return fail("node_labels[%q] is %q, not %q", capacity.LabelCapacityType, ct, capacityType)
	}
	switch {
	case s.PerGPU == nil && len(s.HourlyPrice) == 0:
		return fail("per_gpu is null, as the pool's mig.parts split its GPUs, and hourly_price lists no resources: " +
			"the rules then do not know what the nodes expose; give the pool a price (on_demand.price_per_hour, spot.discount)")
	case s.PerGPU != nil && len(s.PerGPU) == 0:
		return fail("per_gpu is empty")
	}
	for _, r := range s.resources() {
		if _, err := share(m, r); err != nil {
			return fail("per_gpu: %s", err)
		}
	}
	for _, r := range slices.Sorted(maps.Keys(s.HourlyPrice)) {
		if _, ok := s.PerGPU[r]; !ok && s.PerGPU != nil {
			return fail("hourly_price has %q, which per_gpu does not list", r)
		}
		if p := s.HourlyPrice[r]; p < 0 {
			return fail("hourly_price[%q] is negative: %v", r, p)
		}
	}
	return m, nil
}

// resources are the resources the pool's nodes expose: per_gpu's, or hourly_price's for a pool
// whose GPUs are split into MIG parts (its prices cover every resource its nodes expose).
func (s poolSupply) resources() []string {
	if s.PerGPU != nil {
		return slices.Sorted(maps.Keys(s.PerGPU))
	}
	return slices.Sorted(maps.Keys(s.HourlyPrice))
}

// share is what one unit of resource r counts for in GPUs of model m.
func share(m *gpu.Model, r string) (float64, error) {
	profile, err := gpu.ParseResourceName(r)
	if err != nil {
		return 0, err
	}
	if profile == "" {
		return 1, nil
	}
	p, err := m.Profile(profile)
	if err != nil {
		return 0, err
	}
	return float64(p.ComputeSlices) / float64(m.ComputeSlices), nil
}

// unitShares checks the pools and lists one share per resource (and per share, where pools of
// different GPUs give one resource different shares), whole GPUs always included.
func unitShares(pools map[string]map[string]poolSupply) ([]unitShare, error) {
	byResource := map[string]map[float64][]string{ksmResource(gpu.ResourceGPU): {1: nil}}
	for _, pool := range slices.Sorted(maps.Keys(pools)) {
		for _, ct := range slices.Sorted(maps.Keys(pools[pool])) {
			s := pools[pool][ct]
			m, perr := checkSupply(pool, ct, s)
			if perr != nil {
				return nil, perr
			}
			for _, r := range s.resources() {
				f, _ := share(m, r)
				k := ksmResource(r)
				if byResource[k] == nil {
					byResource[k] = map[float64][]string{}
				}
				if !slices.Contains(byResource[k][f], pool) {
					byResource[k][f] = append(byResource[k][f], pool)
				}
			}
		}
	}
	var out []unitShare
	for _, r := range slices.Sorted(maps.Keys(byResource)) {
		shares := byResource[r]
		for _, f := range slices.Sorted(maps.Keys(shares)) {
			u := unitShare{Resource: r, Share: f}
			if len(shares) > 1 {
				u.Pools = slices.Sorted(slices.Values(shares[f]))
			}
			out = append(out, u)
		}
	}
	return out, nil
}
