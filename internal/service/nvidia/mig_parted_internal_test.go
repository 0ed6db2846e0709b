package nvidia

import (
	"reflect"
	"strings"
	"testing"
)

// The ConfigMap example of the reference (NVIDIA's own shape): string and list filters, device
// index lists, MIG on and off.
const upstreamMigParted = `
version: v1
mig-configs:
  all-disabled:
    - devices: all
      mig-enabled: false
  a100-80gb-3x2g-1x1g:
    - device-filter: ["0x20B210DE"]
      devices: all
      mig-enabled: true
      mig-devices:
        "2g.20gb": 3
        "1g.20gb": 1
  custom-mixed:
    - device-filter: "0x20B210DE"
      devices: [0,1,2,3]
      mig-enabled: false
    - devices: [4,5,6,7]
      mig-enabled: true
      mig-devices:
        "3g.40gb": 1
        "4g.40gb": 1
`

func TestParseMigParted(t *testing.T) {
	s, err := parseMigParted(upstreamMigParted)
	if err != nil {
		t.Fatal(err)
	}
	mixed := s.MigConfigs["custom-mixed"]
	if got := mixed[0].deviceFilter(); !reflect.DeepEqual(got, []string{"0x20B210DE"}) {
		t.Errorf("string device-filter = %v", got)
	}
	if idx, all := mixed[1].devices(); all || !reflect.DeepEqual(idx, []int64{4, 5, 6, 7}) {
		t.Errorf("devices = %v, %v", idx, all)
	}
	if _, all := s.MigConfigs["all-disabled"][0].devices(); !all {
		t.Error("devices: all not read as all")
	}
	if got := s.MigConfigs["a100-80gb-3x2g-1x1g"][0].MigDevices; !reflect.DeepEqual(got, map[string]int64{"2g.20gb": 3, "1g.20gb": 1}) {
		t.Errorf("mig-devices = %v", got)
	}
}

func TestMigPartedRoundTrip(t *testing.T) {
	in := migPartedSpec{Version: migPartedVersion, MigConfigs: map[string][]migPartedEntry{
		"all-disabled": {{Devices: allDevices}},
		"all-enabled":  {{Devices: allDevices, MigEnabled: true, MigDevices: map[string]int64{}}},
		"half":         {{DeviceFilter: []string{"0x233010DE"}, Devices: []int64{0, 1}, MigEnabled: true, MigDevices: map[string]int64{"1g.10gb+me": 1}}},
	}}
	text, err := marshalMigParted(in)
	if err != nil {
		t.Fatal(err)
	}
	// mig-parted requires mig-devices with MIG on (even empty) and refuses it with MIG off.
	if !strings.Contains(text, "mig-devices: {}") {
		t.Errorf("all-enabled lost its empty mig-devices:\n%s", text)
	}
	if strings.Count(text, "mig-devices") != 2 {
		t.Errorf("want mig-devices only where MIG is on:\n%s", text)
	}
	out, err := parseMigParted(text)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(in, out) {
		t.Errorf("round trip:\n got %#v\nwant %#v\n%s", out, in, text)
	}
}

func TestParseMigPartedRefuses(t *testing.T) {
	for name, text := range map[string]string{
		"no version":    "mig-configs: {}",
		"version v2":    "version: v2\nmig-configs: {}",
		"devices word":  "version: v1\nmig-configs:\n  a:\n  - devices: some\n    mig-enabled: false",
		"devices index": "version: v1\nmig-configs:\n  a:\n  - devices: [-1]\n    mig-enabled: false",
		"filter type":   "version: v1\nmig-configs:\n  a:\n  - devices: all\n    device-filter: 7\n    mig-enabled: false",
		"not yaml":      "version: v1\nmig-configs: [",
	} {
		if _, err := parseMigParted(text); err == nil {
			t.Errorf("%s: parsed without error", name)
		}
	}
}
