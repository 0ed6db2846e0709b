package nvidia

import (
	"fmt"

	"sigs.k8s.io/yaml"
)

// The file format of NVIDIA's MIG partition editor (mig-parted), which the GPU Operator's MIG
// manager reads from the `config.yaml` key of the ConfigMap named by `migManager.config.name`.
// NVIDIA/mig-parted is not on the Go module proxy, so these are minimal copies of the upstream
// types at NVIDIA/mig-parted@bd7160f4 (see /work/shared/reference/gpu_reference.yaml):
//   - api/spec/v1/spec.go: Spec{Version, MigConfigs} and MigConfigSpec{DeviceFilter, Devices,
//     MigEnabled, MigDevices}, with the rules of their UnmarshalJSON methods;
//   - deployments/systemd/config-default.yaml: the shape of the default configs.

const (
	migPartedVersion = "v1"          // Spec.Version: the only value mig-parted accepts
	migPartedKey     = "config.yaml" // the ConfigMap key the MIG manager reads
	allDevices       = "all"         // MigConfigSpec.Devices for every GPU of the node
)

// migPartedSpec is mig-parted's Spec: named configs (the values of the node label
// nvidia.com/mig.config), each a list of entries applied to the GPUs they select.
type migPartedSpec struct {
	Version    string                      `json:"version"`
	MigConfigs map[string][]migPartedEntry `json:"mig-configs"`
}

// migPartedEntry is mig-parted's MigConfigSpec.
type migPartedEntry struct {
	// DeviceFilter is a string or a list of PCI "device id + vendor id" strings such as
	// "0x20B210DE"; absent, the entry applies to every GPU model. The provider writes a list.
	DeviceFilter any `json:"device-filter,omitempty"`
	// Devices is "all" or a list of GPU indices.
	Devices any `json:"devices"`
	// MigEnabled turns MIG mode on or off for the selected GPUs.
	MigEnabled bool `json:"mig-enabled"`
	// MigDevices maps a MIG profile ("1g.10gb", "1g.10gb+me") to instances per GPU. mig-parted
	// requires it, possibly empty, when MIG is enabled and refuses entries when it is not:
	// omitzero leaves out a nil map but writes an empty one as {}.
	MigDevices map[string]int64 `json:"mig-devices,omitzero"`
}

func marshalMigParted(s migPartedSpec) (string, error) {
	b, err := yaml.Marshal(s)
	return string(b), err
}

// parseMigParted reads a mig-parted config and normalises its union-typed fields: DeviceFilter
// becomes a []string (or stays nil when absent) and Devices either allDevices or a []int64.
func parseMigParted(text string) (migPartedSpec, error) {
	var s migPartedSpec
	if err := yaml.Unmarshal([]byte(text), &s); err != nil {
		return s, err
	}
	if s.Version != migPartedVersion {
		return s, fmt.Errorf("version is %q, mig-parted only reads %q", s.Version, migPartedVersion)
	}
	for name, entries := range s.MigConfigs {
		for i := range entries {
			e := &entries[i]
			var err error
			if e.DeviceFilter, err = stringOrList(e.DeviceFilter); err != nil {
				return s, fmt.Errorf("mig-configs[%s][%d].device-filter: %w", name, i, err)
			}
			if e.Devices, err = allOrIndices(e.Devices); err != nil {
				return s, fmt.Errorf("mig-configs[%s][%d].devices: %w", name, i, err)
			}
		}
	}
	return s, nil
}

func stringOrList(v any) (any, error) {
	switch v := v.(type) {
	case nil:
		return nil, nil
	case string:
		return []string{v}, nil
	case []any:
		out := make([]string, len(v))
		for i, x := range v {
			s, ok := x.(string)
			if !ok {
				return nil, fmt.Errorf("entry %v is not a string", x)
			}
			out[i] = s
		}
		return out, nil
	}
	return nil, fmt.Errorf("%v is neither a string nor a list of strings", v)
}

func allOrIndices(v any) (any, error) {
	if v == allDevices {
		return allDevices, nil
	}
	list, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("%v is neither %q nor a list of GPU indices", v, allDevices)
	}
	out := make([]int64, len(list))
	for i, x := range list {
		n, ok := x.(float64) // JSON numbers
		if !ok || n != float64(int64(n)) || n < 0 {
			return nil, fmt.Errorf("entry %v is not a GPU index", x)
		}
		out[i] = int64(n)
	}
	return out, nil
}

// deviceFilter and devices give the normalised fields of an entry returned by parseMigParted.
func (e migPartedEntry) deviceFilter() []string {
	ids, _ := e.DeviceFilter.([]string)
	return ids
}

func (e migPartedEntry) devices() (indices []int64, all bool) {
	if e.Devices == allDevices {
		return nil, true
	}
	indices, _ = e.Devices.([]int64)
	return indices, false
}
