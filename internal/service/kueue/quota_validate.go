package kueue

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
)

// Plan-time copies of the checks Kueue v0.17 makes on quotas. Each cites its source:
// "CRD" is a marker in apis/kueue/v1beta2/*_types.go, "CEL" an XValidation rule there, and
// "webhook" a function in pkg/webhooks (clusterqueue_webhook.go, cohort_webhook.go, common.go).

// fairSharingWeight is a quantity (CRD: int-or-string with the quantity pattern; webhook
// validateResourceQuantity: not negative) that is 0 or more than 10^-9 (webhook
// validateFairSharing).
func fairSharingWeight() []validator.String {
	return []validator.String{framework.Quantity(), fairSharingMinimum{}}
}

type fairSharingMinimum struct{}

func (fairSharingMinimum) Description(context.Context) string {
	return "must be a Kubernetes quantity that is 0 or greater than 1n (10^-9)"
}

func (v fairSharingMinimum) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (fairSharingMinimum) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	s := req.ConfigValue.ValueString()
	if q, err := resource.ParseQuantity(s); err == nil && q.Sign() > 0 && q.Cmp(resource.MustParse("1n")) <= 0 {
		resp.Diagnostics.AddAttributeError(req.Path, "Fair sharing weight too small",
			fmt.Sprintf("Attribute %s: %q must be 0 or greater than 1n (10^-9)", req.Path, s))
	}
}

// validateResourceGroups makes the checks that span several quota attributes. parent is the
// owner's `cohort` (ClusterQueue) or `parent` (Cohort); unknown values skip the checks that need them.
func (o quotaOwner) validateResourceGroups(groups []resourceGroupModel, parent types.String, diags *diag.Diagnostics) {
	root := path.Root("resource_group")
	coveredAt := map[string]path.Path{}
	flavorAt := map[string]path.Path{}
	totalFlavors, totalCovered := 0, 0
	for i, g := range groups {
		gp := root.AtListIndex(i)
		totalFlavors += len(g.Flavors)
		totalCovered += len(g.CoveredResources)
		// webhook validateResourceGroups: a resource is covered once, by one resource group.
		for j, r := range g.CoveredResources {
			if !known(r) {
				continue
			}
			p := gp.AtName("covered_resources").AtListIndex(j)
			if prev, dup := coveredAt[r.ValueString()]; dup {
				diags.AddAttributeError(p, "Resource covered twice", fmt.Sprintf(
					"Attribute %s: %q is already covered at %s: a resource may be covered by one resource group only, once",
					p, r.ValueString(), prev))
				continue
			}
			coveredAt[r.ValueString()] = p
		}
		pairs := 0
		for j, f := range g.Flavors {
			fp := gp.AtName("flavor").AtListIndex(j)
			pairs += len(f.Resources)
			// webhook validateResourceGroups, and CRD listType=map on flavors: a flavor once per queue or cohort.
			if known(f.Name) {
				if prev, dup := flavorAt[f.Name.ValueString()]; dup {
					diags.AddAttributeError(fp.AtName("name"), "Flavor listed twice", fmt.Sprintf(
						"Attribute %s: flavor %q is already listed at %s: each flavor may appear once in a %s",
						fp.AtName("name"), f.Name.ValueString(), prev, o.kind))
				} else {
					flavorAt[f.Name.ValueString()] = fp
				}
			}
			// CEL on ResourceGroup: size(flavor.resources) == size(coveredResources).
			if len(f.Resources) != len(g.CoveredResources) {
				diags.AddAttributeError(fp.AtName("resource"), "Quotas do not match covered resources", fmt.Sprintf(
					"Attribute %s has %d blocks but %s lists %d resources: a flavor needs one resource block per covered resource",
					fp.AtName("resource"), len(f.Resources), gp.AtName("covered_resources"), len(g.CoveredResources)))
			}
			for k, r := range f.Resources {
				o.validateResourceQuota(r, rpath(fp, k), g.CoveredResources, k, parent, diags)
			}
		}
		// webhook validateFlavorResourceCombinations.
		if pairs > maxFlavorResources {
			diags.AddAttributeError(gp, "Too many flavor-resource pairs", fmt.Sprintf(
				"Attribute %s has %d flavor-resource pairs; at most %d are allowed per resource group", gp, pairs, maxFlavorResources))
		}
	}
	// webhook validateTotalFlavors and validateTotalCoveredResources.
	if totalFlavors > maxTotalFlavors {
		diags.AddAttributeError(root, "Too many flavors", fmt.Sprintf(
			"Attribute %s has %d flavors in all; at most %d are allowed", root, totalFlavors, maxTotalFlavors))
	}
	if totalCovered > maxTotalCovered {
		diags.AddAttributeError(root, "Too many covered resources", fmt.Sprintf(
			"Attribute %s covers %d resources in all; at most %d are allowed", root, totalCovered, maxTotalCovered))
	}
}

func rpath(flavor path.Path, k int) path.Path { return flavor.AtName("resource").AtListIndex(k) }

// validateResourceQuota checks one resource block, the k-th of its flavor.
func (o quotaOwner) validateResourceQuota(r resourceQuotaModel, rp path.Path, covered []types.String, k int, parent types.String, diags *diag.Diagnostics) {
	// webhook validateFlavorQuotas: the k-th quota is for the k-th covered resource.
	if k < len(covered) && known(r.Name) && known(covered[k]) && r.Name.ValueString() != covered[k].ValueString() {
		diags.AddAttributeError(rp.AtName("name"), "Quota out of order", fmt.Sprintf(
			"Attribute %s is %q but covered_resources[%d] is %q: each flavor lists its resources in the order of covered_resources",
			rp.AtName("name"), r.Name.ValueString(), k, covered[k].ValueString()))
	}
	// CEL on ClusterQueueSpec ("borrowingLimit must be nil when cohort is empty") and webhook
	// validateLimit (borrowingLimit and lendingLimit, for ClusterQueues and Cohorts).
	if parent.IsNull() {
		for _, l := range []struct {
			name string
			v    types.String
		}{{"borrowing_limit", r.BorrowingLimit}, {"lending_limit", r.LendingLimit}} {
			if !l.v.IsNull() {
				diags.AddAttributeError(rp.AtName(l.name), "Limit without "+o.parentAttr, fmt.Sprintf(
					"Attribute %s may only be set when %s is set: a %s without %s has nothing to borrow from or lend to",
					rp.AtName(l.name), o.parentAttr, o.kind, o.parentAttr))
			}
		}
	}
	// webhook validateLendingLimit (ClusterQueues only).
	if o.lendingWithinNominal && known(r.LendingLimit) && known(r.NominalQuota) {
		lend, err1 := resource.ParseQuantity(r.LendingLimit.ValueString())
		nominal, err2 := resource.ParseQuantity(r.NominalQuota.ValueString())
		if err1 == nil && err2 == nil && lend.Cmp(nominal) > 0 {
			diags.AddAttributeError(rp.AtName("lending_limit"), "Lending limit above nominal quota", fmt.Sprintf(
				"Attribute %s (%s) must be less than or equal to nominal_quota (%s)",
				rp.AtName("lending_limit"), r.LendingLimit.ValueString(), r.NominalQuota.ValueString()))
		}
	}
}

// known reports whether v is neither null nor unknown.
func known(v types.String) bool { return !v.IsNull() && !v.IsUnknown() }
