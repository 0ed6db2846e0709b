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
	RenameByDefault            types.Bool                `tfsdk:"rename_by_default"`
	FailRequestsGreaterThanOne types.Bool                `tfsdk:"fail_requests_greater_than_one"`
	Resources                  []replicatedResourceModel `tfsdk:"resources"`
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
		MarkdownDescription: "Named device plugin configs, one ConfigMap key each (`version: v1` with " +
			"`sharing.timeSlicing`). A node picks one with the label `nvidia.com/device-plugin.config=<name>`, " +
			"else the GPU Operator's `devicePlugin.config.default`; so each name must be a valid ConfigMap key " +
			"and label value.",
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
		MarkdownDescription: "The NVIDIA device plugin's time-slicing configuration: a ConfigMap with one device plugin " +
			"config per key, each sharing every GPU (or MIG device) of a node between `replicas` pods. A node with 8 GPUs " +
			"and `replicas = 4` advertises 32 `nvidia.com/gpu` (or `nvidia.com/gpu.shared` with `rename_by_default`); " +
			"time-slicing gives no memory or fault isolation between the pods.\n\n" +
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
			Required:            true,
			MarkdownDescription: "The resources to share, each at most once (`sharing.timeSlicing.resources`).",
			Validators:          []validator.List{listvalidator.SizeAtLeast(1), uniqueResourceNames{}},
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
		cfg := devicePluginConfig{Version: devicePluginVersion, Sharing: devicePluginSharing{TimeSlicing: devicePluginTimeSlicing{
			RenameByDefault:            c.RenameByDefault.ValueBool(),
			FailRequestsGreaterThanOne: c.FailRequestsGreaterThanOne.ValueBool(),
		}}}
		if !c.MigStrategy.IsNull() {
			cfg.Flags = &devicePluginFlags{MigStrategy: c.MigStrategy.ValueStringPointer()}
		}
		for _, r := range c.Resources {
			cfg.Sharing.TimeSlicing.Resources = append(cfg.Sharing.TimeSlicing.Resources, devicePluginReplicas{
				Name: r.Name.ValueString(), Rename: r.Rename.ValueString(), Replicas: r.Replicas.ValueInt64(),
			})
		}
		text, err := marshalDevicePlugin(cfg)
		if err != nil {
			diags.AddError("Encoding device plugin config "+name, err.Error())
		}
		data[name] = text
	}
	return applyConfigMap(meta, data), diags
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
	ts := c.Sharing.TimeSlicing
	out := timeSlicingModel{
		MigStrategy:                types.StringNull(),
		RenameByDefault:            optionalBool(ts.RenameByDefault, prior.RenameByDefault),
		FailRequestsGreaterThanOne: optionalBool(ts.FailRequestsGreaterThanOne, prior.FailRequestsGreaterThanOne),
		Resources:                  make([]replicatedResourceModel, len(ts.Resources)),
	}
	if c.Flags != nil && c.Flags.MigStrategy != nil {
		out.MigStrategy = types.StringValue(*c.Flags.MigStrategy)
	}
	for i, r := range ts.Resources {
		out.Resources[i] = replicatedResourceModel{
			Name:     types.StringValue(r.Name),
			Replicas: types.Int64Value(r.Replicas),
			Rename:   framework.OptionalString(r.Rename),
		}
	}
	return out
}
