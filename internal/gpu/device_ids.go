package gpu

import (
	"fmt"
	"slices"
	"strings"
)

// Helpers for reading back what the provider writes into mig-parted and device-plugin configs:
// PCI device ids (mig-parted's device-filter) and extended resource names.

// ModelForPCIDeviceIDs returns the model whose PCIDeviceIDs are exactly ids (in any order and
// case), i.e. the model a mig-parted device-filter written for it selects.
func ModelForPCIDeviceIDs(ids []string) (*Model, error) {
	want := normalizeIDs(ids)
	if len(want) == 0 {
		return nil, fmt.Errorf("an empty device-filter selects no GPU model")
	}
	for _, m := range catalog.models {
		if m.MIGCapable() && slices.Equal(normalizeIDs(m.PCIDeviceIDs), want) {
			return m, nil
		}
	}
	return nil, fmt.Errorf("device-filter %s is not the PCI device id list of any GPU model in the catalog", strings.Join(ids, ","))
}

func normalizeIDs(ids []string) []string {
	out := make([]string, 0, len(ids))
	for _, id := range ids {
		if id = strings.TrimSpace(id); id != "" {
			out = append(out, "0x"+strings.ToUpper(strings.TrimPrefix(strings.ToLower(id), "0x")))
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// ParseResourceName reads an extended resource name the NVIDIA device plugin advertises by
// default: ResourceGPU gives profile "", and "nvidia.com/mig-<profile>" (mixed strategy, "+me"
// written ".me") gives the profile as nvidia-smi spells it, e.g. "1g.10gb+me". The profile's
// form is checked, not whether a given model offers it.
func ParseResourceName(name string) (profile string, err error) {
	if name == ResourceGPU {
		return "", nil
	}
	// The device plugin writes the profile lower-case with "+" as "."; anything else (case,
	// spaces, "+") is not a name it advertises, so the round trip must be exact.
	if raw, ok := strings.CutPrefix(name, migResourcePrefix); ok {
		p := normalizeProfileName(raw)
		if _, _, _, valid := parseProfileName(p); valid && dotted(p) == raw {
			return p, nil
		}
	}
	return "", fmt.Errorf("%q is not a resource the NVIDIA device plugin advertises: use %s or %s<profile> such as %s1g.10gb (mixed MIG strategy, \"+me\" written \".me\")",
		name, ResourceGPU, migResourcePrefix, migResourcePrefix)
}

// ModelsForPCIDeviceID returns the models whose PCIDeviceIDs include id (any case), in catalog
// order: one, or two where a GPU has reported two sets of profile names (GB200).
func ModelsForPCIDeviceID(id string) []*Model {
	want := normalizeIDs([]string{id})
	var out []*Model
	for _, m := range catalog.models {
		if len(want) == 1 && slices.Contains(normalizeIDs(m.PCIDeviceIDs), want[0]) {
			out = append(out, m)
		}
	}
	return out
}
