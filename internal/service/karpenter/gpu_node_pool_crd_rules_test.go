package karpenter_test

import (
	"fmt"
	"testing"
)

// A rule only the NodePool CRD knows (its CEL rules on the node template's labels) refuses the
// pool at plan, on node_labels, in Karpenter's words, with no API call: the provider runs the
// CRD's own rules.
func TestGPUNodePool_nodeLabelTheCRDRestrictsFailsAtPlan(t *testing.T) {
	refuseAtPlan(t, map[string]struct {
		config func(string) string
		want   string
	}{
		"kubernetes.io/hostname": {func(p string) string {
			return p + fmt.Sprintf(`
resource "mlplatform_gpu_node_pool" "test" {
  name        = %q
  node_class  = "gpu"
  gpu         = { model = "a100-80gb" }
  on_demand   = { max_gpus = 8 }
  node_labels = { "kubernetes.io/hostname" = "gpu-1" }
}
`, "crd-rules")
		}, `(?s)NodePool\s+crd-rules-on-demand\s+would\s+be\s+refused\s+by\s+the\s+cluster.*` +
			`node_labels\s+=.*` +
			`spec.template.metadata.labels:\s+Invalid\s+value:\s+label\s+"kubernetes.io/hostname"\s+is\s+restricted`},
	})
}
