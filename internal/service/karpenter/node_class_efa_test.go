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
	"github.com/mlplatform/terraform-provider-mlplatform/internal/service/karpenter"
)

// efa_instance_type lays out AWS's recommended EFA interfaces for p5.48xlarge's 32 network cards,
// restores them when edited, and a pool with efa supplies the EFA devices of its nodes.
func TestAccNodeClass_efaInstanceType(t *testing.T) {
	name := acctest.Name("acc-efa")
	cfg := nodeClassConfig(acctest.ProviderBlock(""), name, `efa_instance_type = "p5.48xlarge"`) + fmt.Sprintf(`
resource "mlplatform_gpu_node_pool" "test" {
  name       = "%s-pool"
  node_class = mlplatform_node_class.test.name
  gpu        = { model = "h100", instance_types = ["p5.48xlarge"] }
  efa        = true
  on_demand  = { max_gpus = 20 }
}
`, name)
	interfaces := func(*terraform.State) error {
		nics := nested(t, acctest.Get(t, karpenter.EC2NodeClassKind, "", name), "spec", "networkInterfaces").([]any)
		if len(nics) != 33 {
			return fmt.Errorf("%d network interfaces, want 33", len(nics))
		}
		want := func(i int, card, device int64, kind string) error {
			n := nics[i].(map[string]any)
			if n["networkCardIndex"] != card || n["deviceIndex"] != device || n["interfaceType"] != kind {
				return fmt.Errorf("interface %d = %v, want card %d device %d %s", i, n, card, device, kind)
			}
			return nil
		}
		for _, err := range []error{want(0, 0, 0, "interface"), want(1, 0, 1, "efa-only"), want(2, 1, 0, "efa-only"), want(32, 31, 0, "efa-only")} {
			if err != nil {
				return err
			}
		}
		return nil
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: cfg,
				Check:  interfaces,
				// 20 GPUs fill two 8-GPU nodes: 2 x 32 EFA devices.
				ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectKnownValue("mlplatform_gpu_node_pool.test",
					tfjsonpath.New("supplies").AtMapKey("on-demand").AtMapKey("resources").AtMapKey("vpc.amazonaws.com/efa"), knownvalue.Int64Exact(64))},
			},
			{
				// Interfaces edited outside Terraform: drift, and the apply lays them out again.
				PreConfig: func() {
					editSpec(t, karpenter.EC2NodeClassKind, name, []any{map[string]any{"networkCardIndex": int64(0), "deviceIndex": int64(0), "interfaceType": "interface"}},
						"spec", "networkInterfaces")
				},
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(nodeClassAddr, plancheck.ResourceActionUpdate),
				}},
				Check: interfaces,
			},
			acctest.ImportReleased(t, resource.TestStep{
				// Import reads the interfaces as they are: which instance type laid them out is not recorded.
				ResourceName: nodeClassAddr, ImportState: true, ImportStateId: name, ImportStateVerify: true,
				ImportStateVerifyIgnore: []string{"timeouts", "tags", "billing", "metadata_options", "efa_instance_type", "network_interfaces"},
			}),
		},
	})
}
