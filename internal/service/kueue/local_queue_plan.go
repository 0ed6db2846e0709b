package kueue

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
)

// ModifyPlan records the LocalQueue and refuses a training template of the configuration whose
// queue looks like a misspelling of it (framework/local_queues.go), or that the queue, as planned,
// could never admit (framework/planned_queues.go).
func (localQueue) ModifyPlan(ctx context.Context, pd *framework.ProviderData, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	var m localQueueModel
	if pd == nil || req.Plan.Raw.IsNull() || resp.Plan.Get(ctx, &m).HasError() || m.Name.IsUnknown() || m.Namespace.IsUnknown() {
		return
	}
	ns := m.Namespace.ValueString()
	for _, u := range pd.DeclareLocalQueues(ns, []string{m.Name.ValueString()}) {
		resp.Diagnostics.AddAttributeError(path.Root("name"), framework.MisspelledQueueSummary, framework.MisspelledQueueDetail(ns, u))
	}
	if m.ClusterQueue.IsUnknown() {
		return
	}
	for _, r := range pd.PlanLocalQueues(ns, map[string]string{m.Name.ValueString(): m.ClusterQueue.ValueString()}) {
		r.AddTo(&resp.Diagnostics)
	}
}
