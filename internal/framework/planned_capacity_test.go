package framework_test

import (
	"testing"

	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/capacity"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/gpu"
)

// A queue sees the pools and flavors planned before it and the other queues' latest planned
// quotas (not its own, and not an older plan of another), so that an over-commit warning sums
// what the configuration plans, whichever queue Terraform plans last.
func TestPlanQuotas(t *testing.T) {
	var pd framework.ProviderData
	quota := func(queue, n string) capacity.Quota {
		return capacity.Quota{Queue: queue, Flavor: "f", Resource: "nvidia.com/gpu", Nominal: resource.MustParse(n), Ref: 0}
	}
	pd.PlanPools([]capacity.Pool{{Name: "p-on-demand", MaxGPUs: 8}})
	pd.PlanFlavor(capacity.Flavor{Name: "f", NodeLabels: map[string]string{"mlplatform.io/gpu": "h100-sxm5-80gb"}})

	first := pd.PlanQuotas("a", []capacity.Quota{quota("a", "32")})
	if len(first.Quotas) != 0 || len(first.Pools) != 1 || first.Flavors["f"].NodeLabels["mlplatform.io/gpu"] != "h100-sxm5-80gb" {
		t.Fatalf("first queue planned: %+v", first)
	}
	pd.PlanQuotas("a", []capacity.Quota{quota("a", "15")}) // planned again, lowered
	second := pd.PlanQuotas("b", []capacity.Quota{quota("b", "32")})
	got := second.Quotas["a"]
	if len(second.Quotas) != 1 || len(got) != 1 || got[0].Nominal.String() != "15" || got[0].Ref != -1 {
		t.Fatalf("second queue sees %+v, want a's latest quota 15 with Ref -1", second.Quotas)
	}
}

// A flavor that no planned pool supplies, with GPU quota, is reported once, by whichever of the
// flavor, its queue and the pool Terraform plans last, in every order; never when the pool
// supplies it, whatever the order.
func TestPlanFlavor_unselectedSaidOnceByWhicheverPlansLast(t *testing.T) {
	a100, err := gpu.Lookup("a100-80gb")
	if err != nil {
		t.Fatal(err)
	}
	pool := capacity.Pool{Name: "a100-on-demand", CapacityType: "on-demand", MaxGPUs: 8, Node: gpu.NodeSpec{Model: a100},
		NodeLabels: map[string]string{"mlplatform.io/gpu": "a100-sxm4-80gb", "karpenter.sh/capacity-type": "on-demand"}}
	for _, capacityType := range []string{"spot", "on-demand"} {
		stray := capacityType == "spot"
		flavor := capacity.Flavor{Name: "f", NodeLabels: map[string]string{"mlplatform.io/gpu": "a100-sxm4-80gb", "karpenter.sh/capacity-type": capacityType}}
		quotas := []capacity.Quota{{Queue: "q", Flavor: "f", Resource: "cpu", Nominal: resource.MustParse("8"), Ref: 0},
			{Queue: "q", Flavor: "f", Resource: "nvidia.com/gpu", Nominal: resource.MustParse("4"), Ref: 1}}
		steps := map[string]func(*framework.ProviderData) []capacity.Finding{
			"pool":   func(pd *framework.ProviderData) []capacity.Finding { return pd.PlanPools([]capacity.Pool{pool}) },
			"flavor": func(pd *framework.ProviderData) []capacity.Finding { return pd.PlanFlavor(flavor) },
			"queue":  func(pd *framework.ProviderData) []capacity.Finding { return pd.PlanQuotas("q", quotas).Unselected },
		}
		for _, order := range permutations([]string{"pool", "flavor", "queue"}) {
			var pd framework.ProviderData
			for i, step := range order {
				found := steps[step](&pd)
				want := 0
				if stray && i == len(order)-1 {
					want = 1
				}
				if len(found) != want {
					t.Fatalf("%s flavor, order %v: %s (step %d) found %+v; want %d", capacityType, order, step, i, found, want)
				}
				if want == 1 && step == "queue" && found[0].Ref != 1 {
					t.Errorf("order %v: the queue's finding is on quota %d; want its GPU quota, 1", order, found[0].Ref)
				}
			}
			// A second queue's quota on the flavor says nothing more.
			if found := pd.PlanQuotas("other", quotas).Unselected; len(found) != 0 {
				t.Fatalf("%s flavor, order %v: a second queue found %+v again", capacityType, order, found)
			}
		}
	}
}
