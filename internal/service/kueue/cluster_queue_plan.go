package kueue

import (
	"context"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	kueuev1beta2 "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/capacity"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
)

// ModifyPlan records the queue's planned quotas and checks them against the pools and flavors the
// configuration planned before it, warns about a flavor it gives GPU quota that no planned pool
// supplies, and records the queue for the plan-time checks of the templates that use it
// (framework/planned_queues.go).
func (clusterQueue) ModifyPlan(ctx context.Context, pd *framework.ProviderData, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	var m clusterQueueModel
	if pd == nil || req.Plan.Raw.IsNull() || resp.Plan.Get(ctx, &m).HasError() || m.Name.IsUnknown() {
		return
	}
	in := plannedCapacityInput(&m)
	planned := pd.PlanQuotas(m.Name.ValueString(), in.quotas)
	for _, f := range planned.Unselected {
		detail := f.Detail + framework.UnselectedAtPlan
		if f.Ref < 0 {
			resp.Diagnostics.AddWarning(f.Summary, detail)
			continue
		}
		resp.Diagnostics.AddAttributeWarning(in.paths[f.Ref], f.Summary, "Attribute "+in.paths[f.Ref].String()+": "+detail)
	}
	in.addPlanned(planned)
	// Only flavors that select a planned pool: a pool of another configuration is known at apply.
	var poolLabels []map[string]string
	for _, p := range in.pools {
		poolLabels = append(poolLabels, p.NodeLabels)
	}
	in.flavors = slices.DeleteFunc(in.flavors, func(f capacity.Flavor) bool { return len(capacity.Select(f, poolLabels)) == 0 })
	resp.Diagnostics.Append(in.check(m.Name.ValueString())...)
	if cq, ok := plannedClusterQueue(ctx, &m, resp); ok {
		for _, r := range pd.PlanClusterQueue(cq) {
			r.AddTo(&resp.Diagnostics)
		}
	}
}

// plannedClusterQueue is what Kueue judges a workload by in the ClusterQueue the plan would write
// (its cohort and resource groups), for the templates' plan-time checks; ok is false while either
// is not known.
func plannedClusterQueue(ctx context.Context, m *clusterQueueModel, resp *resource.ModifyPlanResponse) (*kueuev1beta2.ClusterQueue, bool) {
	var groups types.List
	if m.Cohort.IsUnknown() || resp.Plan.GetAttribute(ctx, path.Root("resource_group"), &groups).HasError() || !framework.FullyKnown(ctx, groups) {
		return nil, false
	}
	rgs, diags := expandResourceGroups(m.ResourceGroups)
	cq := &kueuev1beta2.ClusterQueue{}
	if diags.HasError() || !convert(rgs, &cq.Spec.ResourceGroups) {
		return nil, false
	}
	cq.Name, cq.Spec.CohortName = m.Name.ValueString(), kueuev1beta2.CohortReference(m.Cohort.ValueString())
	return cq, true
}
