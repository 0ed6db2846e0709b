package kueue

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	kueuev1beta2 "sigs.k8s.io/kueue/apis/kueue/v1beta2"
)

// Plan-time checks of a ClusterQueue that span attributes. Single-attribute rules (enums, sizes,
// names, quantities) are attribute validators in cluster_queue_schema.go and quota.go.

// ValidateConfig checks the quotas against each other and against `cohort`. Each part is read
// on its own, so a value not known yet (e.g. blocks from a for_each over an unknown value) skips
// only the checks that need it.
func (clusterQueue) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var cohort types.String
	var groups []resourceGroupModel
	if req.Config.GetAttribute(ctx, path.Root("cohort"), &cohort).HasError() ||
		req.Config.GetAttribute(ctx, path.Root("resource_group"), &groups).HasError() {
		return
	}
	clusterQueueQuota.validateResourceGroups(groups, cohort, &resp.Diagnostics)

	// CRD listType=map with listMapKey=name on admissionChecksStrategy.admissionChecks: unique names.
	var checks []admissionCheckStrategyModel
	if req.Config.GetAttribute(ctx, path.Root("admission_checks_strategy"), &checks).HasError() {
		return
	}
	seen := map[string]int{}
	for i, c := range checks {
		if !known(c.Name) {
			continue
		}
		p := path.Root("admission_checks_strategy").AtListIndex(i).AtName("name")
		if j, dup := seen[c.Name.ValueString()]; dup {
			resp.Diagnostics.AddAttributeError(p, "Duplicate admission check", fmt.Sprintf(
				"Attribute %s: %q is already listed at admission_checks_strategy[%d]; each check may be listed once", p, c.Name.ValueString(), j))
			continue
		}
		seen[c.Name.ValueString()] = i
	}
}

// preemptionRule is the CEL rule on ClusterQueuePreemption and webhook validatePreemption:
// reclaimWithinCohort=Never cannot go with borrowWithinCohort.policy other than Never. Unset
// values are Kueue's defaults (Never).
type preemptionRule struct{}

func (preemptionRule) Description(context.Context) string {
	return "reclaim_within_cohort = \"Never\" cannot be combined with borrow_within_cohort.policy other than \"Never\""
}
func (r preemptionRule) MarkdownDescription(ctx context.Context) string { return r.Description(ctx) }

func (preemptionRule) ValidateObject(ctx context.Context, req validator.ObjectRequest, resp *validator.ObjectResponse) {
	var p preemptionModel
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() ||
		req.ConfigValue.As(ctx, &p, basetypes.ObjectAsOptions{UnhandledUnknownAsEmpty: true}).HasError() || p.BorrowWithinCohort == nil {
		return
	}
	reclaim, policy := p.ReclaimWithinCohort, p.BorrowWithinCohort.Policy
	if reclaim.IsUnknown() || policy.IsUnknown() {
		return
	}
	never := string(kueuev1beta2.PreemptionPolicyNever)
	if (reclaim.IsNull() || reclaim.ValueString() == never) && !policy.IsNull() && policy.ValueString() != never {
		bp := req.Path.AtName("borrow_within_cohort").AtName("policy")
		resp.Diagnostics.AddAttributeError(bp, "Invalid preemption", fmt.Sprintf(
			"Attribute %s is %q, which needs %s other than \"Never\" (unset means \"Never\")",
			bp, policy.ValueString(), req.Path.AtName("reclaim_within_cohort")))
	}
}

// fungibilityRule is the CEL rule on FlavorFungibility and webhook validateFlavorFungibility:
// preference only with whenCanBorrow and whenCanPreempt both TryNextFlavor. Unset values are
// Kueue's defaults (MayStopSearch and TryNextFlavor).
type fungibilityRule struct{}

func (fungibilityRule) Description(context.Context) string {
	return "preference needs when_can_borrow and when_can_preempt both \"TryNextFlavor\""
}
func (r fungibilityRule) MarkdownDescription(ctx context.Context) string { return r.Description(ctx) }

func (fungibilityRule) ValidateObject(ctx context.Context, req validator.ObjectRequest, resp *validator.ObjectResponse) {
	var f flavorFungibilityModel
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() ||
		req.ConfigValue.As(ctx, &f, basetypes.ObjectAsOptions{}).HasError() || f.Preference.IsNull() {
		return
	}
	if f.WhenCanBorrow.IsUnknown() || f.WhenCanPreempt.IsUnknown() {
		return
	}
	try := string(kueuev1beta2.TryNextFlavor)
	borrow := f.WhenCanBorrow.ValueString()
	if f.WhenCanBorrow.IsNull() {
		borrow = string(kueuev1beta2.MayStopSearch)
	}
	preempt := f.WhenCanPreempt.ValueString()
	if f.WhenCanPreempt.IsNull() {
		preempt = try
	}
	if borrow != try || preempt != try {
		p := req.Path.AtName("preference")
		resp.Diagnostics.AddAttributeError(p, "Invalid flavor fungibility", fmt.Sprintf(
			"Attribute %s may only be set when when_can_borrow and when_can_preempt are both \"TryNextFlavor\" "+
				"(they are %q and %q; unset when_can_borrow means \"MayStopSearch\")", p, borrow, preempt))
	}
}
