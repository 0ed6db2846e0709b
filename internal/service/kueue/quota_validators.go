package kueue

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
)

// Kueue's rules on quotas are run at plan by the validate engine (its CRD, CEL rules and webhooks,
// see framework.validateObjects). What stays here is what the engine cannot name an attribute for
// without the rule's own logic, or does not run.

// fairSharingWeight is a LocalQueue's weight: a quantity, 0 or more than 10^-9. Kueue's webhook
// makes that check on ClusterQueue and Cohort weights (validateFairSharing), which the engine
// runs; Kueue v0.19.2 has no LocalQueue webhook, so the engine would pass it.
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
	if q, err := framework.ParseQuantity(s); err == nil && q.Sign() > 0 && atMostOneNano(q) {
		resp.Diagnostics.AddAttributeError(req.Path, "Fair sharing weight too small",
			fmt.Sprintf("Attribute %s: %q must be 0 or greater than 1n (10^-9)", req.Path, s))
	}
}

// atMostOneNano compares exactly only near 10^-9: an exact comparison of a quantity with a huge
// exponent (`1e40980098`) multiplies out its digits and takes minutes.
func atMostOneNano(q resource.Quantity) bool {
	switch f := q.AsApproximateFloat64(); {
	case f <= 0.5e-9:
		return true
	case f >= 2e-9:
		return false
	}
	return q.Cmp(resource.MustParse("1n")) <= 0
}

// validateResourceCounts is the CEL rule on ResourceGroup, size(flavor.resources) ==
// size(coveredResources). Kueue reports it on the resource group; naming the flavor whose
// resource blocks are off takes the rule itself.
func validateResourceCounts(groups []resourceGroupModel, diags *diag.Diagnostics) {
	for i, g := range groups {
		gp := path.Root("resource_group").AtListIndex(i)
		for j, f := range g.Flavors {
			if len(f.Resources) != len(g.CoveredResources) {
				rp := gp.AtName("flavor").AtListIndex(j).AtName("resource")
				diags.AddAttributeError(rp, "Quotas do not match covered resources", fmt.Sprintf(
					"Attribute %s has %d blocks but %s lists %d resources: a flavor needs one resource block per covered resource",
					rp, len(f.Resources), gp.AtName("covered_resources"), len(g.CoveredResources)))
			}
		}
	}
}
