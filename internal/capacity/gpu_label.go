package capacity

import (
	"fmt"
	"strings"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/gpu"
)

// GPULabel is the value of LabelGPU on the nodes of a pool of model m: its canonical name, lower
// case ("a100-sxm4-80gb").
func GPULabel(m *gpu.Model) string { return strings.ToLower(m.Name) }

// CheckGPULabel refuses a LabelGPU value that no pool writes, as a flavor selecting it would admit
// runs that no node takes. It suggests the value for a model the value names otherwise (an alias).
func CheckGPULabel(v string) error {
	for _, m := range gpu.Models() {
		if v == GPULabel(m) {
			return nil
		}
	}
	if m, err := gpu.Lookup(v); err == nil {
		return fmt.Errorf("no GPU node pool's nodes carry %s=%s: a pool of %s labels them %s=%s", LabelGPU, v, v, LabelGPU, GPULabel(m))
	}
	return fmt.Errorf("no GPU node pool's nodes carry %s=%s: pools label their nodes with the model's canonical name, lower case (e.g. %s); %q names no model",
		LabelGPU, v, GPULabel(gpu.Models()[0]), v)
}
