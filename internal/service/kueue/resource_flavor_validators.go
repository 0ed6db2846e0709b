package kueue

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/capacity"
)

// gpuLabelValidator refuses, at plan, a node_labels value of mlplatform.io/gpu that no GPU node
// pool writes (e.g. "a100-80gb" for the pools' "a100-sxm4-80gb"): Kueue would admit runs on the
// flavor that no node takes, and they would stay Pending.
type gpuLabelValidator struct{}

func (gpuLabelValidator) Description(context.Context) string {
	return "mlplatform.io/gpu, when given, is a value GPU node pools write on their nodes"
}

func (v gpuLabelValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (gpuLabelValidator) ValidateMap(_ context.Context, req validator.MapRequest, resp *validator.MapResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	value, ok := req.ConfigValue.Elements()[capacity.LabelGPU].(types.String)
	if !ok || value.IsNull() || value.IsUnknown() {
		return
	}
	if err := capacity.CheckGPULabel(value.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path.AtMapKey(capacity.LabelGPU), "Node label no GPU node pool writes",
			err.Error()+". Kueue would admit runs on this flavor that no node takes: they would stay Pending. "+
				"Take the labels from the pool's `supplies[<capacity type>].node_labels`.")
	}
}
