package capacity

import (
	"maps"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/gpu"
)

// supply is what a pool's nodes expose: each resource with the most the pool can ever supply
// (-1 when unbounded), and the node labels including those gpu.Expose adds.
func supply(p Pool) (map[string]int64, map[string]string, error) {
	spec := p.Node
	perNodeKnown := spec.InstanceType != "" || spec.GPUsPerNode > 0
	if !perNodeKnown {
		spec.GPUsPerNode = 1 // only the per-GPU figures are used
	}
	e, err := gpu.Expose(spec)
	if err != nil {
		return nil, nil, err
	}
	labels := maps.Clone(e.NodeLabels)
	maps.Copy(labels, p.NodeLabels)
	out := map[string]int64{}
	for r, n := range e.ResourcesPerGPU {
		most := int64(-1)
		if p.MaxGPUs > 0 {
			most = n * p.MaxGPUs
		}
		if p.MaxNodes > 0 && perNodeKnown {
			byNodes := e.ResourcesPerNode[r] * p.MaxNodes
			if most < 0 || byNodes < most {
				most = byNodes
			}
		}
		out[r] = most
	}
	return out, labels, nil
}
