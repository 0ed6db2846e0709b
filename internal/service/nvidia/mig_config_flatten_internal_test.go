package nvidia

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"
)

// An entry written for a model that shares its PCI ids with another (GB200-189GB and
// GB200-186GB) reads back under the name the user gave, not as the other model.
func TestFlattenMigEntry_keepsModelSharingPCIIDs(t *testing.T) {
	read := migPartedEntry{DeviceFilter: []string{"0x294110DE"}, Devices: allDevices, MigEnabled: true,
		MigDevices: map[string]int64{"3g.95gb": 2}}
	for _, name := range []string{"gb200-189gb", "GB200-186GB"} {
		prior := migEntryModel{GPU: types.StringValue(name), Devices: types.ListNull(types.Int64Type),
			MigDevices: types.MapNull(types.Int64Type)}
		if got := flattenMigEntry(read, prior).GPU.ValueString(); got != name {
			t.Errorf("prior %s read back as %s", name, got)
		}
	}
	fresh := migEntryModel{GPU: types.StringNull(), Devices: types.ListNull(types.Int64Type), MigDevices: types.MapNull(types.Int64Type)}
	if got := flattenMigEntry(read, fresh).GPU.ValueString(); got != "GB200-186GB" {
		t.Errorf("imported entry read back as %s, want the first model with those ids", got)
	}
}
