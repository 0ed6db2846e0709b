package karpenter

import (
	"context"
	"errors"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/mapvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/gpu"
)

// A pool's mig.parts split the GPUs of each node, as mig-parted entries with `devices` lists do
// (NVIDIA's p4de-half-balanced: GPUs 0-3 under all-balanced, 4-7 whole). internal/gpu checks and
// exposes them; this file is their schema and their way in and out of Terraform values.

type migPartModel struct {
	Devices  types.List   `tfsdk:"devices"`
	Profiles types.Map    `tfsdk:"profiles"`
	Config   types.String `tfsdk:"config"`
}

var migPartType = types.ObjectType{AttrTypes: map[string]attr.Type{
	"devices":  types.ListType{ElemType: types.Int64Type},
	"profiles": types.MapType{ElemType: types.Int64Type},
	"config":   types.StringType,
}}

// migPartInput is one part in plain Go: Profiles (nil unless given) or Config.
type migPartInput struct {
	Devices  []int
	Profiles map[string]int
	Config   string
}

func migPartsAttribute() schema.ListNestedAttribute {
	return schema.ListNestedAttribute{Optional: true,
		MarkdownDescription: "Split the GPUs of each node into parts with a MIG config each, as mig-parted's entries with " +
			"`devices` do: e.g. NVIDIA's `p4de-half-balanced`, GPUs 0-3 under `all-balanced` and 4-7 whole " +
			"(`config = \"all-disabled\"`). Every GPU of a node is in exactly one part, so the instance types must share " +
			"one GPU count; needs `strategy = \"mixed\"`. The nodes get the label `nvidia.com/mig.config` with a custom name " +
			"(`custom-0-3-all-balanced-4-7-all-disabled`, see `config_name`) that a " +
			"`mlplatform_mig_config` must define with the same entries. `supplies[*].per_gpu` is then null, as the GPUs " +
			"of a node expose different things: `per_node` counts each part. Karpenter's GPU limit still counts every GPU " +
			"of a node (EC2's count), whole or not, so it believes a node has as many `nvidia.com/gpu` as GPUs.",
		Validators: []validator.List{listvalidator.SizeAtLeast(1)},
		NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
			"devices": schema.ListAttribute{ElementType: types.Int64Type, Required: true,
				MarkdownDescription: "Indices of the node's GPUs in this part, e.g. `[0, 1, 2, 3]`.",
				Validators: []validator.List{listvalidator.SizeAtLeast(1), listvalidator.UniqueValues(),
					listvalidator.ValueInt64sAre(int64validator.AtLeast(0))}},
			"profiles": schema.MapAttribute{ElementType: types.Int64Type, Optional: true,
				MarkdownDescription: "MIG instances per GPU of this part, profile to count, checked by placement. Conflicts with `config`.",
				Validators: []validator.Map{mapvalidator.ValueInt64sAre(int64validator.AtLeast(0)),
					mapvalidator.ExactlyOneOf(path.MatchRelative().AtParent().AtName("config"))}},
			"config": schema.StringAttribute{Optional: true,
				MarkdownDescription: "A mig-parted config name for this part's GPUs (`all-disabled` leaves them whole, " +
					"`all-balanced`, `all-1g.10gb`) or a compact layout (`3g.40gb=2`). Conflicts with `profiles`."},
		}},
	}
}

// migPartsInput reads mig.parts; ok is false while any of it is unknown.
func migPartsInput(ctx context.Context, v types.List) (out []migPartInput, ok bool) {
	if v.IsNull() {
		return nil, true
	}
	if v.IsUnknown() {
		return nil, false
	}
	var parts []migPartModel
	if v.ElementsAs(ctx, &parts, false).HasError() {
		return nil, false
	}
	for _, p := range parts {
		if p.Devices.IsUnknown() || p.Profiles.IsUnknown() || p.Config.IsUnknown() {
			return nil, false
		}
		in := migPartInput{Config: p.Config.ValueString()}
		for _, d := range p.Devices.Elements() {
			n, _ := d.(types.Int64)
			if n.IsUnknown() {
				return nil, false
			}
			in.Devices = append(in.Devices, int(n.ValueInt64()))
		}
		if in.Profiles, ok = int64MapInput(p.Profiles); !ok {
			return nil, false
		}
		out = append(out, in)
	}
	return out, true
}

// int64MapInput reads a map of counts: nil when null, ok false while a count is unknown.
func int64MapInput(v types.Map) (out map[string]int, ok bool) {
	if v.IsNull() {
		return nil, true
	}
	if v.IsUnknown() {
		return nil, false
	}
	out = map[string]int{}
	for k, e := range v.Elements() {
		n, _ := e.(types.Int64)
		if n.IsUnknown() {
			return nil, false
		}
		out[k] = int(n.ValueInt64())
	}
	return out, true
}

// planMIGParts turns the parts into the compact form gpu.Expose reads, for nodes of gpus GPUs;
// the error names the attribute at fault.
func planMIGParts(m *gpu.Model, gpus int, parts []migPartInput) (string, *planError) {
	specs := make([]gpu.Part, len(parts))
	for i, p := range parts {
		specs[i] = gpu.Part{Devices: slices.Sorted(slices.Values(p.Devices)), Config: p.Config}
		if p.Profiles != nil {
			specs[i].Config = gpu.Layout(p.Profiles).String()
			if specs[i].Config == "" {
				specs[i].Config = gpu.ConfigAllEnabled
			}
		}
	}
	if _, err := gpu.ResolveParts(m, gpus, specs); err != nil {
		return "", partError(parts, err)
	}
	return gpu.FormatParts(specs), nil
}

// partError places an error of gpu's parts on the attribute it is about.
func partError(parts []migPartInput, err error) *planError {
	var pe *gpu.PartError
	if !errors.As(err, &pe) || pe.Part < 0 {
		return &planError{[]any{"mig", "parts"}, err.Error()}
	}
	field := string(pe.Field)
	if pe.Field == gpu.PartConfig && parts[pe.Part].Profiles != nil {
		field = "profiles"
	}
	return &planError{[]any{"mig", "parts", pe.Part, field}, pe.Err.Error()}
}

// flattenMIGParts reads parts back from their compact form (the pool's declared layout), each in
// the prior part's spelling when it means the same: profiles, a config name or a compact layout.
func flattenMIGParts(m *gpu.Model, compact string, prior types.List) types.List {
	parts, err := gpu.ParseParts(compact)
	if err != nil {
		return prior
	}
	var priors []migPartModel
	if !prior.IsNull() && !prior.IsUnknown() {
		_ = prior.ElementsAs(context.Background(), &priors, false)
	}
	out := make([]attr.Value, len(parts))
	for i, p := range parts {
		devices := make([]int64, len(p.Devices))
		for j, d := range p.Devices {
			devices[j] = int64(d)
		}
		devicesValue, _ := types.ListValueFrom(context.Background(), types.Int64Type, devices)
		v := migPartModel{Devices: devicesValue, Profiles: types.MapNull(types.Int64Type), Config: types.StringValue(p.Config)}
		if i < len(priors) && samePartConfig(m, priors[i], p.Config) {
			v.Profiles, v.Config = priors[i].Profiles, priors[i].Config
		}
		out[i], _ = types.ObjectValueFrom(context.Background(), migPartType.AttrTypes, v)
	}
	return types.ListValueMust(migPartType, out)
}

// samePartConfig reports whether the prior part gives the config written as config.
func samePartConfig(m *gpu.Model, prior migPartModel, config string) bool {
	written, err := gpu.Resolve(m, config)
	if err != nil {
		return false
	}
	given := prior.Config.ValueString()
	if !prior.Profiles.IsNull() {
		counts, _ := int64MapInput(prior.Profiles)
		if given = gpu.Layout(counts).String(); given == "" {
			given = gpu.ConfigAllEnabled
		}
	}
	was, err := gpu.Resolve(m, given)
	return err == nil && was.Name == written.Name && was.Layout.Equal(written.Layout)
}
