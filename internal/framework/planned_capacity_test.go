package framework_test

import (
	"testing"

	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/capacity"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
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
