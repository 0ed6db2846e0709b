package karpenter

import (
	"context"
	"fmt"
	"maps"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
)

// ModifyPlan sets tags_all, the EC2 tags to write, and refuses reserved keys that arrive through
// the provider's default_labels.
func (nodeClass) ModifyPlan(ctx context.Context, p *framework.ProviderData, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	var tags, billing types.Map
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("tags"), &tags)...)
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("billing"), &billing)...)
	// A value known only at apply (tags = { owner = terraform_data.x.output }) leaves tags_all unknown.
	if !framework.FullyKnown(ctx, tags) || !framework.FullyKnown(ctx, billing) || p.DefaultLabelsUnknown {
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("tags_all"), types.MapUnknown(types.StringType))...)
		return
	}
	all := maps.Clone(p.DefaultLabels)
	if all == nil {
		all = map[string]string{}
	}
	maps.Copy(all, framework.StringMap(ctx, billing, &resp.Diagnostics))
	maps.Copy(all, framework.StringMap(ctx, tags, &resp.Diagnostics))
	for k := range p.DefaultLabels {
		if why := reservedTag(k); why != "" {
			resp.Diagnostics.AddError("Reserved tag key in default_labels",
				fmt.Sprintf("The provider's default_labels become EC2 tags, and key %q is refused: %s", k, why))
		}
	}
	tagsAll := types.MapNull(types.StringType) // as Flatten reads no tags back
	if len(all) > 0 {
		tagsAll = framework.MapValue(all)
	}
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("tags_all"), tagsAll)...)
}
