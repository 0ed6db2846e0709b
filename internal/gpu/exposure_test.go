package gpu

import (
	"maps"
	"strings"
	"testing"
)

func TestExpose(t *testing.T) {
	cases := []struct {
		name    string
		spec    NodeSpec
		perGPU  map[string]int64
		perNode map[string]int64
		labels  map[string]string
	}{
		{
			name:    "p4de all-1g.10gb mixed",
			spec:    NodeSpec{InstanceType: "p4de.24xlarge", MIG: "all-1g.10gb", Strategy: StrategyMixed},
			perGPU:  map[string]int64{"nvidia.com/mig-1g.10gb": 7},
			perNode: map[string]int64{"nvidia.com/mig-1g.10gb": 56},
			labels: map[string]string{
				LabelMIGConfig: "all-1g.10gb", LabelGPUProduct: "NVIDIA-A100-SXM4-80GB",
				LabelKarpenterGPUName: "a100", LabelKarpenterGPUMemory: "81920",
			},
		},
		{
			// reference kueue.mig_accounting.quota_example
			name:    "p4de all-balanced mixed",
			spec:    NodeSpec{InstanceType: "p4de.24xlarge", MIG: "all-balanced", Strategy: StrategyMixed},
			perNode: map[string]int64{"nvidia.com/mig-1g.10gb": 16, "nvidia.com/mig-2g.20gb": 8, "nvidia.com/mig-3g.40gb": 8},
		},
		{
			name:    "single strategy all-1g.10gb",
			spec:    NodeSpec{Model: mustModel(t, "a100-80gb"), GPUsPerNode: 8, MIG: "1g.10gb=7", Strategy: StrategySingle},
			perGPU:  map[string]int64{"nvidia.com/gpu": 7},
			perNode: map[string]int64{"nvidia.com/gpu": 56},
			labels:  map[string]string{LabelGPUProduct: "NVIDIA-A100-SXM4-80GB-MIG-1g.10gb", LabelMIGConfig: "all-1g.10gb"},
		},
		{
			name:    "single strategy +me profile written with a dot",
			spec:    NodeSpec{InstanceType: "p5.48xlarge", MIG: "all-1g.10gb.me", Strategy: StrategySingle},
			perNode: map[string]int64{"nvidia.com/gpu": 8},
			labels:  map[string]string{LabelGPUProduct: "NVIDIA-H100-80GB-HBM3-MIG-1g.10gb.me"},
		},
		{
			name:   "mixed +me resource name",
			spec:   NodeSpec{InstanceType: "p4de.24xlarge", MIG: "1g.10gb+me,3g.40gb", Strategy: StrategyMixed},
			perGPU: map[string]int64{"nvidia.com/mig-1g.10gb.me": 1, "nvidia.com/mig-3g.40gb": 1},
			labels: map[string]string{LabelMIGConfig: "custom-3g.40gb-x1-1g.10gb.me-x1"},
		},
		{
			name:    "MIG off on a MIG GPU",
			spec:    NodeSpec{InstanceType: "p5e.48xlarge"},
			perNode: map[string]int64{"nvidia.com/gpu": 8},
			labels:  map[string]string{LabelMIGConfig: "all-disabled", LabelGPUProduct: "NVIDIA-H200", LabelKarpenterGPUName: "h200"},
		},
		{
			name:    "time-slicing 10 replicas on g5.48xlarge",
			spec:    NodeSpec{InstanceType: "g5.48xlarge", TimeSlicing: &TimeSlicing{Replicas: 10}},
			perGPU:  map[string]int64{"nvidia.com/gpu": 10},
			perNode: map[string]int64{"nvidia.com/gpu": 80},
			labels:  map[string]string{LabelGPUProduct: "NVIDIA-A10G-SHARED", LabelGPUReplicas: "10", LabelKarpenterGPUName: "a10g"},
		},
		{
			name:    "time-slicing renamed",
			spec:    NodeSpec{InstanceType: "g6.12xlarge", TimeSlicing: &TimeSlicing{Replicas: 4, RenameByDefault: true}},
			perNode: map[string]int64{"nvidia.com/gpu.shared": 16},
			labels:  map[string]string{LabelGPUProduct: "NVIDIA-L4", LabelGPUReplicas: "4"},
		},
		{
			name:    "time-sliced MIG devices, mixed",
			spec:    NodeSpec{InstanceType: "p4de.24xlarge", MIG: "all-3g.40gb", Strategy: StrategyMixed, TimeSlicing: &TimeSlicing{Replicas: 2}},
			perNode: map[string]int64{"nvidia.com/mig-3g.40gb": 32},
		},
		{
			name:    "T4 whole GPUs by model and count",
			spec:    NodeSpec{Model: mustModel(t, "t4"), GPUsPerNode: 4},
			perNode: map[string]int64{"nvidia.com/gpu": 4},
			labels:  map[string]string{LabelGPUProduct: "Tesla-T4", LabelKarpenterGPUName: "t4", LabelKarpenterGPUMemory: "16384"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e, err := Expose(c.spec)
			if err != nil {
				t.Fatal(err)
			}
			if c.perGPU != nil && !maps.Equal(e.ResourcesPerGPU, c.perGPU) {
				t.Errorf("per GPU %v, want %v", e.ResourcesPerGPU, c.perGPU)
			}
			if c.perNode != nil && !maps.Equal(e.ResourcesPerNode, c.perNode) {
				t.Errorf("per node %v, want %v", e.ResourcesPerNode, c.perNode)
			}
			for k, v := range c.labels {
				if e.NodeLabels[k] != v {
					t.Errorf("label %s = %q, want %q (all: %v)", k, e.NodeLabels[k], v, e.NodeLabels)
				}
			}
			if _, has := e.NodeLabels[LabelMIGConfig]; has != e.Model.MIGCapable() {
				t.Errorf("mig.config label present=%v on %s", has, e.Model.Name)
			}
		})
	}
}

func TestExposeErrors(t *testing.T) {
	cases := []struct {
		name string
		spec NodeSpec
		want string
	}{
		{"single with a mixed layout", NodeSpec{InstanceType: "p4de.24xlarge", MIG: "all-balanced", Strategy: StrategySingle},
			"nvidia.com/gpu.product=NVIDIA-A100-SXM4-80GB-MIG-INVALID"},
		{"single with MIG on but empty", NodeSpec{InstanceType: "p4de.24xlarge", MIG: "all-enabled", Strategy: StrategySingle},
			"enables MIG with no instances"},
		{"MIG without a strategy", NodeSpec{InstanceType: "p4de.24xlarge", MIG: "all-1g.10gb"}, `use "mixed" or "single"`},
		{"MIG layout on a GPU without MIG", NodeSpec{InstanceType: "g6e.xlarge", MIG: "all-1g.10gb", Strategy: StrategyMixed},
			"L40S does not support MIG"},
		{"layout that does not fit", NodeSpec{InstanceType: "p4de.24xlarge", MIG: "1g.10gb=3,2g.20gb,3g.40gb", Strategy: StrategyMixed},
			"another 1g.10gb does not fit"},
		{"one replica", NodeSpec{InstanceType: "g5.xlarge", TimeSlicing: &TimeSlicing{Replicas: 1}}, "at least 2"},
		{"instance type of another model", NodeSpec{Model: mustModel(t, "h100"), InstanceType: "p4de.24xlarge"},
			"p4de.24xlarge carries A100-SXM4-80GB, not H100-SXM5-80GB"},
		{"wrong GPU count", NodeSpec{InstanceType: "p4de.24xlarge", GPUsPerNode: 4}, "has 8 GPUs, not 4"},
		{"no GPUs", NodeSpec{Model: mustModel(t, "l4")}, "at least 1"},
		{"nothing", NodeSpec{}, "needs a model or an instance type"},
		{"unknown instance type", NodeSpec{InstanceType: "g4ad.xlarge"}, "no GPU model in the catalog"}, // AMD
	}
	for _, c := range cases {
		_, err := Expose(c.spec)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want error containing %q", c.name, err, c.want)
		}
	}
}
