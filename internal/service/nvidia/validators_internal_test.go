package nvidia

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// Warnings cannot be asserted through terraform-plugin-testing, so the validators that warn are
// called directly.

func migEntry(gpuName attr.Value, devices map[string]attr.Value) types.Object {
	return types.ObjectValueMust(map[string]attr.Type{
		"gpu": types.StringType, "devices": types.ListType{ElemType: types.Int64Type},
		"mig_enabled": types.BoolType, "mig_devices": types.MapType{ElemType: types.Int64Type},
	}, map[string]attr.Value{
		"gpu": gpuName, "devices": types.ListNull(types.Int64Type), "mig_enabled": types.BoolValue(true),
		"mig_devices": types.MapValueMust(types.Int64Type, devices),
	})
}

func validateEntry(v types.Object) diag.Diagnostics {
	resp := &validator.ObjectResponse{}
	migEntryRules{}.ValidateObject(context.Background(), validator.ObjectRequest{Path: path.Root("e"), ConfigValue: v}, resp)
	return resp.Diagnostics
}

func TestMigEntryRulesWithoutGPU(t *testing.T) {
	// 1g.10gb x7 fits the 80GB models but not A100-40GB, where 1g.10gb spans two slices.
	d := validateEntry(migEntry(types.StringNull(), map[string]attr.Value{"1g.10gb": types.Int64Value(7)}))
	if d.HasError() || d.WarningsCount() != 1 {
		t.Fatalf("want one warning, got %v", d)
	}
	if w := d.Warnings()[0].Detail(); !strings.Contains(w, "fits A100-SXM4-80GB") || !strings.Contains(w, "A100-SXM4-40GB") {
		t.Errorf("warning does not name where it fits and where not: %s", w)
	}
	// Unknown values are checked later, not refused.
	if d := validateEntry(migEntry(types.StringUnknown(), map[string]attr.Value{"1g.10gb": types.Int64Value(9)})); d.HasError() {
		t.Errorf("unknown gpu: %v", d)
	}
	if d := validateEntry(migEntry(types.StringValue("a100"), map[string]attr.Value{"1g.10gb": types.Int64Unknown()})); d.HasError() {
		t.Errorf("unknown count: %v", d)
	}
	if d := validateEntry(migEntry(types.StringValue("a100"), map[string]attr.Value{"1g.10gb": types.Int64Value(7)})); len(d) != 0 {
		t.Errorf("valid entry: %v", d)
	}
}

func TestWarnWithoutAllDisabled(t *testing.T) {
	entries := types.ObjectValueMust(map[string]attr.Type{"x": types.StringType}, map[string]attr.Value{"x": types.StringNull()})
	for name, want := range map[string]int{"all-disabled": 0, "custom": 1} {
		resp := &validator.MapResponse{}
		v := types.MapValueMust(entries.Type(context.Background()), map[string]attr.Value{name: entries})
		warnWithoutAllDisabled{}.ValidateMap(context.Background(), validator.MapRequest{Path: path.Root("mig_configs"), ConfigValue: v}, resp)
		if got := resp.Diagnostics.WarningsCount(); got != want {
			t.Errorf("configs {%s}: %d warnings, want %d", name, got, want)
		}
	}
}

func TestTimeSlicingRulesRenameWarning(t *testing.T) {
	objectType := schema.NestedAttributeObject{Attributes: timeSlicingAttributes()}.Type().(types.ObjectType)
	resourceType := objectType.AttrTypes["resources"].(types.ListType).ElemType.(types.ObjectType)
	config := func(renameByDefault bool, rename string) types.Object {
		r := types.ObjectValueMust(resourceType.AttrTypes, map[string]attr.Value{
			"name": types.StringValue("nvidia.com/gpu"), "replicas": types.Int64Value(2), "rename": types.StringValue(rename),
		})
		values := map[string]attr.Value{}
		for name, t := range objectType.AttrTypes {
			values[name], _ = t.ValueFromTerraform(context.Background(), tftypes.NewValue(t.TerraformType(context.Background()), nil))
		}
		values["rename_by_default"] = types.BoolValue(renameByDefault)
		values["resources"] = types.ListValueMust(resourceType, []attr.Value{r})
		return types.ObjectValueMust(objectType.AttrTypes, values)
	}
	cases := []struct {
		renameByDefault bool
		rename          string
		warnings        int
	}{
		{false, "nvidia.com/shared-gpu", 1}, // ignored by the device plugin
		{true, "nvidia.com/gpu.shared", 0},  // what rename_by_default does anyway
	}
	for _, c := range cases {
		resp := &validator.ObjectResponse{}
		timeSlicingRules{}.ValidateObject(context.Background(), validator.ObjectRequest{Path: path.Root("c"), ConfigValue: config(c.renameByDefault, c.rename)}, resp)
		if resp.Diagnostics.HasError() || resp.Diagnostics.WarningsCount() != c.warnings {
			t.Errorf("rename_by_default=%v rename=%s: %v, want %d warnings", c.renameByDefault, c.rename, resp.Diagnostics, c.warnings)
		}
	}
}

// The GPUs only NVIDIA's MIG configs name (no EC2 type carries them) are accepted in an entry with
// their own profiles, checked by placement, and the entry filters on their PCI ids.
func TestMigEntryRules_gpusWithoutEC2(t *testing.T) {
	for alias, c := range map[string]struct {
		fits, refused map[string]attr.Value
		filter        []string
	}{
		"h20":            {map[string]attr.Value{"3g.48gb": types.Int64Value(1), "2g.24gb": types.Int64Value(1), "1g.12gb": types.Int64Value(2)}, map[string]attr.Value{"4g.48gb": types.Int64Value(2)}, []string{"0x232910DE"}},
		"a800":           {map[string]attr.Value{"1g.10gb": types.Int64Value(7)}, map[string]attr.Value{"3g.40gb": types.Int64Value(2), "1g.10gb": types.Int64Value(1)}, []string{"0x20F310DE"}},
		"a100-pcie-40gb": {map[string]attr.Value{"1g.10gb": types.Int64Value(4)}, map[string]attr.Value{"1g.10gb": types.Int64Value(5)}, []string{"0x20B110DE", "0x20F110DE"}},
		"h200-nvl":       {map[string]attr.Value{"1g.35gb": types.Int64Value(4)}, map[string]attr.Value{"1g.18gb": types.Int64Value(8)}, []string{"0x233B10DE"}},
		"h800-nvl":       {map[string]attr.Value{"3g.47gb": types.Int64Value(2)}, map[string]attr.Value{"1g.10gb": types.Int64Value(1)}, []string{"0x233A10DE"}},
		"pg506":          {map[string]attr.Value{"7g.96gb": types.Int64Value(1)}, map[string]attr.Value{"7g.96gb": types.Int64Value(2)}, []string{"0x20B610DE"}},
	} {
		if d := validateEntry(migEntry(types.StringValue(alias), c.fits)); len(d) != 0 {
			t.Errorf("%s: %v", alias, d)
		}
		if d := validateEntry(migEntry(types.StringValue(alias), c.refused)); !d.HasError() ||
			!strings.Contains(d.Errors()[0].Detail(), "Attribute e.mig_devices") {
			t.Errorf("%s: want an error on e.mig_devices, got %v", alias, d)
		}
		out := expandMigEntry(context.Background(), migEntryModel{GPU: types.StringValue(alias), Devices: types.ListNull(types.Int64Type),
			MigEnabled: types.BoolValue(true), MigDevices: types.MapValueMust(types.Int64Type, c.fits)}, &diag.Diagnostics{})
		if got, _ := out.DeviceFilter.([]string); !slices.Equal(got, c.filter) {
			t.Errorf("%s: device-filter %v, want %v", alias, out.DeviceFilter, c.filter)
		}
		if back := flattenMigEntry(out, migEntryModel{GPU: types.StringValue(alias)}); back.GPU.ValueString() != alias {
			t.Errorf("%s reads back as %s", alias, back.GPU)
		}
	}
}
