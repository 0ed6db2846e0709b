package nvidia

import (
	"reflect"
	"testing"
)

func TestDevicePluginRoundTrip(t *testing.T) {
	mixed := "mixed"
	in := devicePluginConfig{
		Version: devicePluginVersion,
		Flags:   &devicePluginFlags{MigStrategy: &mixed},
		Sharing: devicePluginSharing{TimeSlicing: devicePluginTimeSlicing{
			FailRequestsGreaterThanOne: true,
			Resources: []devicePluginReplicas{
				{Name: "nvidia.com/gpu", Replicas: 4},
				{Name: "nvidia.com/mig-1g.10gb", Replicas: 2, Rename: "nvidia.com/small"},
			},
		}},
	}
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
	if !ts.FailRequestsGreaterThanOne || len(ts.Resources) != 1 || ts.Resources[0].Replicas != 4 || c.Flags != nil {
		t.Errorf("parsed %#v", c)
	}
}

func TestParseDevicePluginRefuses(t *testing.T) {
	for name, text := range map[string]string{
		"version v2":   "version: v2\nsharing:\n  timeSlicing:\n    resources: [{name: nvidia.com/gpu, replicas: 2}]",
		"no resources": "version: v1\nsharing:\n  timeSlicing: {}",
		"not yaml":     "version: v1\nsharing: [",
	} {
		if _, err := parseDevicePlugin(text); err == nil {
			t.Errorf("%s: parsed without error", name)
		}
	}
}
