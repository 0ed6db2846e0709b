package karpenter

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	karpv1alpha1 "sigs.k8s.io/karpenter/pkg/apis/v1alpha1"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/capacity"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/gpu"
)

func onDemandPool(model string, r gpu.InstanceRequirements) poolInput {
	return poolInput{Name: "pool", Model: model, Requirements: &r,
		Capacity: []capacityInput{{Type: capacity.CapacityOnDemand, MaxGPUs: 16, Weight: 10}}}
}

// Requirements choose the catalog's instance types of the model that they allow; what the pool
// supplies follows from those.
func TestPlanPool_byRequirements(t *testing.T) {
	for _, tc := range []struct {
		name     string
		in       poolInput
		want     string // instance types, joined
		perNode  int    // 0: differs
		cpuMilli int64
	}{
		{"every size", onDemandPool("h100", gpu.InstanceRequirements{}), "p5.48xlarge, p5.4xlarge", 0, 15890},
		{"one count", onDemandPool("h100", gpu.InstanceRequirements{GPUCounts: []int{8}}), "p5.48xlarge", 8, 23931},
		{"a family of two", onDemandPool("h200", gpu.InstanceRequirements{Families: []string{"p5en"}}), "p5en.48xlarge", 8, 23931},
		{"the memory tells the A100s apart", onDemandPool("a100-40gb", gpu.InstanceRequirements{}), "p4d.24xlarge", 8, 11961},
		{"generation and counts", onDemandPool("a10g", gpu.InstanceRequirements{MinGeneration: 5, GPUCounts: []int{4}}),
			"g5.12xlarge, g5.24xlarge", 4, 11952},
	} {
		p, perr := planPool(tc.in)
		if perr != nil {
			t.Fatalf("%s: %v", tc.name, perr)
		}
		if got := instanceTypeNames(p.InstanceTypes); got != tc.want {
			t.Errorf("%s: instance types %s, want %s", tc.name, got, tc.want)
		}
		it, other := p.oneGPUCount()
		if (tc.perNode == 0) != (other != nil) || (other == nil && it.GPUs != tc.perNode) {
			t.Errorf("%s: GPUs per node %d (other %v), want %d", tc.name, it.GPUs, other, tc.perNode)
		}
		if (p.countNote() == "") != (tc.perNode != 0) {
			t.Errorf("%s: count note %q", tc.name, p.countNote())
		}
		if cpu, _ := p.perGPU(); cpu != tc.cpuMilli {
			t.Errorf("%s: cpu per GPU %d, want %d", tc.name, cpu, tc.cpuMilli)
		}
	}
}

// Requirements the model cannot meet are refused, naming the attribute and what the model has.
func TestPlanPool_requirementsRefused(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   poolInput
		path string
		want string
	}{
		{"another model's family", onDemandPool("a100-80gb", gpu.InstanceRequirements{Families: []string{"p4de", "p5"}}),
			"[gpu instance_requirements families 1]", "no A100-SXM4-80GB instance type is of family p5 (p5 carries H100-SXM5-80GB); A100-SXM4-80GB comes in p4de"},
		{"an unknown family", onDemandPool("l4", gpu.InstanceRequirements{Families: []string{"g9"}}),
			"[gpu instance_requirements families 0]", "no L4 instance type is of family g9; L4 comes in g6, gr6"},
		{"a generation above the model's", onDemandPool("t4", gpu.InstanceRequirements{MinGeneration: 5}),
			"[gpu instance_requirements min_generation]", "T4 instance types are of generation 4 at most"},
		{"a GPU count the model lacks", onDemandPool("h100", gpu.InstanceRequirements{GPUCounts: []int{8, 4}}),
			"[gpu instance_requirements gpu_counts 1]", "no H100-SXM5-80GB instance type carries 4 GPUs; they carry 1, 8"},
		{"each met, not together", onDemandPool("l4", gpu.InstanceRequirements{Families: []string{"gr6"}, GPUCounts: []int{8}}),
			"[gpu instance_requirements]", "the requirements together match none of the L4 instance types (g6.xlarge: family g6, generation 6, 1 GPUs;"},
		{"a model not on EC2", onDemandPool("a30", gpu.InstanceRequirements{}), "[gpu model]", "is not offered on AWS EC2"},
		{"EC2 labels not known", onDemandPool("gb200", gpu.InstanceRequirements{}), "[gpu instance_requirements]",
			"GB200-186GB cannot be selected by requirements: the karpenter.k8s.aws/instance-gpu-name and instance-gpu-memory EC2 gives p6e-gb200.36xlarge are not known"},
		{"static over two counts", func() poolInput {
			in := onDemandPool("h100", gpu.InstanceRequirements{})
			in.Capacity[0].MaxGPUs, in.Capacity[0].Nodes = 0, new(int64)
			return in
		}(), "[on_demand nodes]", "give gpu.instance_requirements.gpu_counts one count"},
		{"EFA on a type without", func() poolInput {
			in := onDemandPool("l40s", gpu.InstanceRequirements{GPUCounts: []int{1}})
			in.EFA = true
			return in
		}(), "[efa]", "g6e.xlarge does not support EFA; narrow gpu.instance_requirements (families, gpu_counts)"},
		{"more types than match", func() poolInput {
			in := onDemandPool("h200", gpu.InstanceRequirements{Families: []string{"p5en"}})
			in.MinInstanceTypes = 2
			return in
		}(), "[gpu min_instance_types]", "2 instance types must be available, but the pool has 1 (p5en.48xlarge)"},
	} {
		_, perr := planPool(tc.in)
		if perr == nil {
			t.Errorf("%s: accepted", tc.name)
			continue
		}
		if got := fmt.Sprint(perr.Path); got != tc.path || !strings.Contains(perr.Msg, tc.want) {
			t.Errorf("%s: %s: %s\nwant %s: %s", tc.name, got, perr.Msg, tc.path, tc.want)
		}
	}
}

// By requirements, a mixed MIG pool's NodeOverlays select its nodes by GPU count, so that a size
// AWS adds later gets its MIG capacity too; by name, by the listed instance types.
func TestOverlaysSelect(t *testing.T) {
	in := onDemandPool("h100", gpu.InstanceRequirements{})
	in.Strategy, in.MIGConfig = string(gpu.StrategyMixed), "all-1g.10gb"
	want := map[string]karpv1alpha1.NodeSelectorRequirement{
		"pool-1gpu": {Key: gpu.LabelKarpenterGPUCount, Operator: corev1.NodeSelectorOpIn, Values: []string{"1"}},
		"pool-8gpu": {Key: gpu.LabelKarpenterGPUCount, Operator: corev1.NodeSelectorOpIn, Values: []string{"8"}},
	}
	byName := in
	byName.Requirements = nil
	for _, tc := range []struct {
		in   poolInput
		want map[string]karpv1alpha1.NodeSelectorRequirement
	}{
		{in, want},
		{byName, map[string]karpv1alpha1.NodeSelectorRequirement{
			"pool-1gpu": {Key: capacity.LabelInstanceType, Operator: corev1.NodeSelectorOpIn, Values: []string{"p5.4xlarge"}},
			"pool-8gpu": {Key: capacity.LabelInstanceType, Operator: corev1.NodeSelectorOpIn, Values: []string{"p5.48xlarge"}},
		}},
	} {
		p, perr := planPool(tc.in)
		if perr != nil {
			t.Fatal(perr)
		}
		got := map[string]karpv1alpha1.NodeSelectorRequirement{}
		for _, o := range p.overlays("pool") {
			got[o.Name] = p.overlaySelects(o)
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("requirements %v: overlays select %+v, want %+v", tc.in.Requirements, got, tc.want)
		}
	}
}
