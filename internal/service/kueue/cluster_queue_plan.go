package kueue

import (
	"context"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/capacity"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
)

// ModifyPlan records the queue's planned quotas and checks them against the pools and flavors the
// configuration planned before it.
func (clusterQueue) ModifyPlan(ctx context.Context, pd *framework.ProviderData, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	var m clusterQueueModel
	if pd == nil || req.Plan.Raw.IsNull() || resp.Plan.Get(ctx, &m).HasError() || m.Name.IsUnknown() {
		return
	}
	in := plannedCapacityInput(&m)
	planned := pd.PlanQuotas(m.Name.ValueString(), in.quotas)
	in.addPlanned(planned)
	// Only flavors that select a planned pool: a pool of another configuration is known at apply.
	var poolLabels []map[string]string
	for _, p := range in.pools {
		poolLabels = append(poolLabels, p.NodeLabels)
	}
	in.flavors = slices.DeleteFunc(in.flavors, func(f capacity.Flavor) bool { return len(capacity.Select(f, poolLabels)) == 0 })
	resp.Diagnostics.Append(in.check(m.Name.ValueString())...)
}
