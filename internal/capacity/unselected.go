package capacity

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/gpu"
)

// gpuNodeLabels are the node labels that say what GPU a node has: a flavor that selects by one of
// them is meant for GPU nodes.
var gpuNodeLabels = []string{LabelGPU, gpu.LabelGPUProduct, gpu.LabelMIGConfig, gpu.LabelGPUReplicas,
	gpu.LabelKarpenterGPUName, gpu.LabelKarpenterGPUMemory}

// Unselected returns a finding for each flavor that selects GPU nodes (by a label of
// gpuNodeLabels), that a queue gives a nominal quota of a GPU resource, and whose node labels every
// pool's nodes contradict: a label the pool's nodes carry with another value. Labels a pool does
// not set (a zone, an instance type) contradict nothing, as its nodes may carry them. The finding
// is on the first such quota; there are none without pools, or while a pool's labels are not all
// known. It fails only when a pool cannot be exposed (a pool the provider refused at plan).
func Unselected(flavors []Flavor, pools []Pool, quotas []Quota) ([]Finding, error) {
	if len(pools) == 0 || slices.ContainsFunc(pools, func(p Pool) bool { return p.LabelsUnknown }) {
		return nil, nil
	}
	labels := make([]map[string]string, len(pools))
	for i, p := range pools {
		s, err := p.Supply()
		if err != nil {
			return nil, fmt.Errorf("NodePool %s: %w", p.Name, err)
		}
		labels[i] = s.NodeLabels
	}
	var out []Finding
	for _, f := range flavors {
		if !slices.ContainsFunc(gpuNodeLabels, func(k string) bool { return f.NodeLabels[k] != "" }) {
			continue
		}
		i := slices.IndexFunc(quotas, func(q Quota) bool { return q.Flavor == f.Name && checked(q.Resource) && q.Nominal.Sign() > 0 })
		if i < 0 || slices.ContainsFunc(labels, func(l map[string]string) bool { return !contradicts(f.NodeLabels, l) }) {
			continue
		}
		q := quotas[i]
		out = append(out, Finding{Ref: q.Ref, Queue: q.Queue, Flavor: f.Name, Resource: q.Resource,
			Summary: "Flavor selects no GPU node pool's nodes",
			Detail: fmt.Sprintf("ResourceFlavor %s selects the nodes labelled %s, which no GPU node pool's nodes carry "+
				"(theirs: %s). ClusterQueue %s gives it %s %s: Kueue would admit runs on it that stay Pending, as no node "+
				"can take them. Take the flavor's node labels from a pool's `supplies` (e.g. node_labels = "+
				"mlplatform_gpu_node_pool.<pool>.supplies[\"<capacity type>\"].node_labels), or correct them.",
				f.Name, labelList(f.NodeLabels), poolLabels(pools, labels, f.NodeLabels), q.Queue, q.Nominal.String(), q.Resource)})
	}
	slices.SortFunc(out, func(a, b Finding) int { return strings.Compare(a.Flavor, b.Flavor) })
	return out, nil
}

// contradicts reports whether a node labelled nodeLabels, with any labels besides, could never
// carry every one of flavor's labels.
func contradicts(flavor, nodeLabels map[string]string) bool {
	for k, v := range flavor {
		if got, ok := nodeLabels[k]; ok && got != v {
			return true
		}
	}
	return false
}
