package nvidia

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/datasourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/mapvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/gpu"
)

var (
	_ datasource.DataSourceWithConfigure        = &migLayoutDataSource{}
	_ datasource.DataSourceWithValidateConfig   = &migLayoutDataSource{}
	_ datasource.DataSourceWithConfigValidators = &migLayoutDataSource{}
)

// strategies are the MIG strategies a layout can be exposed under.
var strategies = []string{string(gpu.StrategyMixed), string(gpu.StrategySingle)}

type migLayoutModel struct {
	GPU              types.String `tfsdk:"gpu"`
	InstanceType     types.String `tfsdk:"instance_type"`
	GPUsPerNode      types.Int64  `tfsdk:"gpus_per_node"`
	Profiles         types.Map    `tfsdk:"profiles"`
	Config           types.String `tfsdk:"config"`
	Strategy         types.String `tfsdk:"strategy"`
	Model            types.String `tfsdk:"model"`
	ValidConfigName  types.String `tfsdk:"valid_config_name"`
	CustomConfig     types.Bool   `tfsdk:"custom_config"`
	Layout           types.Map    `tfsdk:"layout"`
	ResourcesPerGPU  types.Map    `tfsdk:"resources_per_gpu"`
	ResourcesPerNode types.Map    `tfsdk:"resources_per_node"`
	NodeLabels       types.Map    `tfsdk:"node_labels"`
}

type migLayoutDataSource struct{ framework.DataSourceBase }

// NewMigLayoutDataSource is data.mlplatform_mig_layout.
func NewMigLayoutDataSource() datasource.DataSource { return &migLayoutDataSource{} }

func (d *migLayoutDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_mig_layout"
}

func (d *migLayoutDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Checks a MIG layout against a GPU model by placement and tells what a node then exposes: " +
			"the mig-parted config name for the `nvidia.com/mig.config` label, the extended resources per GPU and per " +
			"node, and the labels that select such a node. An invalid layout fails the plan with the reason and the " +
			"nearest valid layouts. It needs no cluster.",
		Attributes: map[string]schema.Attribute{
			"gpu": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "The GPU model, by any name `data.mlplatform_gpu` accepts. Optional with " +
					"`instance_type`, which then must carry this model.",
			},
			"instance_type": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "An AWS instance type (e.g. `p4de.24xlarge`); sets the model and `gpus_per_node`.",
			},
			"gpus_per_node": schema.Int64Attribute{
				Optional: true,
				Computed: true,
				MarkdownDescription: "GPUs per node, when not given by `instance_type` (conflicts with it). Default 1; " +
					"with `instance_type`, that type's GPU count.",
				Validators: []validator.Int64{int64validator.AtLeast(1)},
			},
			"profiles": schema.MapAttribute{
				ElementType: types.Int64Type,
				Optional:    true,
				MarkdownDescription: "The layout of every GPU: MIG profile (`1g.10gb`, `1g.10gb+me`) to instances per GPU. " +
					"Exactly one of `profiles` and `config`; `{}` turns MIG on with no instances (`all-enabled`).",
				Validators: []validator.Map{mapvalidator.ValueInt64sAre(int64validator.AtLeast(0)), framework.NoNullElements()},
			},
			"config": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "A mig-parted config name instead of `profiles`: `all-disabled`, `all-enabled`, " +
					"`all-<profile>` (e.g. `all-1g.10gb`, the profile's maximum count) or `all-balanced`, resolved " +
					"for the model.",
			},
			"strategy": schema.StringAttribute{
				Optional: true,
				Computed: true,
				MarkdownDescription: "The GPU Operator's MIG strategy: " + backticked(strategies) + " (default `mixed`). " +
					"`mixed` advertises `nvidia.com/mig-<profile>` per profile; `single` advertises MIG devices as " +
					"`nvidia.com/gpu` and needs one profile per GPU.",
				Validators: []validator.String{stringvalidator.OneOf(strategies...)},
			},
			"model": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "The model's canonical name, e.g. `A100-SXM4-80GB`.",
			},
			"valid_config_name": schema.StringAttribute{
				Computed: true,
				MarkdownDescription: "The mig-parted config name for the layout, to put on the node label " +
					"`nvidia.com/mig.config`: a default name (`all-1g.10gb`, `all-balanced`) when the layout is one, else " +
					"a deterministic `custom-...` name that must be defined in an `mlplatform_mig_config`.",
			},
			"custom_config": schema.BoolAttribute{
				Computed: true,
				MarkdownDescription: "True when `valid_config_name` is not in mig-parted's default config and must be " +
					"defined in an `mlplatform_mig_config` (use `layout` as its `mig_devices`).",
			},
			"layout": schema.MapAttribute{
				ElementType:         types.Int64Type,
				Computed:            true,
				MarkdownDescription: "The resolved layout of one GPU: profile to instances, as `mig_devices` takes it.",
			},
			"resources_per_gpu": schema.MapAttribute{
				ElementType:         types.Int64Type,
				Computed:            true,
				MarkdownDescription: "Extended resources one GPU exposes, e.g. `{\"nvidia.com/mig-1g.10gb\" = 7}`.",
			},
			"resources_per_node": schema.MapAttribute{
				ElementType:         types.Int64Type,
				Computed:            true,
				MarkdownDescription: "Extended resources a node exposes (`resources_per_gpu` times `gpus_per_node`): the figures for Kueue quotas.",
			},
			"node_labels": schema.MapAttribute{
				ElementType: types.StringType,
				Computed:    true,
				MarkdownDescription: "Labels that such a node carries and that select it: `nvidia.com/mig.config`, " +
					"`nvidia.com/gpu.product` and, on AWS, `karpenter.k8s.aws/instance-gpu-name` and `instance-gpu-memory`.",
			},
		},
	}
}

func (d *migLayoutDataSource) ConfigValidators(context.Context) []datasource.ConfigValidator {
	return []datasource.ConfigValidator{
		datasourcevalidator.ExactlyOneOf(path.MatchRoot("profiles"), path.MatchRoot("config")),
		datasourcevalidator.AtLeastOneOf(path.MatchRoot("gpu"), path.MatchRoot("instance_type")),
		datasourcevalidator.Conflicting(path.MatchRoot("instance_type"), path.MatchRoot("gpus_per_node")),
	}
}

// ValidateConfig makes the whole check at plan time once every input is known, so that an
// invalid layout is an error on the attribute that holds it.
func (d *migLayoutDataSource) ValidateConfig(ctx context.Context, req datasource.ValidateConfigRequest, resp *datasource.ValidateConfigResponse) {
	var m migLayoutModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() || m.Profiles.IsNull() == m.Config.IsNull() {
		return // ExactlyOneOf reports it
	}
	for _, v := range []attr.Value{m.GPU, m.InstanceType, m.GPUsPerNode, m.Profiles, m.Config, m.Strategy} {
		if v.IsUnknown() {
			return
		}
	}
	_, diags := m.expose(ctx)
	resp.Diagnostics.Append(diags...)
}

func (d *migLayoutDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m migLayoutModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	e, diags := m.expose(ctx)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	layout := map[string]int64{}
	for p, n := range e.MIG.Layout {
		layout[p] = int64(n)
	}
	m.Strategy = types.StringValue(string(e.Strategy))
	m.GPUsPerNode = types.Int64Value(int64(e.GPUsPerNode))
	m.Model = types.StringValue(e.Model.Name)
	m.ValidConfigName = types.StringValue(e.MIG.Name)
	m.CustomConfig = types.BoolValue(e.MIG.Custom)
	m.Layout = framework.Int64MapValue(layout)
	m.ResourcesPerGPU = framework.Int64MapValue(e.ResourcesPerGPU)
	m.ResourcesPerNode = framework.Int64MapValue(e.ResourcesPerNode)
	m.NodeLabels = framework.MapValue(e.NodeLabels)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// expose resolves the inputs with internal/gpu, reporting each failure on the attribute that
// caused it.
func (m *migLayoutModel) expose(ctx context.Context) (*gpu.Exposure, diag.Diagnostics) {
	var diags diag.Diagnostics
	fail := func(attribute, summary string, err error) (*gpu.Exposure, diag.Diagnostics) {
		diags.AddAttributeError(path.Root(attribute), summary, fmt.Sprintf("Attribute %s: %s", attribute, err))
		return nil, diags
	}
	spec := gpu.NodeSpec{Strategy: gpu.StrategyMixed, InstanceType: m.InstanceType.ValueString(), GPUsPerNode: 1}
	if !m.Strategy.IsNull() {
		spec.Strategy = gpu.Strategy(m.Strategy.ValueString())
	}
	if !m.GPUsPerNode.IsNull() {
		spec.GPUsPerNode = int(m.GPUsPerNode.ValueInt64())
	}
	if !m.GPU.IsNull() {
		model, err := gpu.Lookup(m.GPU.ValueString())
		if err != nil {
			return fail("gpu", "Unknown GPU model", err)
		}
		spec.Model = model
	}
	if spec.InstanceType != "" {
		spec.GPUsPerNode = 0
		model, _, err := gpu.ModelForInstanceType(spec.InstanceType)
		if err == nil && spec.Model != nil && spec.Model != model {
			err = fmt.Errorf("instance type %s carries %s, not %s", spec.InstanceType, model.Name, spec.Model.Name)
		}
		if err != nil {
			return fail("instance_type", "Invalid instance type", err)
		}
		spec.Model = model
	}
	if spec.Model == nil {
		return fail("gpu", "Missing GPU model", fmt.Errorf("set gpu or instance_type"))
	}
	migAttr := "config"
	spec.MIG = m.Config.ValueString()
	if m.Config.IsNull() {
		migAttr = "profiles"
		counts := map[string]types.Int64{}
		diags.Append(m.Profiles.ElementsAs(ctx, &counts, false)...)
		layout, ok := layoutOf(path.Root("profiles"), counts, &diags)
		if !ok || diags.HasError() {
			return nil, diags
		}
		spec.MIG = layout.String()
		if layout.Instances() == 0 {
			spec.MIG = gpu.ConfigAllEnabled
		}
	}
	if _, err := gpu.Resolve(spec.Model, spec.MIG); err != nil {
		return fail(migAttr, "Invalid MIG layout", err)
	}
	e, err := gpu.Expose(spec)
	if err != nil {
		return fail("strategy", "MIG layout not possible with this strategy", err)
	}
	return e, diags
}
