package gpu

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// InstanceRequirements select a model's EC2 instance types by the labels Karpenter gives them
// (LabelKarpenterInstanceFamily, ...) instead of by name, so that a NodePool also takes the sizes
// AWS adds later. The zero value allows every instance type of the model.
type InstanceRequirements struct {
	Families      []string // instance families (p5, g6e); empty: any
	MinGeneration int      // the least instance generation; 0: any
	GPUCounts     []int    // GPUs per instance; empty: any
}

// instanceTypeScheme is how Karpenter parses an instance type's category and generation
// (karpenter-provider-aws v1.15.2 pkg/providers/instancetype/types.go): "p6-b200.48xlarge" is
// category p, generation 6.
var instanceTypeScheme = regexp.MustCompile(`(^[a-z]+)(\-[0-9]+tb)?([0-9]+).*\.`)

// Family is the instance type's LabelKarpenterInstanceFamily: its name before the dot.
func (t InstanceType) Family() string {
	family, _, _ := strings.Cut(t.Name, ".")
	return family
}

// Generation is the instance type's LabelKarpenterInstanceGeneration; 0 when Karpenter finds none.
func (t InstanceType) Generation() int {
	parts := instanceTypeScheme.FindStringSubmatch(t.Name)
	if len(parts) != 4 {
		return 0
	}
	n, _ := strconv.Atoi(parts[3])
	return n
}

// Allows reports whether r allows instance type t.
func (r InstanceRequirements) Allows(t InstanceType) bool {
	return (len(r.Families) == 0 || slices.Contains(r.Families, t.Family())) &&
		t.Generation() >= r.MinGeneration &&
		(len(r.GPUCounts) == 0 || slices.Contains(r.GPUCounts, t.GPUs))
}

// InstanceTypesAllowed are the model's instance types in the catalog that r allows, in catalog order.
func (m *Model) InstanceTypesAllowed(r InstanceRequirements) []InstanceType {
	var out []InstanceType
	for _, t := range m.InstanceTypes {
		if r.Allows(t) {
			out = append(out, t)
		}
	}
	return out
}
