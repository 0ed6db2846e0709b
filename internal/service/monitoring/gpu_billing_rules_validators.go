package monitoring

import (
	"context"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/prometheus/common/model"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
)

// promDurationValidator accepts what Prometheus accepts as a duration (`1h30m`, `2d`), as
// prometheus-operator's Duration type and Prometheus' rule loader parse it.
type promDurationValidator struct{}

func promDuration() validator.String { return promDurationValidator{} }

func (promDurationValidator) Description(context.Context) string {
	return "must be a Prometheus duration such as `30s`, `10m` or `1h30m`"
}

func (v promDurationValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (promDurationValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	s := req.ConfigValue.ValueString()
	d, err := model.ParseDuration(s)
	switch {
	case err != nil:
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid Attribute Value",
			fmt.Sprintf("Attribute %s: %q is not a Prometheus duration such as `30s`, `10m` or `1h30m`: %s", req.Path, s, err))
	case d == 0:
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid Attribute Value", fmt.Sprintf("Attribute %s must be longer than 0", req.Path))
	case time.Duration(d)%time.Second != 0:
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid Attribute Value",
			fmt.Sprintf("Attribute %s: %q is not a whole number of seconds", req.Path, s))
	}
}

// promLabelNameValidator accepts a Prometheus label name that every Prometheus accepts
// (model.LabelName's legacy form: letters, digits and underscores, not starting with a digit).
type promLabelNameValidator struct{}

func promLabelName() validator.String { return promLabelNameValidator{} }

var legacyLabelName = regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_]*$`)

func (promLabelNameValidator) Description(context.Context) string {
	return "must be a Prometheus label name (letters, digits and `_`, not starting with a digit)"
}

func (v promLabelNameValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (promLabelNameValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if s := req.ConfigValue.ValueString(); !legacyLabelName.MatchString(s) {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid Attribute Value",
			fmt.Sprintf("Attribute %s: %q is not a Prometheus label name (letters, digits and `_`, not starting with a digit)", req.Path, s))
	}
}

// poolsValidator checks each known supply of pools against the GPU catalog and the labels GPU
// node pools write.
type poolsValidator struct{}

func (poolsValidator) Description(context.Context) string {
	return "each supply must be a GPU node pool's, of a GPU model the provider knows"
}

func (v poolsValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (poolsValidator) ValidateMap(ctx context.Context, req validator.MapRequest, resp *validator.MapResponse) {
	checkPools(ctx, req.ConfigValue, req.Path, &resp.Diagnostics)
}

// checkPools reports, on the path of each supply, what checkSupply finds; supplies not known
// yet are left for apply.
func checkPools(ctx context.Context, pools types.Map, p path.Path, diags *diag.Diagnostics) {
	if pools.IsNull() || pools.IsUnknown() {
		return
	}
	var raw map[string]types.Map
	if diags.Append(pools.ElementsAs(ctx, &raw, false)...); diags.HasError() {
		return
	}
	for _, pool := range slices.Sorted(maps.Keys(raw)) {
		if raw[pool].IsNull() || raw[pool].IsUnknown() {
			continue
		}
		supplies, ok := suppliesOf(ctx, raw[pool], diags)
		if !ok {
			return
		}
		for _, ct := range slices.Sorted(maps.Keys(supplies)) {
			if refuseNullElements(ctx, supplies[ct], p.AtMapKey(pool).AtMapKey(ct), diags) {
				continue
			}
			s, known := supplyOf(ctx, supplies[ct], diags)
			if !known {
				continue
			}
			if _, err := checkSupply(pool, ct, s); err != nil {
				at := p.AtMapKey(pool).AtMapKey(ct)
				diags.AddAttributeError(at, "Invalid Attribute Value", fmt.Sprintf("Attribute %s: %s", at, err.Msg))
			}
		}
	}
}

// refuseNullElements reports, on its path, each map of supply s (nil: not known yet) with a null
// element, which pools' own validators cannot reach inside the object, and whether there was one.
func refuseNullElements(ctx context.Context, s *supplyModel, at path.Path, diags *diag.Diagnostics) bool {
	if s == nil {
		return false
	}
	refused := false
	for _, m := range []struct {
		name string
		v    types.Map
	}{{"node_labels", s.NodeLabels}, {"per_gpu", s.PerGPU}, {"hourly_price", s.HourlyPrice}} {
		var resp validator.MapResponse
		framework.NoNullElements().ValidateMap(ctx, validator.MapRequest{Path: at.AtName(m.name), ConfigValue: m.v}, &resp)
		diags.Append(resp.Diagnostics...)
		refused = refused || resp.Diagnostics.HasError()
	}
	return refused
}
