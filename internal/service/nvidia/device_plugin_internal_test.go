package nvidia

import (
	"reflect"
	"testing"
)

func TestDevicePluginRoundTrip(t *testing.T) {
	mixed, single, root, yes, no, index := "mixed", "single", "/run/nvidia/driver", true, false, "index"
	for _, in := range []devicePluginConfig{
		{Version: devicePluginVersion, Flags: &devicePluginFlags{MigStrategy: &mixed},
			Sharing: &devicePluginSharing{TimeSlicing: &devicePluginReplicated{
				FailRequestsGreaterThanOne: &yes,
				Resources: []devicePluginReplicas{
					{Name: "nvidia.com/gpu", Replicas: 4},
					{Name: "nvidia.com/mig-1g.10gb", Replicas: 2, Rename: "nvidia.com/small"},
				},
			}}},
		{Version: devicePluginVersion, Flags: &devicePluginFlags{MigStrategy: &single},
			Sharing: &devicePluginSharing{MPS: &devicePluginReplicated{RenameByDefault: true,
				Resources: []devicePluginReplicas{{Name: "nvidia.com/gpu", Replicas: 10}}}}},
		{Version: devicePluginVersion, Flags: &devicePluginFlags{FailOnInitError: &no, NvidiaDriverRoot: &root,
			Plugin: &devicePluginPluginFlags{PassDeviceSpecs: &yes, DeviceListStrategy: deviceListStrategy{"envvar", "cdi-cri"}, DeviceIDStrategy: &index}}},
	} {
		text, err := marshalDevicePlugin(in)
		if err != nil {
			t.Fatal(err)
		}
		out, err := parseDevicePlugin(text)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(in, out) {
			t.Errorf("round trip:\n got %#v\nwant %#v\n%s", out, in, text)
		}
	}
}

// NVIDIA's README example reads as written.
func TestParseDevicePluginUpstreamExample(t *testing.T) {
	c, err := parseDevicePlugin(`
version: v1
sharing:
  timeSlicing:
    renameByDefault: false
    failRequestsGreaterThanOne: true
    resources:
    - name: nvidia.com/gpu
      replicas: 4
`)
	if err != nil {
		t.Fatal(err)
	}
	ts := c.Sharing.TimeSlicing
	if !*ts.FailRequestsGreaterThanOne || len(ts.Resources) != 1 || ts.Resources[0].Replicas != 4 || c.Flags != nil {
		t.Errorf("parsed %#v", c)
	}
}

// The flags example of NVIDIA's README ("As a configuration file") reads as written, a device
// list strategy given as one string included; an MPS config takes precedence over time-slicing.
func TestParseDevicePluginFlagsAndMPS(t *testing.T) {
	c, err := parseDevicePlugin(`
version: v1
flags:
  migStrategy: "none"
  failOnInitError: true
  nvidiaDriverRoot: "/"
  plugin:
    passDeviceSpecs: false
    deviceListStrategy: "envvar"
    deviceIDStrategy: "uuid"
sharing:
  timeSlicing:
    resources: [{name: nvidia.com/gpu, replicas: 2}]
  mps:
    resources: [{name: nvidia.com/gpu, replicas: 10}]
`)
	if err != nil {
		t.Fatal(err)
	}
	f := c.Flags
	if *f.MigStrategy != "none" || !*f.FailOnInitError || *f.NvidiaDriverRoot != "/" || *f.Plugin.PassDeviceSpecs ||
		!reflect.DeepEqual(f.Plugin.DeviceListStrategy, deviceListStrategy{"envvar"}) || *f.Plugin.DeviceIDStrategy != "uuid" {
		t.Errorf("flags %#v", f)
	}
	if s, r := c.strategy(); s != sharingMPS || r.Resources[0].Replicas != 10 {
		t.Errorf("strategy %s %#v", s, r)
	}
}

func TestParseDevicePluginRefuses(t *testing.T) {
	for name, text := range map[string]string{
		"version v2":       "version: v2\nsharing:\n  timeSlicing:\n    resources: [{name: nvidia.com/gpu, replicas: 2}]",
		"no resources":     "version: v1\nsharing:\n  timeSlicing: {}",
		"no MPS resources": "version: v1\nsharing:\n  mps: {}",
		"bad device list":  "version: v1\nflags:\n  plugin:\n    deviceListStrategy: {a: b}",
		"not yaml":         "version: v1\nsharing: [",
	} {
		if _, err := parseDevicePlugin(text); err == nil {
			t.Errorf("%s: parsed without error", name)
		}
	}
}
