package karpenter_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/capacity"
)

// A training pool as the EKS GPU blueprints write it: drained nodes wait 24h for their runs,
// CPU and memory limits beside the GPU limit, and spot flexible over at least two instance
// types. Written through the real NodePool CRD, read back, imported, changed and taken away.
func TestAccGPUNodePool_limitsAndGracePeriod(t *testing.T) {
	name := acctest.Name("acc-pool-limits")
	p := acctest.ProviderBlock("")
	pool := func(gpu, extra string) string {
		return strings.Replace(poolWithClassConfig(p, name, "", extra), `gpu        = { model = "a100-80gb" }`, "gpu        = "+gpu, 1)
	}
	h100 := `{ model = "h100", instance_types = ["p5.48xlarge", "p5.4xlarge"], min_instance_types = 2 }`
	limits := `
  termination_grace_period = "24h"
  on_demand = { max_gpus = 16, max_cpu = "384", max_memory = "4Ti" }
  spot      = { max_gpus = 8, max_cpu = "192000m" }`
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             acctest.CheckDestroyed(t, "mlplatform_gpu_node_pool", capacity.NodePoolKind),
		Steps: []resource.TestStep{
			{
				Config: pool(h100, limits),
				Check: func(*terraform.State) error {
					for _, c := range []struct {
						pool string
						path []string
						want any
					}{
						{"-on-demand", []string{"limits"}, map[string]any{"nvidia.com/gpu": "16", "cpu": "384", "memory": "4Ti"}},
						{"-spot", []string{"limits"}, map[string]any{"nvidia.com/gpu": "8", "cpu": "192"}},
						{"-spot", []string{"template", "spec", "terminationGracePeriod"}, "24h"},
						{"-on-demand", []string{"template", "spec", "requirements"}, []any{
							map[string]any{"key": "node.kubernetes.io/instance-type", "operator": "In", "values": []any{"p5.48xlarge", "p5.4xlarge"}, "minValues": int64(2)},
							map[string]any{"key": "karpenter.sh/capacity-type", "operator": "In", "values": []any{"on-demand"}}}},
					} {
						live := acctest.Get(t, capacity.NodePoolKind, "", name+c.pool)
						if got := nested(t, live, append([]string{"spec"}, c.path...)...); !reflect.DeepEqual(got, c.want) {
							return fmt.Errorf("%s spec.%v = %#v, want %#v", c.pool, c.path, got, c.want)
						}
					}
					return nil
				},
			},
			{
				// The server's spelling of a limit (192 for 192000m) is no change.
				Config:             pool(h100, limits),
				PlanOnly:           true,
				ExpectNonEmptyPlan: false,
			},
			acctest.ImportReleased(t, resource.TestStep{
				ResourceName:      poolAddr,
				ImportState:       true,
				ImportStateId:     name,
				ImportStateVerify: true,
				// Imported: the server's spelling of a limit, Karpenter's defaults for disruption and expiry, and
				// no instance_types, as the pool lists every type of the model.
				ImportStateVerifyIgnore: []string{"timeouts", "spot.max_cpu", "disruption", "expire_after", "gpu.instance_types"},
			}),
			{
				Config: pool(`{ model = "h100", instance_types = ["p5.48xlarge", "p5.4xlarge"] }`, `on_demand = { max_gpus = 16 }`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(poolAddr, plancheck.ResourceActionUpdate),
				}},
				Check: func(*terraform.State) error {
					live := acctest.Get(t, capacity.NodePoolKind, "", name+"-on-demand")
					if got := nested(t, live, "spec", "limits"); !reflect.DeepEqual(got, map[string]any{"nvidia.com/gpu": "16"}) {
						return fmt.Errorf("limits = %v, want the GPU limit alone", got)
					}
					if got := nested(t, live, "spec", "template", "spec", "terminationGracePeriod"); got != nil {
						return fmt.Errorf("terminationGracePeriod still %v", got)
					}
					return nil
				},
			},
		},
	})
}

// Reserved capacity: a third NodePool, tried first, priced like on-demand unless told otherwise,
// and gone again when the pool stops declaring it.
func TestAccGPUNodePool_reserved(t *testing.T) {
	name := acctest.Name("acc-pool-reserved")
	p := acctest.ProviderBlock("")
	a100 := div(27.44705, 8) // p4de.24xlarge, us-east-1, per GPU
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             acctest.CheckDestroyed(t, "mlplatform_gpu_node_pool", capacity.NodePoolKind),
		Steps: []resource.TestStep{
			{
				Config: poolWithClassConfig(p, name, `capacity_reservation_selector = [{ tags = { purpose = "training" } }]`,
					`reserved = { max_gpus = 16 }`+"\n"+`on_demand = { max_gpus = 8 }`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectKnownValue(poolAddr, hourlyPrice("reserved"), knownvalue.MapExact(map[string]knownvalue.Check{
						"nvidia.com/gpu": knownvalue.Float64Exact(a100)})),
					plancheck.ExpectKnownValue(poolAddr, tfjsonpath.New("supplies").AtMapKey("reserved").AtMapKey("node_labels").AtMapKey("karpenter.sh/capacity-type"),
						knownvalue.StringExact("reserved")),
				}},
				Check: func(*terraform.State) error {
					live := acctest.Get(t, capacity.NodePoolKind, "", name+"-reserved")
					for _, c := range []struct {
						path []string
						want any
					}{
						{[]string{"weight"}, int64(30)},
						{[]string{"limits"}, map[string]any{"nvidia.com/gpu": "16"}},
						{[]string{"template", "spec", "requirements"}, []any{
							map[string]any{"key": "node.kubernetes.io/instance-type", "operator": "In", "values": []any{"p4de.24xlarge"}},
							map[string]any{"key": "karpenter.sh/capacity-type", "operator": "In", "values": []any{"reserved"}}}},
					} {
						if got := nested(t, live, append([]string{"spec"}, c.path...)...); !reflect.DeepEqual(got, c.want) {
							return fmt.Errorf("spec.%v = %#v, want %#v", c.path, got, c.want)
						}
					}
					return nil
				},
			},
			acctest.ImportReleased(t, resource.TestStep{
				ResourceName:            poolAddr,
				ImportState:             true,
				ImportStateId:           name,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"timeouts", "disruption", "expire_after"},
			}),
			{
				// A Capacity Block's own price.
				Config: poolWithClassConfig(p, name, `capacity_reservation_selector = [{ tags = { purpose = "training" } }]`,
					`reserved = { max_gpus = 16, price_per_hour = 24 }`+"\n"+`on_demand = { max_gpus = 8 }`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectKnownValue(poolAddr, hourlyPrice("reserved"), knownvalue.MapExact(map[string]knownvalue.Check{
						"nvidia.com/gpu": knownvalue.Float64Exact(3)})),
				}},
			},
			{
				Config: poolWithClassConfig(p, name, "", `on_demand = { max_gpus = 8 }`),
				Check:  func(*terraform.State) error { return acctest.Gone(t, capacity.NodePoolKind, "", name+"-reserved") },
			},
		},
	})
}
