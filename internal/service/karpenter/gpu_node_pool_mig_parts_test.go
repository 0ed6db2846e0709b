package karpenter_test

import (
	"fmt"
	"maps"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/capacity"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/service/karpenter"
)

// NVIDIA's p4de-half-balanced, from mig-parted's README (NVIDIA/mig-parted@bd7160f4): GPUs 0-3
// of a p4de.24xlarge under all-balanced (2 x 1g.10gb, 2g.20gb, 3g.40gb each), 4-7 whole.
const poolHalfBalanced = `
  mig = { parts = [
    { devices = [0, 1, 2, 3], config = "all-balanced" },
    { devices = [4, 5, 6, 7], config = "all-disabled" },
  ] }
  on_demand = { max_gpus = 16 }`

func counts(m map[string]int64) knownvalue.Check {
	checks := map[string]knownvalue.Check{}
	for k, v := range m {
		checks[k] = knownvalue.Int64Exact(v)
	}
	return knownvalue.MapExact(checks)
}

func TestAccGPUNodePool_migParts(t *testing.T) {
	name := acctest.Name("acc-half")
	perNode := map[string]int64{"nvidia.com/gpu": 4, "nvidia.com/mig-1g.10gb": 8, "nvidia.com/mig-2g.20gb": 4, "nvidia.com/mig-3g.40gb": 4}
	most := map[string]int64{} // max_gpus 16: two nodes of 8 GPUs
	for r, n := range perNode {
		most[r] = 2 * n
	}
	supplies := tfjsonpath.New("supplies").AtMapKey("on-demand")
	// The second part takes profiles that mean all-1g.10gb; the name follows.
	profilesSecond := strings.Replace(poolHalfBalanced, `config = "all-disabled"`, `profiles = { "1g.10gb" = 7 }`, 1)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: poolConfig(acctest.ProviderBlock(""), name, poolHalfBalanced),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectKnownValue(poolAddr, supplies.AtMapKey("per_node"), counts(perNode)),
					plancheck.ExpectKnownValue(poolAddr, supplies.AtMapKey("resources"), counts(most)),
					plancheck.ExpectKnownValue(poolAddr, supplies.AtMapKey("per_gpu"), knownvalue.Null()),
					plancheck.ExpectKnownValue(poolAddr, tfjsonpath.New("mig").AtMapKey("config_name"),
						knownvalue.StringExact("custom-0-3-all-balanced-4-7-all-disabled")),
				}},
				Check: func(*terraform.State) error {
					np := acctest.Get(t, capacity.NodePoolKind, "", name+"-on-demand")
					if got := nested(t, np, "spec", "template", "metadata", "labels", "nvidia.com/mig.config"); got != "custom-0-3-all-balanced-4-7-all-disabled" {
						return fmt.Errorf("mig.config label = %v", got)
					}
					if got := np.GetAnnotations()[capacity.AnnotationMIGLayout]; got != "0-3:all-balanced;4-7:all-disabled" {
						return fmt.Errorf("declared layout = %q", got)
					}
					// The overlay adds the MIG devices of a node, and leaves nvidia.com/gpu to EC2's count,
					// which the NodePool's GPU limit counts.
					want := map[string]any{"nvidia.com/mig-1g.10gb": "8", "nvidia.com/mig-2g.20gb": "4", "nvidia.com/mig-3g.40gb": "4"}
					got, _ := nested(t, acctest.Get(t, karpenter.NodeOverlayKind, "", name), "spec", "capacity").(map[string]any)
					if !maps.Equal(got, want) {
						return fmt.Errorf("overlay capacity = %v, want %v", got, want)
					}
					return nil
				},
				ConfigStateChecks: []statecheck.StateCheck{suppliesReadBack{t, name}},
			},
			acctest.ImportReleased(t, resource.TestStep{
				// Imported, the parts read back as written; Karpenter's defaults for disruption and expiry
				// are read as configured.
				ResourceName:            poolAddr,
				ImportState:             true,
				ImportStateId:           name,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"timeouts", "disruption", "expire_after"},
			}),
			{
				Config: poolConfig(acctest.ProviderBlock(""), name, profilesSecond),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(poolAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(poolAddr, supplies.AtMapKey("per_node").AtMapKey("nvidia.com/mig-1g.10gb"), knownvalue.Int64Exact(8+28)),
				}},
				Check: func(*terraform.State) error {
					np := acctest.Get(t, capacity.NodePoolKind, "", name+"-on-demand")
					if got := nested(t, np, "spec", "template", "metadata", "labels", "nvidia.com/mig.config"); got != "custom-0-3-all-balanced-4-7-all-1g.10gb" {
						return fmt.Errorf("mig.config label = %v", got)
					}
					return nil
				},
			},
			{
				// The same layout spelled as profiles reads back as written: no change.
				Config:   poolConfig(acctest.ProviderBlock(""), name, profilesSecond),
				PlanOnly: true,
			},
		},
	})
}

func TestGPUNodePool_migPartsRefusedAtPlan(t *testing.T) {
	parts := func(list string, extra ...string) func(string) string {
		return func(p string) string {
			return poolConfig(p, "pool", "on_demand = { max_gpus = 8 }\n  mig = { "+strings.Join(append(extra, "parts = "+list), ", ")+" }")
		}
	}
	type tc = struct {
		config func(string) string
		want   string
	}
	refuseAtPlan(t, map[string]tc{
		"overlap": {parts(`[{ devices = [0, 1, 2, 3], config = "all-balanced" }, { devices = [3, 4, 5, 6, 7], config = "all-disabled" }]`),
			`mig.parts\[1\].devices:\s+GPU 3 is in part 0 already`},
		"past the node": {parts(`[{ devices = [0, 1, 2, 3], config = "all-balanced" }, { devices = [4, 5, 6, 7, 8], config = "all-disabled" }]`),
			`mig.parts\[1\].devices:\s+GPU 8 is not on the node: its 8 GPUs are 0 to\s+7`},
		"GPUs left out": {parts(`[{ devices = [0, 1, 2, 3], config = "all-balanced" }]`),
			`mig.parts:\s+GPUs 4-7 of the node's 8 are in no part`},
		"part layout does not fit": {parts(`[{ devices = [0, 1, 2, 3, 4, 5, 6, 7], profiles = { "3g.40gb" = 2, "2g.20gb" = 1 } }]`),
			`mig.parts\[0\].profiles:`},
		"unknown part config": {parts(`[{ devices = [0, 1, 2, 3, 4, 5, 6, 7], config = "all-9g.90gb" }]`),
			`mig.parts\[0\].config:`},
		"single strategy": {parts(`[{ devices = [0, 1, 2, 3, 4, 5, 6, 7], config = "all-1g.10gb" }]`, `strategy = "single"`),
			`needs the\s+"mixed"\s+strategy`},
		"parts and config": {parts(`[{ devices = [0, 1, 2, 3, 4, 5, 6, 7], config = "all-1g.10gb" }]`, `config = "all-1g.10gb"`),
			`Invalid Attribute Combination`},
		"part with profiles and config": {parts(`[{ devices = [0, 1, 2, 3, 4, 5, 6, 7], config = "all-1g.10gb", profiles = { "1g.10gb" = 7 } }]`),
			`Invalid Attribute Combination`},
		"requirements without one GPU count": {func(p string) string {
			return strings.Replace(poolConfig(p, "pool", "on_demand = { max_gpus = 8 }\n  mig = { parts = [{ devices = [0, 1, 2, 3, 4, 5, 6, 7], config = \"all-1g.10gb\" }] }"),
				`gpu        = { model = "a100-80gb" }`, `gpu        = { model = "a100-80gb", instance_requirements = { families = ["p4de"] } }`, 1)
		}, `with\s+gpu.instance_requirements\s+set\s+gpu_counts\s+=\s+\[8\]`},
		"two GPU counts": {func(p string) string {
			return strings.Replace(poolConfigModel(p, "h100"), `on_demand  = { max_gpus = 8 }`,
				`on_demand  = { max_gpus = 8 }`+"\n"+`mig = { parts = [{ devices = [0], config = "all-1g.10gb" }] }`, 1)
		}, `mig.parts:\s+the parts split each node's GPUs by index, so\s+the\s+instance\s+types\s+must\s+carry\s+one\s+GPU\s+count`},
	})
}
