package capacity_test

import (
	"testing"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/capacity"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/gpu"
)

// A flavor meant for GPU nodes, given GPU quota, whose labels every pool's nodes contradict, is
// found, with the pools' values of its labels; labels no pool sets, other resources, no quota, no
// pools and a pool whose labels are not all known find nothing.
func TestUnselected(t *testing.T) {
	a100 := model(t, "a100-80gb")
	h100 := model(t, "h100")
	onDemand := func(name string, spec gpu.NodeSpec) capacity.Pool {
		return capacity.Pool{Name: name + "-on-demand", CapacityType: "on-demand", Node: spec, MaxGPUs: 8,
			NodeLabels: map[string]string{"karpenter.sh/nodepool": name + "-on-demand", "karpenter.sh/capacity-type": "on-demand",
				"mlplatform.io/gpu": capacity.GPULabel(spec.Model), "team": "nlp"}}
	}
	sliced := onDemand("a100", gpu.NodeSpec{Model: a100, MIG: "all-1g.10gb", Strategy: gpu.StrategyMixed})
	whole := onDemand("h100", gpu.NodeSpec{Model: h100})
	flavor := func(labels ...string) capacity.Flavor {
		f := capacity.Flavor{Name: "f", NodeLabels: map[string]string{}}
		for i := 0; i < len(labels); i += 2 {
			f.NodeLabels[labels[i]] = labels[i+1]
		}
		return f
	}
	gpus := []capacity.Quota{quota("q", "f", "cpu", "8", 0), quota("q", "f", "nvidia.com/gpu", "0", 1), quota("q", "f", "nvidia.com/mig-1g.10gb", "7", 2)}
	unknown := whole
	unknown.LabelsUnknown = true
	for _, tc := range []struct {
		name   string
		flavor capacity.Flavor
		pools  []capacity.Pool
		quotas []capacity.Quota
		want   []string // substrings of the one finding; none: no finding
	}{
		{name: "spot where the pools run on-demand", flavor: flavor("nvidia.com/gpu.product", "NVIDIA-A100-SXM4-80GB", "karpenter.sh/capacity-type", "spot"),
			pools: []capacity.Pool{sliced, whole}, quotas: gpus,
			want: []string{"ResourceFlavor f selects the nodes labelled karpenter.sh/capacity-type=spot, nvidia.com/gpu.product=NVIDIA-A100-SXM4-80GB",
				"a100-on-demand: karpenter.sh/capacity-type=on-demand, nvidia.com/gpu.product=NVIDIA-A100-SXM4-80GB; h100-on-demand: karpenter.sh/capacity-type=on-demand, nvidia.com/gpu.product=NVIDIA-H100-80GB-HBM3",
				"ClusterQueue q gives it 7 nvidia.com/mig-1g.10gb", `supplies["<capacity type>"].node_labels`}},
		{name: "a MIG config no pool runs", flavor: flavor("mlplatform.io/gpu", "a100-sxm4-80gb", "nvidia.com/mig.config", "all-2g.20gb"),
			pools: []capacity.Pool{sliced, whole}, quotas: gpus, want: []string{"nvidia.com/mig.config=all-1g.10gb"}},
		{name: "supplied by one pool", flavor: flavor("nvidia.com/gpu.product", "NVIDIA-H100-80GB-HBM3", "karpenter.sh/capacity-type", "on-demand"),
			pools: []capacity.Pool{sliced, whole}, quotas: gpus},
		{name: "a pool's own node label selects", flavor: flavor("mlplatform.io/gpu", "h100-sxm5-80gb", "team", "nlp"),
			pools: []capacity.Pool{whole}, quotas: gpus},
		{name: "labels no pool sets may be on its nodes", flavor: flavor("mlplatform.io/gpu", "h100-sxm5-80gb", "topology.kubernetes.io/zone", "us-east-1a"),
			pools: []capacity.Pool{whole}, quotas: gpus},
		{name: "no GPU label: not meant for GPU nodes", flavor: flavor("karpenter.sh/capacity-type", "spot"),
			pools: []capacity.Pool{whole}, quotas: gpus},
		{name: "only CPU quota", flavor: flavor("mlplatform.io/gpu", "b200-180gb"), pools: []capacity.Pool{whole}, quotas: gpus[:1]},
		{name: "zero GPU quota", flavor: flavor("mlplatform.io/gpu", "b200-180gb"), pools: []capacity.Pool{whole}, quotas: gpus[:2]},
		{name: "no pools", flavor: flavor("mlplatform.io/gpu", "b200-180gb"), quotas: gpus},
		{name: "a pool's labels known at apply", flavor: flavor("mlplatform.io/gpu", "b200-180gb"), pools: []capacity.Pool{unknown}, quotas: gpus},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := capacity.Unselected([]capacity.Flavor{tc.flavor}, tc.pools, tc.quotas)
			if err != nil {
				t.Fatal(err)
			}
			expect(t, "finding", got, tc.want)
			if len(got) == 1 && (got[0].Ref != 2 || got[0].Flavor != "f" || got[0].Resource != "nvidia.com/mig-1g.10gb") {
				t.Errorf("finding on %s %s (ref %d); want the first positive GPU quota, f nvidia.com/mig-1g.10gb (ref 2)", got[0].Flavor, got[0].Resource, got[0].Ref)
			}
		})
	}
}
