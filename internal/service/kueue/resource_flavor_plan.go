package kueue

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/capacity"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
)

// ModifyPlan records the nodes the flavor selects, for the plan-time checks of the queues that
// name it (cluster_queue_capacity.go).
func (resourceFlavor) ModifyPlan(ctx context.Context, pd *framework.ProviderData, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	var m resourceFlavorModel
	if pd == nil || req.Plan.Raw.IsNull() || resp.Plan.Get(ctx, &m).HasError() || m.Name.IsUnknown() || m.NodeLabels.IsUnknown() {
		return
	}
	labels := map[string]string{}
	if m.NodeLabels.ElementsAs(ctx, &labels, false).HasError() {
		return // an unknown label value
	}
	pd.PlanFlavor(capacity.Flavor{Name: m.Name.ValueString(), NodeLabels: labels})
}
