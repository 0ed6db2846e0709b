package karpenter

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
)

// ValidateConfig checks the GPU model, instance types and MIG or time-slicing setup through
// internal/gpu, before anything is planned.
func (gpuNodePool) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var m gpuNodePoolModel
	if req.Config.Get(ctx, &m).HasError() {
		return
	}
	if !m.Billing.IsNull() && len(m.Billing.Elements()) > 0 && !m.NodeClass.IsUnknown() && m.NodeClass.Equal(m.Name) {
		resp.Diagnostics.AddAttributeError(path.Root("node_class"), "Invalid GPU node pool", copyOverwritesNodeClass(m.Name.ValueString()))
	}
	in, ok := m.input(ctx)
	if !ok {
		return
	}
	if _, perr := planPool(in); perr != nil {
		p := attrPath(perr.Path)
		resp.Diagnostics.AddAttributeError(p, "Invalid GPU node pool", fmt.Sprintf("Attribute %s: %s", p, perr.Msg))
	}
}

func attrPath(steps []any) path.Path {
	p := path.Empty()
	for _, s := range steps {
		switch v := s.(type) {
		case string:
			p = p.AtName(v)
		case int:
			p = p.AtListIndex(v)
		}
	}
	return p
}
