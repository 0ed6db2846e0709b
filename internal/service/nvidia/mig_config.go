package nvidia

import (
	"context"
	"slices"
	"strings"

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
	"github.com/mlplatform/terraform-provider-mlplatform/internal/gpu"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
)

// defaultMigConfigName is the ConfigMap name the docs of the GPU Operator use for a custom
// mig-parted config.
const defaultMigConfigName = "custom-mig-config"

type migConfigModel struct {
	framework.NamespacedMetadata
	MigConfigs map[string]migConfigValue `tfsdk:"mig_configs"`
}

// migConfigValue is one named config: the entries mig-parted applies to a node's GPUs.
type migConfigValue struct {
	Entries []migEntryModel `tfsdk:"entries"`
}

// migEntryModel is one mig-parted MigConfigSpec.
type migEntryModel struct {
	GPU        types.String `tfsdk:"gpu"`
	Devices    types.List   `tfsdk:"devices"`
	MigEnabled types.Bool   `tfsdk:"mig_enabled"`
	MigDevices types.Map    `tfsdk:"mig_devices"`
}

type migConfig struct{}

// NewMigConfigResource is mlplatform_mig_config.
func NewMigConfigResource() resource.Resource {
	return framework.NewResource[migConfigModel](migConfig{})
}

func (migConfig) Kind() kube.Kind    { return kube.ConfigMapKind }
func (migConfig) TypeSuffix() string { return "mig_config" }

func (migConfig) Schema(ctx context.Context) schema.Schema {
	attrs := configMapAttributes("mig-parted ConfigMap", defaultMigConfigName)
	attrs["mig_configs"] = schema.MapNestedAttribute{
		Required: true,
		MarkdownDescription: "The named MIG configs, keyed by the name a node selects with the label " +
			"`nvidia.com/mig.config` (so each name must be a valid label value). Once the GPU Operator uses this " +
			"ConfigMap, its MIG manager knows only these names: include `all-disabled` and every default name " +
			"(such as `all-1g.10gb`) your nodes still use.",
		Validators: []validator.Map{
			mapvalidator.SizeAtLeast(1),
			mapvalidator.KeysAre(stringvalidator.LengthAtLeast(1), framework.LabelValue()),
			warnWithoutAllDisabled{},
		},
		NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
			"entries": schema.ListNestedAttribute{
				Required: true,
				MarkdownDescription: "What the config does to the GPUs of a node, as a list of mig-parted entries " +
					"(`MigConfigSpec`), each applied to the GPUs it selects by model (`gpu`) and index (`devices`); no two " +
					"entries may select the same GPU. Split a node's GPUs by `devices`, e.g. GPUs 0-3 under `all-balanced` and " +
					"4-7 whole, as a `mlplatform_gpu_node_pool`'s `mig.parts` does.",
				Validators:   []validator.List{listvalidator.SizeAtLeast(1), entriesDisjoint{}},
				NestedObject: schema.NestedAttributeObject{Attributes: migEntryAttributes(), Validators: []validator.Object{migEntryRules{}}},
			},
		}},
	}
	return schema.Schema{
		MarkdownDescription: "The GPU Operator's custom MIG configuration: a ConfigMap whose key `config.yaml` holds " +
			"a mig-parted config (`version: v1`, `mig-configs`). Every layout is checked at plan time by placement " +
			"against the GPU model it applies to, so a layout that does not fit fails before anything is written.\n\n" +
			"Point the GPU Operator at it with the Helm value `migManager.config.name` (ClusterPolicy " +
			"`spec.migManager.config.name`) set to this ConfigMap's `name`, with the ConfigMap in the operator's " +
			"namespace. Then label a node `nvidia.com/mig.config=<config name>` (e.g. in the Karpenter node pool's " +
			"template labels; `mlplatform_mig_layout` gives the name for a layout): the MIG manager repartitions " +
			"its GPUs and sets `nvidia.com/mig.config.state` to `success`. Nodes without the label get " +
			"`migManager.config.default` (`all-disabled` by default)." + sharedConfigMapNote,
		Attributes: attrs,
		Blocks:     map[string]schema.Block{"timeouts": framework.TimeoutsBlock(ctx)},
	}
}

func migEntryAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"gpu": schema.StringAttribute{
			Optional: true,
			MarkdownDescription: "The GPU model this entry applies to, by any name `data.mlplatform_gpu` accepts " +
				"(e.g. `a100-80gb`, `H100-SXM5-80GB`); it must support MIG. The provider writes the model's PCI device ids " +
				"as mig-parted's `device-filter` and checks `mig_devices` against the model. Omitted, the entry applies " +
				"to every GPU, and `mig_devices` must fit at least one model that offers its profiles (a warning names " +
				"the models it does not fit). A `device-filter` that is no single model's (NVIDIA's default config files " +
				"several GPUs under one entry) reads back as its PCI device ids joined by commas, e.g. " +
				"`0x20B010DE,0x20B110DE`, and may be written so: each id must be a GPU of the catalog, and `mig_devices` " +
				"must fit each.",
		},
		"devices": schema.ListAttribute{
			ElementType: types.Int64Type,
			Optional:    true,
			MarkdownDescription: "Indices of the GPUs of a node this entry applies to, e.g. `[0, 1, 2, 3]`. Omitted, " +
				"it applies to all of them (mig-parted `devices: all`).",
			Validators: []validator.List{
				listvalidator.SizeAtLeast(1),
				listvalidator.UniqueValues(),
				listvalidator.ValueInt64sAre(int64validator.AtLeast(0)),
			},
		},
		"mig_enabled": schema.BoolAttribute{
			Required:            true,
			MarkdownDescription: "Whether MIG mode is on for the selected GPUs (mig-parted `mig-enabled`).",
		},
		"mig_devices": schema.MapAttribute{
			ElementType: types.Int64Type,
			Optional:    true,
			MarkdownDescription: "MIG instances per GPU: profile, spelled as `nvidia-smi` does (`1g.10gb`, " +
				"`1g.10gb+me`, `1g.24gb+gfx`, `1g.24gb-me`), to count. The layout is checked at plan time by placement " +
				"(every instance needs a start slot of its profile with no shared memory slices, at most one `+me` or " +
				"`+me.all`, a `+me.all` only beside `-me` instances), not by summing " +
				"slices; an error says what does not fit and suggests the nearest valid layouts. Must be empty " +
				"when `mig_enabled` is false; empty or omitted with `mig_enabled = true` turns MIG on with no " +
				"instances (like `all-enabled`).",
			Validators: []validator.Map{mapvalidator.ValueInt64sAre(int64validator.AtLeast(0))},
		},
	}
}

func (migConfig) Expand(ctx context.Context, m *migConfigModel, meta framework.ObjectMeta) (any, diag.Diagnostics) {
	var diags diag.Diagnostics
	spec := migPartedSpec{Version: migPartedVersion, MigConfigs: map[string][]migPartedEntry{}}
	for name, cfg := range m.MigConfigs {
		entries := make([]migPartedEntry, len(cfg.Entries))
		for i, e := range cfg.Entries {
			entries[i] = expandMigEntry(ctx, e, &diags)
		}
		spec.MigConfigs[name] = entries
	}
	text, err := marshalMigParted(spec)
	if err != nil {
		diags.AddError("Encoding the mig-parted config", err.Error())
	}
	return applyConfigMap(meta, map[string]string{migPartedKey: text}), diags
}

func expandMigEntry(ctx context.Context, e migEntryModel, diags *diag.Diagnostics) migPartedEntry {
	out := migPartedEntry{Devices: allDevices, MigEnabled: e.MigEnabled.ValueBool()}
	if ids := filterIDs(e.GPU.ValueString()); ids != nil {
		out.DeviceFilter = ids
	} else if !e.GPU.IsNull() {
		model, err := gpu.Lookup(e.GPU.ValueString())
		if err != nil { // refused at plan; kept as a guard
			diags.AddError("Unknown GPU model", err.Error())
			return out
		}
		out.DeviceFilter = model.PCIDeviceIDs
	}
	if !e.Devices.IsNull() {
		var idx []int64
		diags.Append(e.Devices.ElementsAs(ctx, &idx, false)...)
		out.Devices = idx
	}
	if out.MigEnabled {
		// mig-parted needs mig-devices with MIG on, so none is written as {}.
		out.MigDevices = map[string]int64{}
		if counts := framework.Int64MapOf(ctx, e.MigDevices, diags); counts != nil {
			out.MigDevices = counts
		}
	}
	return out
}

func (migConfig) Flatten(_ context.Context, obj *unstructured.Unstructured, m *migConfigModel, importing bool) diag.Diagnostics {
	data, diags := configMapData(obj)
	text, ok := data[migPartedKey]
	if !ok {
		// Removed outside Terraform: planned to be written again.
		m.MigConfigs = nil
		return diags
	}
	spec, err := parseMigParted(text)
	if err != nil {
		summary := "Unreadable mig-parted config in ConfigMap " + obj.GetNamespace() + "/" + obj.GetName()
		if importing {
			diags.AddError(summary, "Key "+migPartedKey+": "+err.Error())
			return diags
		}
		diags.AddWarning(summary, "Key "+migPartedKey+" was changed outside Terraform and mig-parted cannot read it ("+
			err.Error()+"); the next apply writes it again.")
		m.MigConfigs = nil
		return diags
	}
	prior := m.MigConfigs
	m.MigConfigs = make(map[string]migConfigValue, len(spec.MigConfigs))
	for name, entries := range spec.MigConfigs {
		out := make([]migEntryModel, len(entries))
		for i, e := range entries {
			var p migEntryModel
			if pe := prior[name].Entries; i < len(pe) {
				p = pe[i]
			} else {
				p = migEntryModel{GPU: types.StringNull(), Devices: types.ListNull(types.Int64Type), MigDevices: types.MapNull(types.Int64Type)}
			}
			out[i] = flattenMigEntry(e, p)
		}
		m.MigConfigs[name] = migConfigValue{Entries: out}
	}
	return diags
}

// flattenMigEntry reads one entry back; prior (the entry at the same place in state) keeps the
// user's spelling of the GPU model and the null-or-empty shape of the collections.
func flattenMigEntry(e migPartedEntry, prior migEntryModel) migEntryModel {
	out := migEntryModel{
		GPU:        types.StringNull(),
		Devices:    types.ListNull(types.Int64Type),
		MigEnabled: types.BoolValue(e.MigEnabled),
		MigDevices: framework.AtomicInt64Map(e.MigDevices, prior.MigDevices),
	}
	if ids := e.deviceFilter(); len(ids) > 0 {
		model, err := gpu.ModelForPCIDeviceIDs(ids)
		switch {
		case err != nil:
			out.GPU = types.StringValue(strings.Join(ids, ","))
		case sameModel(prior.GPU, model):
			out.GPU = prior.GPU
		default:
			out.GPU = types.StringValue(model.Name)
		}
	}
	if idx, all := e.devices(); !all {
		out.Devices, _ = types.ListValueFrom(context.Background(), types.Int64Type, idx)
	}
	return out
}

// sameModel reports whether alias names a model whose device-filter is m's: then the user's
// spelling stands, also for a model that shares its PCI ids with m (GB200-189GB).
func sameModel(alias types.String, m *gpu.Model) bool {
	if alias.IsNull() || alias.IsUnknown() {
		return false
	}
	got, err := gpu.Lookup(alias.ValueString())
	return err == nil && slices.Equal(got.PCIDeviceIDs, m.PCIDeviceIDs)
}
