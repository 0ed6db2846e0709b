package karpenter_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/capacity"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/service/karpenter"
)

// The longest pool name: its NodePool <name>-on-demand is a 63-character label value.
const maxPoolName = 53

// namedPool is a mixed MIG H100 pool with billing, so that it derives every kind of name: both
// NodePools, the node class copy and a NodeOverlay per GPU count.
func namedPool(provider, name string) string {
	return provider + fmt.Sprintf(`
resource "mlplatform_gpu_node_pool" "test" {
  name       = %q
  node_class = "gpu"
  gpu        = { model = "h100" }
  mig        = { config = "all-1g.10gb" }
  on_demand  = { max_gpus = 8 }
  spot       = { max_gpus = 8 }
  billing    = { team = "vision" }
}
`, name)
}

// A name one character too long is refused at plan, on attribute name, with the reason and no
// API call.
func TestGPUNodePool_nameTooLongFailsAtPlan(t *testing.T) {
	long := strings.Repeat("a", maxPoolName+1)
	refuseAtPlan(t, map[string]struct {
		config func(string) string
		want   string
	}{
		"one over the limit": {func(p string) string { return namedPool(p, long) }, `(?s)GPU node pool name too long.*` +
			`name\s+=\s+"` + long + `".*` +
			`"` + long + `"\s+has\s+54\s+characters;\s+a\s+GPU\s+node\s+pool's\s+name\s+is\s+at\s+most\s+53\s+characters:\s+` +
			`the\s+NodePool\s+<name>-on-demand\s+is\s+the\s+value\s+of\s+the\s+node\s+label\s+karpenter.sh/nodepool,\s+` +
			`which\s+Kubernetes\s+limits\s+to\s+63`},
	})
}

// A name at the limit plans without an API call...
func TestGPUNodePool_nameAtLimitPlans(t *testing.T) {
	acctest.TestWithoutAPICalls(t, func(host string) []resource.TestStep {
		return []resource.TestStep{{
			Config:             namedPool(acctest.ProviderBlock(host), strings.Repeat("a", maxPoolName)),
			PlanOnly:           true,
			ExpectNonEmptyPlan: true,
		}}
	})
}

// ...and the API server takes every object it derives: the NodeOverlays' requirements list
// <name>-on-demand, which the CRD limits to 63 characters like a label value.
func TestAccGPUNodePool_nameAtLimitApplies(t *testing.T) {
	name := acctest.Name("acc-" + strings.Repeat("l", maxPoolName-len("acc-")-len(acctest.Name(""))))
	if len(name) != maxPoolName {
		t.Fatalf("name %q has %d characters, want %d", name, len(name), maxPoolName)
	}
	cfg := nodeClassConfig(acctest.ProviderBlock(""), name+"-class", "") +
		strings.Replace(namedPool("", name), `node_class = "gpu"`, `node_class = mlplatform_node_class.test.name`, 1)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             func(*terraform.State) error { return acctest.Gone(t, capacity.NodePoolKind, "", name+"-on-demand") },
		Steps: []resource.TestStep{{
			Config: cfg,
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectKnownValue(poolAddr, tfjsonpath.New("supplies").AtMapKey("on-demand").AtMapKey("node_labels").AtMapKey("karpenter.sh/nodepool"),
					knownvalue.StringExact(name+"-on-demand")),
			}},
			Check: func(*terraform.State) error {
				for _, n := range []string{name + "-1gpu", name + "-8gpu"} {
					acctest.Get(t, karpenter.NodeOverlayKind, "", n)
				}
				return checkCopy(t, name, name+"-class", map[string]any{"team": "vision"})
			},
		}},
	})
}
