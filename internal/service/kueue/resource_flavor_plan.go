package kueue

import (
	"context"
	"encoding/json"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	kueuev1beta2 "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/capacity"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
)

// ModifyPlan records the nodes the flavor selects, for the plan-time checks of the queues that
// name it (cluster_queue_plan.go) and of the templates that use those queues
// (framework/planned_queues.go). It warns when no GPU node pool planned so far supplies the nodes
// while a queue gives the flavor GPU quota (framework/planned_capacity.go).
func (resourceFlavor) ModifyPlan(ctx context.Context, pd *framework.ProviderData, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	var m resourceFlavorModel
	if pd == nil || req.Plan.Raw.IsNull() || resp.Plan.Get(ctx, &m).HasError() || m.Name.IsUnknown() || m.NodeLabels.IsUnknown() {
		return
	}
	labels := map[string]string{}
	if m.NodeLabels.ElementsAs(ctx, &labels, false).HasError() {
		return // an unknown label value
	}
	for _, f := range pd.PlanFlavor(capacity.Flavor{Name: m.Name.ValueString(), NodeLabels: labels}) {
		resp.Diagnostics.AddAttributeWarning(path.Root("node_labels"), f.Summary, "Attribute node_labels: "+f.Detail+framework.UnselectedAtPlan)
	}
	if f, ok := plannedFlavor(ctx, &m, resp); ok {
		for _, r := range pd.PlanQueueFlavor(f) {
			r.AddTo(&resp.Diagnostics)
		}
	}
}

// plannedFlavor is the ResourceFlavor the plan would write, for the templates' plan-time checks;
// ok is false while a taint or toleration is not known.
func plannedFlavor(ctx context.Context, m *resourceFlavorModel, resp *resource.ModifyPlanResponse) (*kueuev1beta2.ResourceFlavor, bool) {
	for _, attr := range []string{"node_taints", "tolerations"} {
		var l types.List
		if resp.Plan.GetAttribute(ctx, path.Root(attr), &l).HasError() || !framework.FullyKnown(ctx, l) {
			return nil, false
		}
	}
	ac, diags := resourceFlavor{}.Expand(ctx, m, framework.ObjectMeta{Name: m.Name.ValueString()})
	f := &kueuev1beta2.ResourceFlavor{}
	return f, !diags.HasError() && convert(ac, f)
}

// convert decodes an apply configuration into upstream's typed object, as the apiserver would
// store it (before defaulting).
func convert(ac, into any) bool {
	b, err := json.Marshal(ac)
	return err == nil && json.Unmarshal(b, into) == nil
}
