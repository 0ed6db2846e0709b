package kueue

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// ValidateConfig makes the two quota checks Kueue reports on a parent field, where naming the
// attribute takes the rule itself (see quota_validators.go); the validate engine runs the others.
// Each part is read on its own, so a value not known yet skips only the checks that need it.
func (clusterQueue) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var cohort types.String
	var groups []resourceGroupModel
	if req.Config.GetAttribute(ctx, path.Root("cohort"), &cohort).HasError() ||
		req.Config.GetAttribute(ctx, path.Root("resource_group"), &groups).HasError() {
		return
	}
	validateResourceCounts(groups, &resp.Diagnostics)
	if cohort.IsNull() {
		borrowingWithoutCohort(groups, &resp.Diagnostics)
	}
}

// borrowingWithoutCohort is the CEL rule on ClusterQueueSpec, "borrowingLimit must be nil when
// cohort is empty". Kueue reports it on spec, and the webhook's check with the field's path is
// never reached (the apiserver calls webhooks only on what the CRD accepts); naming the resource
// block that sets a limit takes the rule itself.
func borrowingWithoutCohort(groups []resourceGroupModel, diags *diag.Diagnostics) {
	for i, g := range groups {
		for j, f := range g.Flavors {
			for k, r := range f.Resources {
				if r.BorrowingLimit.IsNull() {
					continue
				}
				p := path.Root("resource_group").AtListIndex(i).AtName("flavor").AtListIndex(j).
					AtName("resource").AtListIndex(k).AtName("borrowing_limit")
				diags.AddAttributeError(p, "Limit without cohort", fmt.Sprintf(
					"Attribute %s may only be set when cohort is set: a ClusterQueue without cohort has nothing to borrow from", p))
			}
		}
	}
}
