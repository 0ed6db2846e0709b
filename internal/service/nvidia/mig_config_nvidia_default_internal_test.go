package nvidia

import (
	"context"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"sigs.k8s.io/yaml"
)

// NVIDIA's default mig-parted config of the pinned GPU Operator (internal/gpu/testdata), read as
// the resource reads a ConfigMap, passes the resource's plan-time checks entry by entry, and each
// entry writes back the device-filter it was read from. Its multi-GPU filters read back as PCI ids.
func TestMigConfig_nvidiaDefaultConfigAccepted(t *testing.T) {
	raw, err := os.ReadFile("../../gpu/testdata/gpu-operator-default-mig-parted-config.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var cm struct {
		Data map[string]string `json:"data"`
	}
	if err := yaml.Unmarshal(raw, &cm); err != nil {
		t.Fatal(err)
	}
	spec, err := parseMigParted(cm.Data[migPartedKey])
	if err != nil {
		t.Fatal(err)
	}
	names := make([]string, 0, len(spec.MigConfigs))
	for n := range spec.MigConfigs {
		names = append(names, n)
	}
	sort.Strings(names)
	entries, byIDs := 0, 0
	for _, name := range names {
		for i, e := range spec.MigConfigs[name] {
			entries++
			null := migEntryModel{GPU: types.StringNull(), Devices: types.ListNull(types.Int64Type), MigDevices: types.MapNull(types.Int64Type)}
			m := flattenMigEntry(e, null)
			if filterIDs(m.GPU.ValueString()) != nil {
				byIDs++
			}
			devices := map[string]attr.Value{}
			for p, n := range e.MigDevices {
				devices[p] = types.Int64Value(n)
			}
			obj := migEntry(m.GPU, devices)
			if !e.MigEnabled {
				obj = types.ObjectValueMust(obj.AttributeTypes(context.Background()), map[string]attr.Value{
					"gpu": m.GPU, "devices": types.ListNull(types.Int64Type), "mig_enabled": types.BoolValue(false),
					"mig_devices": types.MapNull(types.Int64Type)})
			}
			if d := validateEntry(obj); d.HasError() {
				t.Errorf("%s[%d] (gpu %s): %v", name, i, m.GPU, d.Errors())
			}
			m.MigDevices = types.MapValueMust(types.Int64Type, devices)
			back := expandMigEntry(context.Background(), m, &diag.Diagnostics{})
			want, _ := e.DeviceFilter.([]string)
			if got, _ := back.DeviceFilter.([]string); !slices.EqualFunc(got, want, func(a, b string) bool { return a == b }) {
				t.Errorf("%s[%d]: writes device-filter %v, read %v", name, i, got, want)
			}
		}
	}
	t.Logf("%d entries, %d filtered by the PCI ids of several models", entries, byIDs)
	if entries < 90 || byIDs < 4 {
		t.Errorf("checked %d entries, %d of them by PCI ids", entries, byIDs)
	}
}

// A PCI id list naming a GPU the catalog lacks, or with a layout one of its GPUs cannot take, is
// refused naming the attribute.
func TestMigEntryRules_pciIDList(t *testing.T) {
	d := validateEntry(migEntry(types.StringValue("0x20B010DE,0x999910DE"), map[string]attr.Value{"1g.5gb": types.Int64Value(7)}))
	if !d.HasError() || d.Errors()[0].Detail() != "Attribute e.gpu: PCI device id 0x999910DE is no GPU model of the catalog" {
		t.Errorf("unknown id: %v", d)
	}
	// 1g.10gb x7 fits the 80GB A100 but not the 40GB, where it spans two memory slices.
	d = validateEntry(migEntry(types.StringValue("0x20B210DE,0x20B010DE"), map[string]attr.Value{"1g.10gb": types.Int64Value(7)}))
	if !d.HasError() || !strings.HasPrefix(d.Errors()[0].Detail(), "Attribute e.mig_devices: on 0x20B010DE (A100-SXM4-40GB): ") {
		t.Errorf("misfit: %v", d)
	}
}
