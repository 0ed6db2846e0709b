package nvidia

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/gpu"
)

// migEntryRules checks one mig-parted entry at plan time as mig-parted and the GPU would: the
// model supports MIG, MIG devices only with MIG on, profile names as nvidia-smi spells them, and
// a layout that fits by placement on the model (or on some model, without one).
type migEntryRules struct{}

func (migEntryRules) Description(context.Context) string {
	return "gpu must support MIG; mig_devices must be empty without MIG and fit the GPU by placement"
}
func (v migEntryRules) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (migEntryRules) ValidateObject(ctx context.Context, req validator.ObjectRequest, resp *validator.ObjectResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	var e migEntryModel
	if req.ConfigValue.As(ctx, &e, basetypes.ObjectAsOptions{}).HasError() || e.GPU.IsUnknown() {
		return
	}
	var model *gpu.Model
	ids := filterIDs(e.GPU.ValueString())
	if ids != nil {
		if err := checkFilterLayout(ids, nil); err != nil {
			p := req.Path.AtName("gpu")
			resp.Diagnostics.AddAttributeError(p, "Invalid GPU model", fmt.Sprintf("Attribute %s: %s", p, err))
			return
		}
	} else if !e.GPU.IsNull() {
		p := req.Path.AtName("gpu")
		m, err := gpu.Lookup(e.GPU.ValueString())
		if err == nil && !m.MIGCapable() {
			err = fmt.Errorf("%s does not support MIG; share it with mlplatform_time_slicing_config instead", m.Name)
		}
		if err != nil {
			resp.Diagnostics.AddAttributeError(p, "Invalid GPU model", fmt.Sprintf("Attribute %s: %s", p, err))
			return
		}
		model = m
	}
	if e.MigEnabled.IsUnknown() || e.MigDevices.IsUnknown() {
		return
	}
	p := req.Path.AtName("mig_devices")
	counts := map[string]types.Int64{}
	if !e.MigDevices.IsNull() && e.MigDevices.ElementsAs(ctx, &counts, false).HasError() {
		return
	}
	if !e.MigEnabled.ValueBool() {
		if len(counts) > 0 {
			resp.Diagnostics.AddAttributeError(p, "MIG devices without MIG",
				fmt.Sprintf("Attribute %s must be empty when mig_enabled is false (mig-parted refuses MIG devices on a GPU with MIG off)", p))
		}
		return
	}
	layout, ok := layoutOf(p, counts, &resp.Diagnostics)
	if !ok || layout.Instances() == 0 {
		return
	}
	if model != nil {
		if err := gpu.ValidateLayout(model, layout); err != nil {
			resp.Diagnostics.AddAttributeError(p, "Invalid MIG layout", fmt.Sprintf("Attribute %s: %s", p, err))
		}
		return
	}
	if ids != nil {
		if err := checkFilterLayout(ids, layout); err != nil {
			resp.Diagnostics.AddAttributeError(p, "Invalid MIG layout", fmt.Sprintf("Attribute %s: %s", p, err))
		}
		return
	}
	checkOnEveryModel(p, layout, resp)
}

// layoutOf turns mig_devices into a layout, refusing spellings mig-parted would not read.
// It reports false when a count is unknown or a name is refused.
func layoutOf(p path.Path, counts map[string]types.Int64, diags interface {
	AddAttributeError(path.Path, string, string)
}) (gpu.Layout, bool) {
	layout := gpu.Layout{}
	ok := true
	for name, n := range counts {
		if n.IsUnknown() {
			ok = false
			continue
		}
		parsed, err := gpu.ParseLayout(name)
		if _, same := parsed[name]; err != nil || len(parsed) != 1 || !same {
			hint := "a MIG profile name such as 1g.10gb or 1g.10gb+me"
			if len(parsed) == 1 {
				for canonical := range parsed {
					hint = fmt.Sprintf("%q, as nvidia-smi and mig-parted spell it", canonical)
				}
			}
			diags.AddAttributeError(p.AtMapKey(name), "Invalid MIG profile",
				fmt.Sprintf("Attribute %s: %q is not a MIG profile name mig-parted reads; write %s", p.AtMapKey(name), name, hint))
			ok = false
			continue
		}
		layout[name] = int(n.ValueInt64())
	}
	return layout, ok
}

// checkOnEveryModel validates a layout of an entry without a GPU filter, which mig-parted
// applies to any GPU: it must fit some model that offers its profiles, and a warning names
// the models that offer them but where it does not fit.
func checkOnEveryModel(p path.Path, layout gpu.Layout, resp *validator.ObjectResponse) {
	var fits, misfits []string
	var firstErr error
	for _, m := range gpu.Models() {
		if !offersAll(m, layout) {
			continue
		}
		if err := gpu.ValidateLayout(m, layout); err != nil {
			misfits = append(misfits, m.Name)
			if firstErr == nil {
				firstErr = err
			}
		} else {
			fits = append(fits, m.Name)
		}
	}
	// The models that offer the same profiles share a geometry, so the first one's reason
	// stands for all of them.
	likewise := ""
	if len(misfits) > 1 {
		likewise = " (likewise on " + strings.Join(misfits[1:], ", ") + ")"
	}
	switch {
	case len(fits) == 0 && len(misfits) == 0:
		resp.Diagnostics.AddAttributeError(p, "Invalid MIG layout", fmt.Sprintf(
			"Attribute %s: no GPU model offers all of the profiles of %s; set gpu and see its profiles with data.mlplatform_gpu",
			p, layout.Summary()))
	case len(fits) == 0:
		resp.Diagnostics.AddAttributeError(p, "Invalid MIG layout", fmt.Sprintf("Attribute %s: %s%s", p, firstErr, likewise))
	case len(misfits) > 0:
		resp.Diagnostics.AddAttributeWarning(p, "MIG layout does not fit every GPU", fmt.Sprintf(
			"Attribute %s fits %s, but without gpu the entry applies to every GPU model: %s%s. Set gpu to restrict it.",
			p, strings.Join(fits, ", "), firstErr, likewise))
	}
}

func offersAll(m *gpu.Model, l gpu.Layout) bool {
	for name := range l {
		if _, err := m.Profile(name); err != nil {
			return false
		}
	}
	return m.MIGCapable()
}

// warnWithoutAllDisabled warns when the configs lack all-disabled, the GPU Operator's default
// for nodes without the nvidia.com/mig.config label.
type warnWithoutAllDisabled struct{}

func (warnWithoutAllDisabled) Description(context.Context) string {
	return "should include " + gpu.ConfigAllDisabled
}
func (v warnWithoutAllDisabled) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (warnWithoutAllDisabled) ValidateMap(_ context.Context, req validator.MapRequest, resp *validator.MapResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if _, ok := req.ConfigValue.Elements()[gpu.ConfigAllDisabled]; !ok {
		resp.Diagnostics.AddAttributeWarning(req.Path, "No all-disabled config", fmt.Sprintf(
			"Attribute %s has no %q entry. Once the GPU Operator uses this ConfigMap its MIG manager knows only these "+
				"configs, and it applies migManager.config.default (%q unless changed) to nodes without the %s label.",
			req.Path, gpu.ConfigAllDisabled, gpu.ConfigAllDisabled, gpu.LabelMIGConfig))
	}
}

// entriesDisjoint refuses two entries of one config that select the same GPU: mig-parted walks
// the entries in order and applies each to every GPU it selects, so the later one repartitions
// what the earlier one made, and the MIG manager's check of the earlier one then never passes.
type entriesDisjoint struct{}

func (entriesDisjoint) Description(context.Context) string {
	return "two entries must not select the same GPU (by model and index)"
}
func (v entriesDisjoint) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (entriesDisjoint) ValidateList(ctx context.Context, req validator.ListRequest, resp *validator.ListResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	var entries []migEntryModel
	if req.ConfigValue.ElementsAs(ctx, &entries, false).HasError() {
		return
	}
	for j := range entries {
		for i := range j {
			shared, ok := sameGPU(ctx, entries[i], entries[j])
			if !ok || shared == "" {
				continue
			}
			p := req.Path.AtListIndex(j).AtName("devices")
			resp.Diagnostics.AddAttributeError(p, "Entries select the same GPU", fmt.Sprintf(
				"Attribute %s: entry %d selects %s, which entry %d selects too; mig-parted would apply both to it, "+
					"the later undoing the earlier. Give each GPU one entry (by gpu and devices).", p, j, shared, i))
			return
		}
	}
}

// sameGPU names a GPU both entries select ("" when none); ok is false while either is unknown or
// names a model the catalog lacks (refused elsewhere).
func sameGPU(ctx context.Context, a, b migEntryModel) (shared string, ok bool) {
	models, ok := sharedModels(a.GPU, b.GPU)
	if !ok || models == "" {
		return "", ok
	}
	if a.Devices.IsUnknown() || b.Devices.IsUnknown() {
		return "", false
	}
	var da, db []int64
	_ = a.Devices.ElementsAs(ctx, &da, false)
	_ = b.Devices.ElementsAs(ctx, &db, false)
	switch {
	case a.Devices.IsNull() && b.Devices.IsNull():
		return "every " + models + " GPU", true
	case a.Devices.IsNull():
		return fmt.Sprintf("%s GPU %d", models, db[0]), true
	case b.Devices.IsNull():
		return fmt.Sprintf("%s GPU %d", models, da[0]), true
	}
	for _, d := range db {
		if slices.Contains(da, d) {
			return fmt.Sprintf("%s GPU %d", models, d), true
		}
	}
	return "", true
}

// sharedModels names what two entries' gpu filters both match: "" when they match no common PCI
// device id; a null gpu matches every model.
func sharedModels(a, b types.String) (string, bool) {
	if a.IsUnknown() || b.IsUnknown() {
		return "", false
	}
	switch {
	case a.IsNull() && b.IsNull():
		return "any", true
	case a.IsNull():
		return b.ValueString(), true
	case b.IsNull():
		return a.ValueString(), true
	}
	ia, ib := gpuIDs(a.ValueString()), gpuIDs(b.ValueString())
	if ia == nil || ib == nil {
		return "", false
	}
	if !sharesID(ia, ib) {
		return "", true
	}
	if m, err := gpu.Lookup(a.ValueString()); err == nil {
		return m.Name, true
	}
	return a.ValueString(), true
}
