package nvidia

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
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
	resourceType := map[string]attr.Type{"name": types.StringType, "replicas": types.Int64Type, "rename": types.StringType}
	config := func(renameByDefault bool, rename string) types.Object {
		r := types.ObjectValueMust(resourceType, map[string]attr.Value{
			"name": types.StringValue("nvidia.com/gpu"), "replicas": types.Int64Value(2), "rename": types.StringValue(rename),
		})
		return types.ObjectValueMust(map[string]attr.Type{
			"mig_strategy": types.StringType, "rename_by_default": types.BoolType, "fail_requests_greater_than_one": types.BoolType,
			"resources": types.ListType{ElemType: types.ObjectType{AttrTypes: resourceType}},
		}, map[string]attr.Value{
			"mig_strategy": types.StringNull(), "rename_by_default": types.BoolValue(renameByDefault),
			"fail_requests_greater_than_one": types.BoolNull(),
			"resources":                      types.ListValueMust(types.ObjectType{AttrTypes: resourceType}, []attr.Value{r}),
		})
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
