package nvidia

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/gpu"
)

// An entry's gpu is a model name, or the PCI device ids of a device-filter that no single model
// of the catalog has (NVIDIA's default config files several SKUs under one entry), comma-separated
// as such a filter reads back. These helpers read the second form.

var pciDeviceID = regexp.MustCompile(`^0[xX][0-9a-fA-F]{8}$`)

// filterIDs returns the PCI device ids s lists, or nil when s is not such a list.
func filterIDs(s string) []string {
	var ids []string
	for part := range strings.SplitSeq(s, ",") {
		part = strings.TrimSpace(part)
		if !pciDeviceID.MatchString(part) {
			return nil
		}
		ids = append(ids, part)
	}
	return ids
}

// checkFilterLayout checks a layout against the GPUs a list of PCI ids selects: each id must be a
// GPU of the catalog, and on each the layout must fit one of the models with that id (GB200 has
// two sets of profile names under one id).
func checkFilterLayout(ids []string, layout gpu.Layout) error {
	for _, id := range ids {
		models := gpu.ModelsForPCIDeviceID(id)
		if len(models) == 0 {
			return fmt.Errorf("PCI device id %s is no GPU model of the catalog", id)
		}
		if layout == nil {
			continue
		}
		var firstErr error
		for _, m := range models {
			err := fmt.Errorf("%s does not offer every profile of %s", m.Name, layout.Summary())
			if offersAll(m, layout) {
				err = gpu.ValidateLayout(m, layout)
			}
			if err == nil {
				firstErr = nil
				break
			}
			if firstErr == nil {
				firstErr = err
			}
		}
		if firstErr != nil {
			return fmt.Errorf("on %s (%s): %w", id, models[0].Name, firstErr)
		}
	}
	return nil
}

// gpuIDs are the PCI device ids an entry's gpu selects: a model's, or the listed ones; nil when
// unknown to the catalog.
func gpuIDs(s string) []string {
	if ids := filterIDs(s); ids != nil {
		return ids
	}
	if m, err := gpu.Lookup(s); err == nil {
		return m.PCIDeviceIDs
	}
	return nil
}

// sharesID reports whether two id lists share an id, in any case.
func sharesID(a, b []string) bool {
	for _, id := range a {
		if slices.ContainsFunc(b, func(o string) bool { return strings.EqualFold(o, id) }) {
			return true
		}
	}
	return false
}
