package capacity

import (
	"slices"
	"strconv"

	corev1 "k8s.io/api/core/v1"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/gpu"
)

// Selection is how a pool's NodePools select instance types: by name (LabelInstanceType In the
// names), or by requirements on the labels Karpenter gives instance types, so that sizes AWS adds
// later are taken too. By requirements, the NodePool also requires the model's Karpenter GPU name
// and GPU memory: the name alone is shared (A100 40GB and 80GB are both "a100"), and a model's
// instance types all report its memory.
type Selection struct {
	InstanceTypes []string                  // by name; nil when by requirements
	Requirements  *gpu.InstanceRequirements // by requirements; nil when by name
	MinValues     int                       // Karpenter's minValues on the instance types; 0: none
}

// NodePoolRequirements are the requirements that select s's instance types of model m, without
// the capacity type.
func (s Selection) NodePoolRequirements(m *gpu.Model) []karpv1.NodeSelectorRequirementWithMinValues {
	var minValues *int
	if s.MinValues > 0 {
		minValues = &s.MinValues
	}
	if s.Requirements == nil {
		return []karpv1.NodeSelectorRequirementWithMinValues{{Key: LabelInstanceType, Operator: corev1.NodeSelectorOpIn,
			Values: slices.Sorted(slices.Values(s.InstanceTypes)), MinValues: minValues}}
	}
	in := func(key string, values ...string) karpv1.NodeSelectorRequirementWithMinValues {
		return karpv1.NodeSelectorRequirementWithMinValues{Key: key, Operator: corev1.NodeSelectorOpIn, Values: values}
	}
	var out []karpv1.NodeSelectorRequirementWithMinValues
	if m.KarpenterGPUName != "" {
		out = append(out, in(gpu.LabelKarpenterGPUName, m.KarpenterGPUName))
	}
	if m.KarpenterGPUMemoryMiB > 0 {
		out = append(out, in(gpu.LabelKarpenterGPUMemory, strconv.FormatInt(m.KarpenterGPUMemoryMiB, 10)))
	}
	r := s.Requirements
	if len(r.Families) > 0 {
		out = append(out, in(gpu.LabelKarpenterInstanceFamily, slices.Sorted(slices.Values(r.Families))...))
	}
	if r.MinGeneration > 0 { // Gt, which every Karpenter v1 knows (Gte is newer)
		out = append(out, karpv1.NodeSelectorRequirementWithMinValues{Key: gpu.LabelKarpenterInstanceGeneration,
			Operator: corev1.NodeSelectorOpGt, Values: []string{strconv.Itoa(r.MinGeneration - 1)}})
	}
	if len(r.GPUCounts) > 0 {
		counts := []string{}
		for _, n := range slices.Sorted(slices.Values(r.GPUCounts)) {
			counts = append(counts, strconv.Itoa(n))
		}
		out = append(out, in(gpu.LabelKarpenterGPUCount, counts...))
	}
	if minValues != nil { // flexibility over whichever instance types the requirements leave
		out = append(out, karpv1.NodeSelectorRequirementWithMinValues{Key: LabelInstanceType, Operator: corev1.NodeSelectorOpExists,
			MinValues: minValues})
	}
	return out
}

// ReadSelection reads what NodePoolRequirements wrote. A NodePool that requires a Karpenter GPU
// name selects by requirements.
func ReadSelection(reqs []karpv1.NodeSelectorRequirementWithMinValues) Selection {
	var s Selection
	r := &gpu.InstanceRequirements{}
	for _, req := range reqs {
		switch {
		case req.Key == LabelInstanceType && req.Operator == corev1.NodeSelectorOpIn:
			s.InstanceTypes = slices.Clone(req.Values)
		case req.Key == gpu.LabelKarpenterGPUName && req.Operator == corev1.NodeSelectorOpIn:
			s.Requirements = r
		case req.Key == gpu.LabelKarpenterInstanceFamily && req.Operator == corev1.NodeSelectorOpIn:
			r.Families = slices.Clone(req.Values)
		case req.Key == gpu.LabelKarpenterInstanceGeneration && len(req.Values) == 1:
			n, err := strconv.Atoi(req.Values[0])
			switch {
			case err != nil:
			case req.Operator == corev1.NodeSelectorOpGt:
				r.MinGeneration = n + 1
			case req.Operator == karpv1.NodeSelectorOpGte:
				r.MinGeneration = n
			}
		case req.Key == gpu.LabelKarpenterGPUCount && req.Operator == corev1.NodeSelectorOpIn:
			for _, v := range req.Values {
				if n, err := strconv.Atoi(v); err == nil {
					r.GPUCounts = append(r.GPUCounts, n)
				}
			}
		}
		if req.Key == LabelInstanceType && req.MinValues != nil {
			s.MinValues = *req.MinValues
		}
	}
	if s.Requirements != nil {
		s.InstanceTypes = nil
	}
	return s
}

// Allowed are the catalog's instance types of model m that s selects; nil when a named instance
// type is not in the catalog, as what its nodes are is then unknown.
func (s Selection) Allowed(m *gpu.Model) []gpu.InstanceType {
	if s.Requirements != nil {
		return m.InstanceTypesAllowed(*s.Requirements)
	}
	var out []gpu.InstanceType
	for _, name := range s.InstanceTypes {
		_, it, err := gpu.ModelForInstanceType(name)
		if err != nil {
			return nil
		}
		out = append(out, it)
	}
	return out
}
