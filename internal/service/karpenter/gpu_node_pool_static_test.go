package karpenter_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/capacity"
)

// A static pool: a NodePool with replicas and neither weight nor limits (Karpenter's CEL rules
// refuse them), supplies known from its nodes, resized in place, and replaced to turn dynamic.
func TestAccGPUNodePool_static(t *testing.T) {
	name := acctest.Name("acc-static")
	cfg := func(capacityBody string) string {
		return acctest.ProviderBlock("") + fmt.Sprintf(`
resource "mlplatform_gpu_node_pool" "test" {
  name       = %q
  node_class = "gpu"
  gpu        = { model = "a100-80gb", instance_types = ["p4de.24xlarge"] }
  mig        = { config = "all-1g.10gb" }
  reserved   = %s
}
`, name, capacityBody)
	}
	nodePool := func(replicas any) resource.TestCheckFunc {
		return func(*terraform.State) error {
			np := acctest.Get(t, capacity.NodePoolKind, "", name+"-reserved")
			spec := np.Object["spec"].(map[string]any)
			if spec["replicas"] != replicas {
				return fmt.Errorf("spec.replicas = %v, want %v", spec["replicas"], replicas)
			}
			if _, ok := spec["weight"]; ok != (replicas == nil) {
				return fmt.Errorf("spec.weight = %v with replicas %v", spec["weight"], replicas)
			}
			if _, ok := spec["limits"]; ok != (replicas == nil) {
				return fmt.Errorf("spec.limits = %v with replicas %v", spec["limits"], replicas)
			}
			return nil
		}
	}
	slices := func(n int64) statecheck.StateCheck {
		return statecheck.ExpectKnownValue(poolAddr, tfjsonpath.New("supplies").AtMapKey("reserved").AtMapKey("resources").
			AtMapKey("nvidia.com/mig-1g.10gb"), knownvalue.Int64Exact(n))
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		Steps: []resource.TestStep{
			{Config: cfg(`{ nodes = 2 }`), Check: nodePool(int64(2)), ConfigStateChecks: []statecheck.StateCheck{slices(2 * 8 * 7)}},
			// p4de.24xlarge is every instance type of the A100 80GB, which import reads as the default.
			acctest.ImportReleased(t, resource.TestStep{ResourceName: poolAddr, ImportState: true, ImportStateId: name, ImportStateVerify: true,
				ImportStateVerifyIgnore: []string{"timeouts", "disruption", "expire_after", "gpu.instance_types"}}),
			{
				Config: cfg(`{ nodes = 3 }`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(poolAddr, plancheck.ResourceActionUpdate),
				}},
				Check: nodePool(int64(3)), ConfigStateChecks: []statecheck.StateCheck{slices(3 * 8 * 7)},
			},
			{
				// Karpenter cannot turn a NodePool dynamic in place: the pool is replaced.
				Config: cfg(`{ max_gpus = 8 }`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(poolAddr, plancheck.ResourceActionDestroyBeforeCreate),
				}},
				Check: nodePool(nil), ConfigStateChecks: []statecheck.StateCheck{slices(8 * 7)},
			},
		},
	})
}
