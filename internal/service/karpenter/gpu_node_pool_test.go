package karpenter_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/service/karpenter"
)

const poolAddr = "mlplatform_gpu_node_pool.test"

func poolConfig(provider, name, body string) string {
	return provider + fmt.Sprintf(`
resource "mlplatform_gpu_node_pool" "test" {
  name       = %[1]q
  node_class = "gpu"
  gpu        = { model = "a100-80gb" }
  %[2]s
}
`, name, body)
}

const poolA100 = `
  mig       = { profiles = { "1g.10gb" = 7 } }
  on_demand = { max_gpus = 16 }
  spot      = { max_gpus = 32 }
  billing   = { team = "research" }
  disruption = { consolidation_policy = "WhenEmpty", consolidate_after = "10m" }
  expire_after = "168h"`

const poolA100NoSpot = `
  mig       = { profiles = { "1g.10gb" = 7 } }
  on_demand = { max_gpus = 24 }
  billing   = { team = "research" }
  disruption = { consolidation_policy = "WhenEmpty", consolidate_after = "10m" }
  expire_after = "168h"`

func TestAccGPUNodePool_lifecycle(t *testing.T) {
	name := "acc-a100"
	p := providerBlock(billingDefault)
	gone := func(name string) error {
		_, err := acctest.Dynamic(t).Resource(karpenter.NodePoolKind.GVR).Get(t.Context(), name, metav1.GetOptions{})
		if err == nil {
			return fmt.Errorf("NodePool %s still exists", name)
		}
		return nil
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy: func(*terraform.State) error {
			for _, n := range []string{name + "-spot", name + "-on-demand"} {
				if err := gone(n); err != nil {
					return err
				}
			}
			return nil
		},
		Steps: []resource.TestStep{
			{
				Config: poolConfig(p, name, poolA100),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(poolAddr, plancheck.ResourceActionCreate),
					// supplies is known at plan: 7 x 1g.10gb per GPU x max_gpus.
					plancheck.ExpectKnownValue(poolAddr, tfjsonpath.New("supplies").AtMapKey("spot").AtMapKey("resources"),
						knownvalue.MapExact(map[string]knownvalue.Check{"nvidia.com/mig-1g.10gb": knownvalue.Int64Exact(224)})),
					plancheck.ExpectKnownValue(poolAddr, tfjsonpath.New("supplies").AtMapKey("on-demand").AtMapKey("node_labels").AtMapKey("karpenter.sh/nodepool"),
						knownvalue.StringExact(name+"-on-demand")),
					plancheck.ExpectKnownValue(poolAddr, tfjsonpath.New("gpu").AtMapKey("count_per_node"), knownvalue.Int64Exact(8)),
				}},
				Check: func(*terraform.State) error {
					spot := acctest.Get(t, karpenter.NodePoolKind, "", name+"-spot")
					if got := nested(t, spot, "spec", "limits", "nvidia.com/gpu"); got != "32" {
						return fmt.Errorf("spot limits = %v", got)
					}
					if got := nested(t, spot, "spec", "weight"); got != int64(20) {
						return fmt.Errorf("spot weight = %v", got)
					}
					if got := nested(t, spot, "spec", "template", "metadata", "labels", "nvidia.com/mig.config"); got != "all-1g.10gb" {
						return fmt.Errorf("mig.config label = %v", got)
					}
					if got := nested(t, spot, "spec", "template", "spec", "expireAfter"); got != "168h" {
						return fmt.Errorf("expireAfter = %v", got)
					}
					ov := acctest.Get(t, karpenter.NodeOverlayKind, "", name)
					if got := nested(t, ov, "spec", "capacity", "nvidia.com/mig-1g.10gb"); got != "56" {
						return fmt.Errorf("overlay capacity = %v", got)
					}
					return nil
				},
			},
			{
				// Change max_gpus and switch spot off: the spot NodePool is deleted.
				Config: poolConfig(p, name, poolA100NoSpot),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(poolAddr, plancheck.ResourceActionUpdate),
				}},
				Check: func(*terraform.State) error {
					if got := nested(t, acctest.Get(t, karpenter.NodePoolKind, "", name+"-on-demand"), "spec", "limits", "nvidia.com/gpu"); got != "24" {
						return fmt.Errorf("on-demand limits = %v", got)
					}
					return gone(name + "-spot")
				},
			},
			{
				ResourceName:            poolAddr,
				ImportState:             true,
				ImportStateId:           name,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"timeouts", "billing", "node_labels", "disruption.budgets"}, // imported: Karpenter's default budget
			},
			{
				// max_gpus changed with kubectl: drift, restored.
				PreConfig: func() {
					editSpec(t, karpenter.NodePoolKind, name+"-on-demand", "4", "spec", "limits", "nvidia.com/gpu")
				},
				Config: poolConfig(p, name, poolA100NoSpot),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(poolAddr, plancheck.ResourceActionUpdate),
				}},
				Check: func(*terraform.State) error {
					if got := nested(t, acctest.Get(t, karpenter.NodePoolKind, "", name+"-on-demand"), "spec", "limits", "nvidia.com/gpu"); got != "24" {
						return fmt.Errorf("on-demand limits after drift repair = %v", got)
					}
					return nil
				},
			},
			{
				PreConfig: func() { acctest.Delete(t, karpenter.NodePoolKind, "", name+"-on-demand") },
				Config:    poolConfig(p, name, poolA100NoSpot),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(poolAddr, plancheck.ResourceActionUpdate),
				}},
			},
		},
	})
}

func TestGPUNodePool_invalidInputFailsAtPlan(t *testing.T) {
	cfg := func(body string) func(string) string {
		return func(p string) string { return poolConfig(p, "pool", body) }
	}
	type tc = struct {
		config func(string) string
		want   string
	}
	refuseAtPlan(t, map[string]tc{
		"layout does not fit":  {cfg(`on_demand = { max_gpus = 8 }` + "\n" + `mig = { profiles = { "3g.40gb" = 2, "2g.20gb" = 1 } }`), `Attribute mig.profiles:`},
		"other model's type":   {func(p string) string { return poolConfigTypes(p, `["p5.48xlarge"]`) }, `p5.48xlarge carries\s+H100`},
		"mig and time slicing": {cfg(`on_demand = { max_gpus = 8 }` + "\n" + `mig = { config = "all-1g.10gb" }` + "\n" + `time_slicing = { replicas = 4 }`), `(?s)mig.*time_slicing`},
		"no capacity":          {cfg(`mig = { config = "all-1g.10gb" }`), `At least one of these attributes must be configured:\s+\[spot,on_demand\]`},
		"unknown model":        {func(p string) string { return poolConfigModel(p, "z100") }, `Attribute gpu.model:`},
		"profiles and config":  {cfg(`on_demand = { max_gpus = 8 }` + "\n" + `mig = { config = "all-1g.10gb", profiles = { "1g.10gb" = 7 } }`), `Invalid Attribute Combination`},
		"replicas below two":   {cfg(`on_demand = { max_gpus = 8 }` + "\n" + `time_slicing = { replicas = 1 }`), `at least 2`},
		"single non-uniform":   {cfg(`on_demand = { max_gpus = 8 }` + "\n" + `mig = { strategy = "single", profiles = { "3g.40gb" = 1, "4g.40gb" = 1 } }`), `Attribute mig.profiles:`},
		"weight out of range":  {cfg(`on_demand = { max_gpus = 8, weight = 101 }`), `between 1 and\s+100`},
	})
}

func poolConfigTypes(p, types string) string {
	return p + fmt.Sprintf(`
resource "mlplatform_gpu_node_pool" "test" {
  name       = "pool"
  node_class = "gpu"
  gpu        = { model = "a100-80gb", instance_types = %s }
  on_demand  = { max_gpus = 8 }
}
`, types)
}

func poolConfigModel(p, model string) string {
	return p + fmt.Sprintf(`
resource "mlplatform_gpu_node_pool" "test" {
  name       = "pool"
  node_class = "gpu"
  gpu        = { model = %q }
  on_demand  = { max_gpus = 8 }
}
`, model)
}
