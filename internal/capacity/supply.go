package capacity

import (
	"maps"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/gpu"
)

// Supply is what a pool's nodes expose.
type Supply struct {
	// PerGPU is each resource one GPU exposes (a MIG slice count, or time-slicing replicas); nil
	// when the node's GPUs are split into MIG parts that expose different things.
	PerGPU map[string]int64
	// PerNode is each resource one node exposes; nil when the pool's nodes differ in GPU count.
	PerNode map[string]int64
	// Most is the most of each resource the pool can ever supply: PerGPU x MaxGPUs (PerNode x the
	// nodes MaxGPUs allows, for a node split into parts), or less when MaxNodes bounds it first;
	// -1 when the pool is unbounded.
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
	if perNodeKnown {
		s.PerNode = maps.Clone(e.ResourcesPerNode)
	}
	maps.Copy(s.NodeLabels, p.NodeLabels)
	for r := range e.ResourcesPerNode {
		most := int64(-1)
		switch {
		case p.MaxGPUs <= 0:
		case e.Parts == nil:
			most = e.ResourcesPerGPU[r] * p.MaxGPUs
		default: // Karpenter's GPU limit counts every GPU of a node, whole or not
			most = e.ResourcesPerNode[r] * (p.MaxGPUs / int64(e.GPUsPerNode))
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
