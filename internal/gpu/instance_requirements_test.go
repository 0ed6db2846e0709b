package gpu

import (
	"slices"
	"testing"
)

// Family and generation as Karpenter labels them: karpenter-provider-aws v1.12.0's suite test
// expects g4dn / 4 for g4dn.8xlarge; its scheme reads p6-b200 as generation 6.
func TestInstanceType_familyAndGeneration(t *testing.T) {
	for _, c := range []struct {
		name, family string
		generation   int
	}{
		{"g4dn.8xlarge", "g4dn", 4},
		{"p4de.24xlarge", "p4de", 4},
		{"p5en.48xlarge", "p5en", 5},
		{"p6-b200.48xlarge", "p6-b200", 6},
		{"gr6.4xlarge", "gr6", 6},
		{"g7e.2xlarge", "g7e", 7},
	} {
		it, ok := InstanceTypeInfo(c.name)
		if !ok {
			t.Fatalf("%s missing", c.name)
		}
		if it.Family() != c.family || it.Generation() != c.generation {
			t.Errorf("%s: family %q, generation %d; want %q, %d", c.name, it.Family(), it.Generation(), c.family, c.generation)
		}
	}
}

func TestModel_InstanceTypesAllowed(t *testing.T) {
	names := func(its []InstanceType) []string {
		var out []string
		for _, it := range its {
			out = append(out, it.Name)
		}
		return out
	}
	for _, c := range []struct {
		model string
		r     InstanceRequirements
		want  []string
	}{
		{"h100", InstanceRequirements{}, []string{"p5.48xlarge", "p5.4xlarge"}},
		{"h100", InstanceRequirements{GPUCounts: []int{8}}, []string{"p5.48xlarge"}},
		{"h200", InstanceRequirements{Families: []string{"p5en"}}, []string{"p5en.48xlarge"}},
		{"l4", InstanceRequirements{Families: []string{"g6", "gr6"}, GPUCounts: []int{1}},
			[]string{"g6.xlarge", "g6.2xlarge", "g6.4xlarge", "g6.8xlarge", "g6.16xlarge", "gr6.4xlarge", "gr6.8xlarge"}},
		{"l4", InstanceRequirements{Families: []string{"gr6"}, GPUCounts: []int{4}}, nil},
		{"t4", InstanceRequirements{MinGeneration: 5}, nil},
		{"a10g", InstanceRequirements{MinGeneration: 5, GPUCounts: []int{4, 8}}, []string{"g5.12xlarge", "g5.24xlarge", "g5.48xlarge"}},
	} {
		m, err := Lookup(c.model)
		if err != nil {
			t.Fatal(err)
		}
		if got := names(m.InstanceTypesAllowed(c.r)); !slices.Equal(got, c.want) {
			t.Errorf("%s %+v: %v, want %v", c.model, c.r, got, c.want)
		}
	}
}
