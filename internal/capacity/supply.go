package capacity

import (
	"maps"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/gpu"
)

// Supply is what a pool's nodes expose.
type Supply struct {
	// PerGPU is each resource one GPU exposes (a MIG slice count, or time-slicing replicas).
	PerGPU map[string]int64
	// Most is the most of each resource the pool can ever supply: PerGPU x MaxGPUs, or less when
	// MaxNodes bounds it first; -1 when the pool is unbounded.
	Most map[string]int64
	// NodeLabels are the pool's node labels and those gpu.Expose says such a node carries.
	NodeLabels map[string]string
}

// Supply computes what p's nodes expose. It fails only for a node the GPU catalog refuses.
func (p Pool) Supply() (Supply, error) {
	spec := p.Node
	perNodeKnown := spec.InstanceType != "" || spec.GPUsPerNode > 0
	if !perNodeKnown {
		spec.GPUsPerNode = 1 // only the per-GPU figures are used
	}
	e, err := gpu.Expose(spec)
	if err != nil {
		return Supply{}, err
	}
	s := Supply{PerGPU: maps.Clone(e.ResourcesPerGPU), Most: map[string]int64{}, NodeLabels: maps.Clone(e.NodeLabels)}
	maps.Copy(s.NodeLabels, p.NodeLabels)
	for r, n := range e.ResourcesPerGPU {
		most := int64(-1)
		if p.MaxGPUs > 0 {
			most = n * p.MaxGPUs
		}
		if (p.MaxNodes > 0 || p.Static) && perNodeKnown {
			byNodes := e.ResourcesPerNode[r] * p.MaxNodes
			if most < 0 || byNodes < most {
				most = byNodes
			}
		}
		s.Most[r] = most
	}
	return s, nil
}
