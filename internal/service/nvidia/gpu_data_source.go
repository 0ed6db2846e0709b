package nvidia

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/gpu"
)

var (
	_ datasource.DataSourceWithConfigure      = &gpuDataSource{}
	_ datasource.DataSourceWithValidateConfig = &gpuDataSource{}
)

type gpuDataSourceModel struct {
	Name             types.String        `tfsdk:"name"`
	CanonicalName    types.String        `tfsdk:"canonical_name"`
	Architecture     types.String        `tfsdk:"architecture"`
	MemoryGB         types.Int64         `tfsdk:"memory_gb"`
	ProductLabel     types.String        `tfsdk:"product_label"`
	KarpenterGPUName types.String        `tfsdk:"karpenter_gpu_name"`
	MIGCapable       types.Bool          `tfsdk:"mig_capable"`
	PCIDeviceIDs     []types.String      `tfsdk:"pci_device_ids"`
	MIGProfiles      []migProfileModel   `tfsdk:"mig_profiles"`
	MIGConfigNames   []types.String      `tfsdk:"mig_config_names"`
	InstanceTypes    []instanceTypeModel `tfsdk:"instance_types"`
}

type migProfileModel struct {
	Name          types.String `tfsdk:"name"`
	ComputeSlices types.Int64  `tfsdk:"compute_slices"`
	MemorySlices  types.Int64  `tfsdk:"memory_slices"`
	MemoryGB      types.Int64  `tfsdk:"memory_gb"`
	MaxInstances  types.Int64  `tfsdk:"max_instances"`
	ResourceName  types.String `tfsdk:"resource_name"`
}

type instanceTypeModel struct {
	Name types.String `tfsdk:"name"`
	GPUs types.Int64  `tfsdk:"gpus"`
}

type gpuDataSource struct{ framework.DataSourceBase }

// NewGPUDataSource is data.mlplatform_gpu.
func NewGPUDataSource() datasource.DataSource { return &gpuDataSource{} }

func (d *gpuDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_gpu"
}

func (d *gpuDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	computedString := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{Computed: true, MarkdownDescription: desc}
	}
	computedInt := func(desc string) schema.Int64Attribute {
		return schema.Int64Attribute{Computed: true, MarkdownDescription: desc}
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Facts about one NVIDIA GPU model from the provider's built-in catalog: memory, MIG " +
			"profiles, the mig-parted configs that apply to it and the AWS instance types that carry it. It needs no cluster.",
		Attributes: map[string]schema.Attribute{
			"name": schema.StringAttribute{
				Required: true,
				MarkdownDescription: "The model, by any name people use, case-insensitively: canonical (`A100-SXM4-80GB`), " +
					"short (`a100-80gb`, `h100`), the `nvidia.com/gpu.product` label (`NVIDIA-A100-SXM4-80GB`) or the " +
					"Karpenter `instance-gpu-name`. `a100` means the 80GB model (`a100-pcie` and `a800` too), `h100` the SXM5 " +
					"one, `h800` the SXM5 one, `h100-96gb` GH200's H100, `v100` the 16GB one " +
					"and `gb200` `GB200-186GB`, the profile names of production GB200 boards (`GB200-189GB` has those " +
					"of the first boards, which report the same GPU).",
			},
			"canonical_name": computedString("The model's canonical name, e.g. `A100-SXM4-80GB`."),
			"architecture":   computedString("The GPU architecture, e.g. `Ampere`, `Hopper`, `Blackwell`."),
			"memory_gb":      computedInt("Memory per GPU in GB, as NVIDIA names it (80 for A100 80GB)."),
			"product_label":  computedString("The `nvidia.com/gpu.product` value GPU Feature Discovery writes for a whole GPU."),
			"karpenter_gpu_name": computedString("The `karpenter.k8s.aws/instance-gpu-name` value on AWS; empty if the " +
				"model is not offered on AWS, or if the value is not known (GB200 on `p6e-gb200.36xlarge`)."),
			"mig_capable": schema.BoolAttribute{Computed: true, MarkdownDescription: "Whether the model supports MIG."},
			"pci_device_ids": schema.ListAttribute{
				ElementType: types.StringType,
				Computed:    true,
				MarkdownDescription: "PCI `device id + vendor id` strings (e.g. `0x20B210DE`) that mig-parted's " +
					"`device-filter` matches; empty for models without MIG.",
			},
			"mig_profiles": schema.ListNestedAttribute{
				Computed:            true,
				MarkdownDescription: "The MIG GPU instance profiles, smallest first; empty for models without MIG.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"name":           computedString("Profile name as `nvidia-smi` spells it, e.g. `1g.10gb` or `1g.10gb+me`."),
					"compute_slices": computedInt("Compute slices (the `Ng` of the name)."),
					"memory_slices":  computedInt("Memory slices one instance occupies (3g profiles take 4 of 8)."),
					"memory_gb":      computedInt("Memory of one instance in GB (the `Ngb` of the name)."),
					"max_instances":  computedInt("How many instances of this profile alone fit on one GPU."),
					"resource_name":  computedString("The extended resource under the mixed strategy, e.g. `nvidia.com/mig-1g.10gb`."),
				}},
			},
			"mig_config_names": schema.ListAttribute{
				ElementType: types.StringType,
				Computed:    true,
				MarkdownDescription: "The names of mig-parted's default configs that apply to the model (`all-disabled`, " +
					"`all-enabled`, `all-<profile>`, `all-balanced`), usable as the `nvidia.com/mig.config` label.",
			},
			"instance_types": schema.ListNestedAttribute{
				Computed:            true,
				MarkdownDescription: "AWS EC2 instance types that carry the model.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"name": computedString("Instance type, e.g. `p4de.24xlarge`."),
					"gpus": computedInt("GPUs per instance."),
				}},
			},
		},
	}
}

// ValidateConfig refuses an unknown model at plan time, listing the known ones.
func (d *gpuDataSource) ValidateConfig(ctx context.Context, req datasource.ValidateConfigRequest, resp *datasource.ValidateConfigResponse) {
	var name types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("name"), &name)...)
	if name.IsNull() || name.IsUnknown() {
		return
	}
	if _, err := gpu.Lookup(name.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("name"), "Unknown GPU model", "Attribute name: "+err.Error())
	}
}

func (d *gpuDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m gpuDataSourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	model, err := gpu.Lookup(m.Name.ValueString())
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("name"), "Unknown GPU model", "Attribute name: "+err.Error())
		return
	}
	m.CanonicalName = types.StringValue(model.Name)
	m.Architecture = types.StringValue(model.Architecture)
	m.MemoryGB = types.Int64Value(int64(model.MemoryGB))
	m.ProductLabel = types.StringValue(model.ProductLabel)
	m.KarpenterGPUName = types.StringValue(model.KarpenterGPUName)
	m.MIGCapable = types.BoolValue(model.MIGCapable())
	m.PCIDeviceIDs = stringValues(model.PCIDeviceIDs)
	m.MIGProfiles = make([]migProfileModel, len(model.MIG))
	for i, p := range model.MIG {
		m.MIGProfiles[i] = migProfileModel{
			Name:          types.StringValue(p.Name),
			ComputeSlices: types.Int64Value(int64(p.ComputeSlices)),
			MemorySlices:  types.Int64Value(int64(p.MemorySlices)),
			MemoryGB:      types.Int64Value(int64(p.MemoryGB)),
			MaxInstances:  types.Int64Value(int64(p.MaxInstances)),
			ResourceName:  types.StringValue(p.ResourceName()),
		}
	}
	var names []string
	for _, c := range gpu.NamedConfigs(model) {
		names = append(names, c.Name)
	}
	m.MIGConfigNames = stringValues(names)
	m.InstanceTypes = make([]instanceTypeModel, len(model.InstanceTypes))
	for i, it := range model.InstanceTypes {
		m.InstanceTypes[i] = instanceTypeModel{Name: types.StringValue(it.Name), GPUs: types.Int64Value(int64(it.GPUs))}
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

func stringValues(ss []string) []types.String {
	out := make([]types.String, len(ss))
	for i, s := range ss {
		out[i] = types.StringValue(s)
	}
	return out
}
