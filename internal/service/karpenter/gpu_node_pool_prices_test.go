package karpenter_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
)

// div divides at run time, as the provider does (a constant expression would be exact).
func div(a, b float64) float64 { return a / b }

func hourlyPrice(capacity string) tfjsonpath.Path {
	return tfjsonpath.New("supplies").AtMapKey(capacity).AtMapKey("hourly_price")
}

// supplies' hourly_price is known at plan: from the us-east-1 table by default, spot by its
// discount; then from the pool's own on-demand price in a region the table lacks, spot still by
// its discount off that price; then spot by its own price.
func TestAccGPUNodePool_hourlyPrice(t *testing.T) {
	name := acctest.Name("acc-price")
	cfg := func(provider, capacity string) string {
		return acctest.ProviderBlock("", provider) + fmt.Sprintf(`
resource "mlplatform_gpu_node_pool" "test" {
  name       = %q
  node_class = "gpu"
  gpu        = { model = "a100-80gb" }
  mig        = { config = "all-balanced" }
  %s
}
`, name, capacity)
	}
	a100 := div(27.44705, 8) // p4de.24xlarge, us-east-1, per GPU
	prices := func(perGPU float64) knownvalue.Check {
		return knownvalue.MapExact(map[string]knownvalue.Check{
			"nvidia.com/mig-1g.10gb": knownvalue.Float64Exact(perGPU * 1 / 7),
			"nvidia.com/mig-2g.20gb": knownvalue.Float64Exact(perGPU * 2 / 7),
			"nvidia.com/mig-3g.40gb": knownvalue.Float64Exact(perGPU * 3 / 7),
		})
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: cfg("", "on_demand = { max_gpus = 8 }\n  spot = { max_gpus = 16, discount = 0.6 }"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(poolAddr, plancheck.ResourceActionCreate),
					plancheck.ExpectKnownValue(poolAddr, hourlyPrice("on-demand"), prices(a100)),
					plancheck.ExpectKnownValue(poolAddr, hourlyPrice("spot"), prices(a100*(1-0.6))),
				}},
			},
			{
				Config: cfg(`pricing_region = "eu-west-1"`, "on_demand = { max_gpus = 8, price_per_hour = 30 }\n  spot = { max_gpus = 16, discount = 0.6 }"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(poolAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(poolAddr, hourlyPrice("on-demand"), prices(div(30, 8))),
					plancheck.ExpectKnownValue(poolAddr, hourlyPrice("spot"), prices(div(30, 8)*(1-0.6))),
				}},
			},
			{
				Config: cfg(`pricing_region = "eu-west-1"`, "spot = { max_gpus = 16, price_per_hour = 12 }"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectKnownValue(poolAddr, hourlyPrice("spot"), prices(div(12, 8))),
				}},
			},
			{
				// Spot with no price: null, not a guess.
				Config: cfg("", "spot = { max_gpus = 16 }"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectKnownValue(poolAddr, hourlyPrice("spot"), knownvalue.Null()),
				}},
			},
		},
	})
}

// Invalid price settings are refused at plan, naming the attribute, with no API request.
func TestGPUNodePool_invalidPricesFailAtPlan(t *testing.T) {
	cfg := func(body string) func(string) string {
		return func(p string) string { return poolConfig(p, "pool", body) }
	}
	type tc = struct {
		config func(string) string
		want   string
	}
	refuseAtPlan(t, map[string]tc{
		"spot price and discount": {cfg(`spot = { max_gpus = 8, price_per_hour = 10, discount = 0.5 }`), `(?s)Invalid Attribute Combination.*spot.discount`},
		"discount above one":      {cfg(`spot = { max_gpus = 8, discount = 1.5 }`), `(?s)spot.discount.*between 0.* and 1`},
		"negative price":          {cfg(`on_demand = { max_gpus = 8, price_per_hour = -1 }`), `(?s)on_demand.price_per_hour.*at least 0`},
		"price per instance, two GPU counts": {func(p string) string {
			return p + `
resource "mlplatform_gpu_node_pool" "test" {
  name       = "pool"
  node_class = "gpu"
  gpu        = { model = "h100", instance_types = ["p5.48xlarge", "p5.4xlarge"] }
  on_demand  = { max_gpus = 8, price_per_hour = 50 }
}
`
		}, `Attribute on_demand.price_per_hour:\s+a\s+price\s+per\s+instance\s+needs\s+instance\s+types\s+with\s+one\s+GPU\s+count,\s+but\s+p5.48xlarge\s+has\s+8\s+GPUs\s+and\s+p5.4xlarge\s+1`},
		"malformed pricing region": {func(p string) string {
			return p[:len(p)-2] + "  pricing_region = \"Virginia\"\n}\n" + poolConfig("", "pool", `on_demand = { max_gpus = 8 }`)
		}, `(?s)pricing_region.*must be an AWS region such as us-east-1`},
	})
}
