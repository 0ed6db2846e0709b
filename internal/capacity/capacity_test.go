package capacity_test

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/capacity"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/gpu"
)

func model(t *testing.T, alias string) *gpu.Model {
	t.Helper()
	m, err := gpu.Lookup(alias)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func pool(name string, spec gpu.NodeSpec, maxGPUs int64) capacity.Pool {
	return capacity.Pool{Name: name, CapacityType: "spot", MaxGPUs: maxGPUs, Node: spec,
		NodeLabels: map[string]string{"karpenter.sh/nodepool": name, "mlplatform.io/gpu": "x", "karpenter.sh/capacity-type": "spot"}}
}

func quota(queue, flavor, res, q string, ref int) capacity.Quota {
	return capacity.Quota{Queue: queue, Flavor: flavor, Resource: res, Nominal: resource.MustParse(q), Ref: ref}
}

func TestCheck(t *testing.T) {
	a100 := model(t, "a100-80gb")
	h100 := model(t, "h100")
	sliced := pool("a100-spot", gpu.NodeSpec{Model: a100, MIG: "all-1g.10gb", Strategy: gpu.StrategyMixed}, 32)
	mixed := pool("mixed-spot", gpu.NodeSpec{Model: a100, MIG: "1g.10gb=3,3g.40gb=1", Strategy: gpu.StrategyMixed}, 8)
	single := pool("single-spot", gpu.NodeSpec{Model: a100, MIG: "all-1g.10gb", Strategy: gpu.StrategySingle}, 4)
	whole := pool("h100-spot", gpu.NodeSpec{Model: h100}, 16)
	sharedH := pool("h100-ts", gpu.NodeSpec{Model: h100, TimeSlicing: &gpu.TimeSlicing{Replicas: 4}}, 2)
	byNodes := pool("h100-nodes", gpu.NodeSpec{InstanceType: "p5.48xlarge"}, 0)
	byNodes.MaxNodes = 2
	unbounded := pool("h100-free", gpu.NodeSpec{Model: h100}, 0)
	sel := func(p capacity.Pool) capacity.Flavor {
		return capacity.Flavor{Name: "f", NodeLabels: map[string]string{"karpenter.sh/nodepool": p.Name}}
	}
	tests := []struct {
		name        string
		flavors     []capacity.Flavor
		pools       []capacity.Pool
		quotas      []capacity.Quota
		errs, warns []string // substrings, one per finding
	}{
		{name: "2g on a pool sliced all-1g.10gb", flavors: []capacity.Flavor{sel(sliced)}, pools: []capacity.Pool{sliced},
			quotas: []capacity.Quota{quota("q", "f", "nvidia.com/mig-2g.20gb", "4", 0)},
			errs:   []string{"never nvidia.com/mig-2g.20gb"}},
		{name: "whole GPUs on a mixed MIG pool", flavors: []capacity.Flavor{sel(mixed)}, pools: []capacity.Pool{mixed},
			quotas: []capacity.Quota{quota("q", "f", "nvidia.com/gpu", "1", 0)},
			errs:   []string{"never nvidia.com/gpu"}},
		{name: "exposed and within supply", flavors: []capacity.Flavor{sel(sliced)}, pools: []capacity.Pool{sliced},
			quotas: []capacity.Quota{quota("q", "f", "nvidia.com/mig-1g.10gb", "224", 0), quota("q", "f", "nvidia.com/gpu", "0", 1),
				quota("q", "f", "cpu", "1000", 2), quota("q", "f", "memory", "100Ti", 3), quota("q", "f", "pods", "9999", 4)}},
		{name: "mixed layout exposes each profile", flavors: []capacity.Flavor{sel(mixed)}, pools: []capacity.Pool{mixed},
			quotas: []capacity.Quota{quota("q", "f", "nvidia.com/mig-3g.40gb", "8", 0), quota("q", "f", "nvidia.com/mig-1g.10gb", "24", 1)}},
		{name: "single strategy exposes nvidia.com/gpu per MIG device", flavors: []capacity.Flavor{sel(single)}, pools: []capacity.Pool{single},
			quotas: []capacity.Quota{quota("q", "f", "nvidia.com/gpu", "29", 0), quota("q", "f", "nvidia.com/mig-1g.10gb", "1", 1)},
			errs:   []string{"never nvidia.com/mig-1g.10gb", "quota 29 for nvidia.com/gpu", "at their limits: 28"}},
		{name: "one queue above the pools names both figures", flavors: []capacity.Flavor{sel(sliced)}, pools: []capacity.Pool{sliced},
			quotas: []capacity.Quota{quota("q", "f", "nvidia.com/mig-1g.10gb", "300", 0)},
			errs:   []string{"quota 300", "at their limits: 224", "This queue alone"}},
		{name: "over-commit by two queues names both figures", flavors: []capacity.Flavor{sel(sliced)}, pools: []capacity.Pool{sliced},
			quotas: []capacity.Quota{quota("q", "f", "nvidia.com/mig-1g.10gb", "200", 0), quota("other", "f", "nvidia.com/mig-1g.10gb", "100", -1)},
			warns:  []string{"add up to 300", "at most 224"}},
		{name: "other queues count towards the sum", flavors: []capacity.Flavor{sel(whole)}, pools: []capacity.Pool{whole},
			quotas: []capacity.Quota{quota("q", "f", "nvidia.com/gpu", "10", 0), quota("other", "f", "nvidia.com/gpu", "10", -1),
				quota("other", "f", "nvidia.com/mig-1g.10gb", "10", -1)},
			warns: []string{"add up to 20"}},
		{name: "time-slicing multiplies", flavors: []capacity.Flavor{sel(sharedH)}, pools: []capacity.Pool{sharedH},
			quotas: []capacity.Quota{quota("q", "f", "nvidia.com/gpu", "8", 0)}},
		{name: "max nodes bounds", flavors: []capacity.Flavor{sel(byNodes)}, pools: []capacity.Pool{byNodes},
			quotas: []capacity.Quota{quota("q", "f", "nvidia.com/gpu", "17", 0)}, errs: []string{"at their limits: 16"}},
		{name: "unbounded pool never warns", flavors: []capacity.Flavor{sel(unbounded)}, pools: []capacity.Pool{unbounded},
			quotas: []capacity.Quota{quota("q", "f", "nvidia.com/gpu", "1000", 0)}},
		{name: "flavor over two pools: exposed by one, sums both",
			flavors: []capacity.Flavor{{Name: "f", NodeLabels: map[string]string{"mlplatform.io/gpu": "x"}}},
			pools:   []capacity.Pool{sliced, whole},
			quotas:  []capacity.Quota{quota("q", "f", "nvidia.com/gpu", "17", 0), quota("q", "f", "nvidia.com/mig-1g.10gb", "100", 1)},
			errs:    []string{"at their limits: 16"}},
		{name: "flavor selecting another NodePool is not checked",
			flavors: []capacity.Flavor{{Name: "f", NodeLabels: map[string]string{"karpenter.sh/nodepool": "elsewhere"}}},
			pools:   []capacity.Pool{sliced}, quotas: []capacity.Quota{quota("q", "f", "nvidia.com/gpu", "100", 0)}},
		{name: "flavor whose pool labels no pool's nodes carry",
			flavors: []capacity.Flavor{{Name: "f", NodeLabels: map[string]string{"mlplatform.io/gpu": "a100-80gb", "karpenter.sh/capacity-type": "spot"}}},
			pools:   []capacity.Pool{sliced, whole},
			quotas:  []capacity.Quota{quota("q", "f", "nvidia.com/gpu", "1", 0), quota("q", "f", "nvidia.com/mig-1g.10gb", "7", 1), quota("q", "f", "cpu", "8", 2)},
			errs:    []string{"selects the nodes labelled karpenter.sh/capacity-type=spot, mlplatform.io/gpu=a100-80gb", "a100-spot: karpenter.sh/capacity-type=spot, mlplatform.io/gpu=x"}},
		{name: "flavor with pool labels on a cluster without pools is not checked",
			flavors: []capacity.Flavor{{Name: "f", NodeLabels: map[string]string{"mlplatform.io/gpu": "a100-80gb"}}},
			quotas:  []capacity.Quota{quota("q", "f", "nvidia.com/gpu", "1", 0)}},
		{name: "flavor without labels is not checked", flavors: []capacity.Flavor{{Name: "f"}},
			pools: []capacity.Pool{sliced}, quotas: []capacity.Quota{quota("q", "f", "nvidia.com/gpu", "100", 0)}},
		{name: "labels gpu.Expose adds select too",
			flavors: []capacity.Flavor{{Name: "f", NodeLabels: map[string]string{"nvidia.com/mig.config": "all-1g.10gb"}}},
			pools:   []capacity.Pool{sliced, whole}, quotas: []capacity.Quota{quota("q", "f", "nvidia.com/gpu", "1", 0)},
			errs: []string{"never nvidia.com/gpu"}},
		{name: "non-NVIDIA extended resources are not checked", flavors: []capacity.Flavor{sel(whole)}, pools: []capacity.Pool{whole},
			quotas: []capacity.Quota{quota("q", "f", "rdma/ib", "8", 0), quota("q", "f", "hugepages-2Mi", "1Gi", 1)}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			errs, warns, err := capacity.Check("q", tc.flavors, tc.pools, tc.quotas)
			if err != nil {
				t.Fatal(err)
			}
			expect(t, "error", errs, tc.errs)
			expect(t, "warning", warns, tc.warns)
		})
	}
}

// expect checks that the findings are as many as want (or one, when want lists several
// substrings of one warning) and contain each substring.
func expect(t *testing.T, what string, got []capacity.Finding, want []string) {
	t.Helper()
	var all []string
	for _, f := range got {
		all = append(all, f.Summary+": "+f.Detail)
	}
	if (len(want) == 0) != (len(got) == 0) {
		t.Fatalf("%ss = %q, want %q", what, all, want)
	}
	text := strings.Join(all, "\n")
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Errorf("%ss = %q, want one containing %q", what, all, w)
		}
	}
}

func TestCheckRefsAndInvalidPool(t *testing.T) {
	a100 := model(t, "a100-80gb")
	p := pool("p", gpu.NodeSpec{Model: a100, MIG: "all-1g.10gb", Strategy: gpu.StrategyMixed}, 1)
	f := capacity.Flavor{Name: "f", NodeLabels: map[string]string{"karpenter.sh/nodepool": "p"}}
	errs, _, err := capacity.Check("q", []capacity.Flavor{f}, []capacity.Pool{p},
		[]capacity.Quota{quota("q", "f", "cpu", "1", 0), quota("q", "f", "nvidia.com/gpu", "1", 7)})
	if err != nil || len(errs) != 1 || errs[0].Ref != 7 || errs[0].Resource != "nvidia.com/gpu" {
		t.Fatalf("errs = %+v, err = %v", errs, err)
	}
	bad := pool("bad", gpu.NodeSpec{Model: a100, MIG: "1g.10gb=3,3g.40gb=1", Strategy: gpu.StrategySingle}, 1)
	if _, _, err := capacity.Check("q", nil, []capacity.Pool{bad}, nil); err == nil || !strings.Contains(err.Error(), "NodePool bad") {
		t.Fatalf("err = %v", err)
	}
}

// CheckGPULabel takes what pools write and refuses the rest, naming the value to write for an alias.
func TestCheckGPULabel(t *testing.T) {
	if err := capacity.CheckGPULabel(capacity.GPULabel(model(t, "a100-80gb"))); err != nil {
		t.Errorf("the a100-80gb pools' own value refused: %v", err)
	}
	for value, want := range map[string]string{
		"a100-80gb":      "a pool of a100-80gb labels them mlplatform.io/gpu=a100-sxm4-80gb",
		"A100-SXM4-80GB": "mlplatform.io/gpu=a100-sxm4-80gb",
		"a200":           `"a200" names no model`,
	} {
		err := capacity.CheckGPULabel(value)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("CheckGPULabel(%q) = %v; want an error containing %q", value, err, want)
		}
	}
}
