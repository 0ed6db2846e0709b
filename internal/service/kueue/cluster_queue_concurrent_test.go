package kueue_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/service/kueue"
)

// concurrentConfig is a queue of two flavors in order of preference with concurrent admission.
func concurrentConfig(name, migration string) string {
	return cqConfig("", name, fmt.Sprintf(`
  concurrent_admission_policy = { migration = %s }
  resource_group {
    covered_resources = ["nvidia.com/gpu"]
    flavor {
      name = "on-demand"
      resource {
        name          = "nvidia.com/gpu"
        nominal_quota = "8"
      }
    }
    flavor {
      name = "spot"
      resource {
        name          = "nvidia.com/gpu"
        nominal_quota = "8"
      }
    }
  }
`, migration))
}

// Concurrent admission is written as configured and reads back without a diff (the harness plans
// again after each apply); Kueue keeps it immutable, so a change replaces the queue.
func TestAccClusterQueue_concurrentAdmission(t *testing.T) {
	name := acctest.Name("acc-cq-concurrent")
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { requireKueue(t) },
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             acctest.CheckDestroyed(t, "mlplatform_cluster_queue", kueue.ClusterQueueKind),
		Steps: []resource.TestStep{
			{
				Config: concurrentConfig(name, `{ mode = "TryPreferredFlavors", constraints = { last_acceptable_flavor_name = "spot" } }`),
				Check: func(*terraform.State) error {
					live := acctest.Get(t, kueue.ClusterQueueKind, "", name)
					if got := nested(t, live, "spec", "concurrentAdmissionPolicy", "migration", "constraints", "lastAcceptableFlavorName"); got != "spot" {
						return fmt.Errorf("lastAcceptableFlavorName = %v", got)
					}
					return nil
				},
			},
			{
				Config: concurrentConfig(name, `{ mode = "RetainFirstAdmission" }`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(cqAddr, plancheck.ResourceActionDestroyBeforeCreate),
				}},
				Check: func(*terraform.State) error {
					live := acctest.Get(t, kueue.ClusterQueueKind, "", name)
					if got := nested(t, live, "spec", "concurrentAdmissionPolicy", "migration", "mode"); got != "RetainFirstAdmission" {
						return fmt.Errorf("mode = %v", got)
					}
					return nil
				},
			},
		},
	})
}
