package nvidia

import (
	"context"
	"maps"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/mapvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
)

type timeSlicingConfigModel struct {
	framework.NamespacedMetadata
	Configs map[string]timeSlicingModel `tfsdk:"configs"`
}

// timeSlicingModel is one device plugin config file: one key of the ConfigMap.
type timeSlicingModel struct {
	MigStrategy                types.String              `tfsdk:"mig_strategy"`
	Sharing                    types.String              `tfsdk:"sharing"`
	RenameByDefault            types.Bool                `tfsdk:"rename_by_default"`
	FailRequestsGreaterThanOne types.Bool                `tfsdk:"fail_requests_greater_than_one"`
	Resources                  []replicatedResourceModel `tfsdk:"resources"`
	FailOnInitError            types.Bool                `tfsdk:"fail_on_init_error"`
	NvidiaDriverRoot           types.String              `tfsdk:"nvidia_driver_root"`
	Plugin                     *pluginFlagsModel         `tfsdk:"plugin"`
}

// pluginFlagsModel is the config's flags.plugin: options of the device plugin only (not GFD).
type pluginFlagsModel struct {
	PassDeviceSpecs    types.Bool   `tfsdk:"pass_device_specs"`
	DeviceListStrategy types.List   `tfsdk:"device_list_strategy"`
	DeviceIDStrategy   types.String `tfsdk:"device_id_strategy"`
}

type replicatedResourceModel struct {
	Name     types.String `tfsdk:"name"`
	Replicas types.Int64  `tfsdk:"replicas"`
	Rename   types.String `tfsdk:"rename"`
}

type timeSlicingConfig struct{}

// NewTimeSlicingConfigResource is mlplatform_time_slicing_config.
func NewTimeSlicingConfigResource() resource.Resource {
	return framework.NewResource[timeSlicingConfigModel](timeSlicingConfig{})
}

func (timeSlicingConfig) Kind() kube.Kind    { return kube.ConfigMapKind }
func (timeSlicingConfig) TypeSuffix() string { return "time_slicing_config" }

func (timeSlicingConfig) Schema(ctx context.Context) schema.Schema {
	attrs := configMapAttributes("device plugin ConfigMap", "")
	attrs["configs"] = schema.MapNestedAttribute{
		Required: true,
		MarkdownDescription: "Named device plugin configs, one ConfigMap key each (`version: v1`, with `sharing.timeSlicing` " +
			"or `sharing.mps` when `resources` are given, and `flags`). A node picks one with the label " +
			"`nvidia.com/device-plugin.config=<name>`, else the GPU Operator's `devicePlugin.config.default`; so each name " +
			"must be a valid ConfigMap key and label value.",
		Validators: []validator.Map{
			mapvalidator.SizeAtLeast(1),
			mapvalidator.KeysAre(stringvalidator.LengthAtLeast(1), framework.ConfigMapKey(), framework.LabelValue()),
		},
		NestedObject: schema.NestedAttributeObject{
			Attributes: timeSlicingAttributes(),
			Validators: []validator.Object{timeSlicingRules{}},
		},
	}
	return schema.Schema{
		MarkdownDescription: "The NVIDIA device plugin's configuration: a ConfigMap with one device plugin config per key, " +
			"each sharing every GPU of a node between `replicas` pods by time-slicing or by CUDA MPS, and setting the " +
			"plugin's flags. A node with 8 GPUs and `replicas = 4` advertises 32 `nvidia.com/gpu` (or " +
			"`nvidia.com/gpu.shared` with `rename_by_default`). Time-slicing gives no memory or fault isolation between " +
			"the pods and can share MIG devices; MPS gives each pod an equal share of the GPU's memory and compute, for " +
			"whole GPUs only (NVIDIA calls it experimental). A config with only flags shares nothing.\n\n" +
			"Point the GPU Operator at it with the Helm values `devicePlugin.config.name` (this ConfigMap's `name`, in " +
			"the operator's namespace) and `devicePlugin.config.default` (the config for nodes without the " +
			"`nvidia.com/device-plugin.config` label). Every check the device plugin makes when it loads a config is " +
			"made at plan time." + sharedConfigMapNote,
		Attributes: attrs,
		Blocks:     map[string]schema.Block{"timeouts": framework.TimeoutsBlock(ctx)},
	}
}

func timeSlicingAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"mig_strategy": schema.StringAttribute{
			Optional: true,
			MarkdownDescription: "The device plugin's MIG strategy for nodes with this config (`flags.migStrategy`): one " +
				"of " + backticked(migStrategies) + ". Omitted, the GPU Operator's `mig.strategy` applies. " +
				"`nvidia.com/mig-*` resources exist only under `mixed`.",
			Validators: []validator.String{stringvalidator.OneOf(migStrategies...)},
		},
		"sharing": schema.StringAttribute{
			Optional: true,
			MarkdownDescription: "How `resources` are shared: `" + sharingTimeSlicing + "` (`sharing.timeSlicing`, the " +
				"default) or `" + sharingMPS + "` (`sharing.mps`: CUDA MPS, only `nvidia.com/gpu` on whole GPUs, not with " +
				"`mig_strategy = \"mixed\"`; the GPU Operator's device plugin runs the MPS control daemon). Needs `resources`.",
			Validators: []validator.String{stringvalidator.OneOf(sharingTimeSlicing, sharingMPS)},
		},
		"fail_on_init_error": schema.BoolAttribute{
			Optional: true,
			MarkdownDescription: "Fail the plugin when it cannot initialise (`flags.failOnInitError`); false blocks it " +
				"instead, so that it can run on nodes without GPUs. Omitted: the plugin's default, true.",
		},
		"nvidia_driver_root": schema.StringAttribute{
			Optional: true,
			MarkdownDescription: "Where the NVIDIA driver is installed (`flags.nvidiaDriverRoot`): `/` when it is on the " +
				"host, `/run/nvidia/driver` when the GPU Operator's driver container installs it. An absolute path. " +
				"Omitted: the plugin's default, `/`.",
			Validators: []validator.String{absolutePath{}},
		},
		"plugin": schema.SingleNestedAttribute{
			Optional:            true,
			MarkdownDescription: "Options of the device plugin itself (`flags.plugin`), not of GPU Feature Discovery.",
			Attributes: map[string]schema.Attribute{
				"pass_device_specs": schema.BoolAttribute{
					Optional: true,
					MarkdownDescription: "Pass the paths and permissions of the device nodes to the kubelet " +
						"(`passDeviceSpecs`), for container runtimes that need them, e.g. with the CPU manager's `static` " +
						"policy. Omitted: false.",
				},
				"device_list_strategy": schema.ListAttribute{
					Optional:    true,
					ElementType: types.StringType,
					MarkdownDescription: "How allocated devices are passed to containers (`deviceListStrategy`), one or " +
						"more of " + backticked(deviceListStrategies) + ". Omitted: `envvar`.",
					Validators: []validator.List{listvalidator.SizeAtLeast(1), listvalidator.UniqueValues(),
						listvalidator.ValueStringsAre(stringvalidator.OneOf(deviceListStrategies...))},
				},
				"device_id_strategy": schema.StringAttribute{
					Optional: true,
					MarkdownDescription: "How devices are named to the container runtime (`deviceIDStrategy`): " +
						backticked(deviceIDStrategies) + ". Omitted: `uuid`.",
					Validators: []validator.String{stringvalidator.OneOf(deviceIDStrategies...)},
				},
			},
		},
		"rename_by_default": schema.BoolAttribute{
			Optional: true,
			MarkdownDescription: "Advertise each shared resource as `<name>.shared` (e.g. `nvidia.com/gpu.shared`) " +
				"so that pods ask for a shared GPU explicitly (`renameByDefault`). Default false: shared GPUs keep " +
				"their name and GPU Feature Discovery appends `-SHARED` to `nvidia.com/gpu.product`.",
		},
		"fail_requests_greater_than_one": schema.BoolAttribute{
			Optional: true,
			MarkdownDescription: "Fail pods that request more than one shared resource (`failRequestsGreaterThanOne`): " +
				"two replicas of one GPU give no more compute than one. Default false; NVIDIA recommends true.",
		},
		"resources": schema.ListNestedAttribute{
			Optional: true,
			MarkdownDescription: "The resources to share, each at most once (`sharing.timeSlicing.resources` or " +
				"`sharing.mps.resources`). Omitted: nothing is shared, and the config sets only flags.",
			Validators: []validator.List{listvalidator.SizeAtLeast(1), uniqueResourceNames{}},
			NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
				"name": schema.StringAttribute{
					Required: true,
					MarkdownDescription: "The resource to share: `nvidia.com/gpu` (whole GPUs, or MIG devices under the " +
						"`single` strategy) or `nvidia.com/mig-<profile>` under `mixed` (e.g. `nvidia.com/mig-1g.10gb`, " +
						"`+me` written `.me`).",
					Validators: []validator.String{resourceNameValidator{}},
				},
				"replicas": schema.Int64Attribute{
					Required:            true,
					MarkdownDescription: "How many pods share each device; at least 2 (the device plugin refuses fewer).",
					Validators:          []validator.Int64{int64validator.AtLeast(minReplicas)},
				},
				"rename": schema.StringAttribute{
					Optional: true,
					MarkdownDescription: "Advertise the shared resource under this name (`nvidia.com/<name>`, at most 63 " +
						"characters). Current device plugin releases ignore any name but `<name>.shared` with " +
						"`rename_by_default` (DisableResourceNamingInConfig), so a plan with one warns.",
					Validators: []validator.String{renameValidator{}},
				},
			}},
		},
	}
}

func (timeSlicingConfig) Expand(_ context.Context, m *timeSlicingConfigModel, meta framework.ObjectMeta) (any, diag.Diagnostics) {
	var diags diag.Diagnostics
	data := make(map[string]string, len(m.Configs))
	for name, c := range m.Configs {
		text, err := marshalDevicePlugin(expandDevicePlugin(c))
		if err != nil {
			diags.AddError("Encoding device plugin config "+name, err.Error())
		}
		data[name] = text
	}
	return applyConfigMap(meta, data), diags
}

func expandDevicePlugin(c timeSlicingModel) devicePluginConfig {
	cfg := devicePluginConfig{Version: devicePluginVersion}
	flags := &devicePluginFlags{MigStrategy: c.MigStrategy.ValueStringPointer(), FailOnInitError: c.FailOnInitError.ValueBoolPointer(),
		NvidiaDriverRoot: c.NvidiaDriverRoot.ValueStringPointer()}
	if p := c.Plugin; p != nil {
		flags.Plugin = &devicePluginPluginFlags{PassDeviceSpecs: p.PassDeviceSpecs.ValueBoolPointer(), DeviceIDStrategy: p.DeviceIDStrategy.ValueStringPointer()}
		for _, e := range p.DeviceListStrategy.Elements() {
			flags.Plugin.DeviceListStrategy = append(flags.Plugin.DeviceListStrategy, e.(types.String).ValueString())
		}
	}
	if *flags != (devicePluginFlags{}) {
		cfg.Flags = flags
	}
	if c.Resources == nil {
		return cfg
	}
	shared := &devicePluginReplicated{RenameByDefault: c.RenameByDefault.ValueBool(), FailRequestsGreaterThanOne: c.FailRequestsGreaterThanOne.ValueBoolPointer()}
	for _, r := range c.Resources {
		shared.Resources = append(shared.Resources, devicePluginReplicas{
			Name: r.Name.ValueString(), Rename: r.Rename.ValueString(), Replicas: r.Replicas.ValueInt64(),
		})
	}
	cfg.Sharing = &devicePluginSharing{MPS: shared}
	if c.Sharing.ValueString() != sharingMPS {
		fail := c.FailRequestsGreaterThanOne.ValueBool()
		shared.FailRequestsGreaterThanOne = &fail
		cfg.Sharing = &devicePluginSharing{TimeSlicing: shared}
	}
	return cfg
}

// Flatten reads back the keys Terraform manages (all of them on import): a key removed or made
// unreadable outside Terraform drops out of state, so the plan writes it again.
func (timeSlicingConfig) Flatten(_ context.Context, obj *unstructured.Unstructured, m *timeSlicingConfigModel, importing bool) diag.Diagnostics {
	data, diags := configMapData(obj)
	keys := slices.Collect(maps.Keys(m.Configs))
	if importing {
		keys = slices.Collect(maps.Keys(data))
	}
	prior := m.Configs
	m.Configs = map[string]timeSlicingModel{}
	for _, name := range keys {
		text, ok := data[name]
		if !ok {
			continue
		}
		cfg, err := parseDevicePlugin(text)
		if err != nil {
			summary := "Unreadable device plugin config " + name + " in ConfigMap " + obj.GetNamespace() + "/" + obj.GetName()
			if importing {
				diags.AddError(summary, err.Error())
			} else {
				diags.AddWarning(summary, "It was changed outside Terraform and the device plugin cannot read it ("+
					err.Error()+"); the next apply writes it again.")
			}
			continue
		}
		m.Configs[name] = flattenTimeSlicing(cfg, prior[name])
	}
	if len(m.Configs) == 0 && prior == nil {
		m.Configs = nil
	}
	return diags
}

func flattenTimeSlicing(c devicePluginConfig, prior timeSlicingModel) timeSlicingModel {
	out := timeSlicingModel{
		MigStrategy: types.StringNull(), Sharing: types.StringNull(), RenameByDefault: types.BoolNull(),
		FailRequestsGreaterThanOne: types.BoolNull(), FailOnInitError: types.BoolNull(), NvidiaDriverRoot: types.StringNull(),
	}
	if f := c.Flags; f != nil {
		out.MigStrategy = types.StringPointerValue(f.MigStrategy)
		out.FailOnInitError = types.BoolPointerValue(f.FailOnInitError)
		out.NvidiaDriverRoot = types.StringPointerValue(f.NvidiaDriverRoot)
		if p := f.Plugin; p != nil {
			out.Plugin = &pluginFlagsModel{PassDeviceSpecs: types.BoolPointerValue(p.PassDeviceSpecs),
				DeviceIDStrategy: types.StringPointerValue(p.DeviceIDStrategy), DeviceListStrategy: types.ListNull(types.StringType)}
			if p.DeviceListStrategy != nil {
				out.Plugin.DeviceListStrategy, _ = types.ListValueFrom(context.Background(), types.StringType, []string(p.DeviceListStrategy))
			}
		}
	}
	strategy, shared := c.strategy()
	if shared == nil {
		return out
	}
	out.Sharing = prior.Sharing // time-slicing is the default, null or spelt out
	if strategy == sharingMPS || (prior.Sharing.ValueString() == sharingMPS) {
		out.Sharing = types.StringValue(strategy)
	}
	out.RenameByDefault = optionalBool(shared.RenameByDefault, prior.RenameByDefault)
	if shared.FailRequestsGreaterThanOne != nil {
		out.FailRequestsGreaterThanOne = optionalBool(*shared.FailRequestsGreaterThanOne, prior.FailRequestsGreaterThanOne)
	}
	out.Resources = make([]replicatedResourceModel, len(shared.Resources))
	for i, r := range shared.Resources {
		out.Resources[i] = replicatedResourceModel{
			Name:     types.StringValue(r.Name),
			Replicas: types.Int64Value(r.Replicas),
			Rename:   framework.OptionalString(r.Rename),
		}
	}
	return out
}
