package monitoring_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/service/monitoring"
)

// A supply's node label and price, an alert label and an SLO taken from another resource, so
// known only at apply: the rules plan unknown, and are written once known.
func TestAccGPUBillingRules_valuesKnownOnlyAtApply(t *testing.T) {
	ns := acctest.Name("acc-late-billing")
	config := acctest.ProviderBlock("", acctest.CostCentreDefault) + supplies + fmt.Sprintf(`
resource "terraform_data" "late" {
  input = { pool = "late", price = 4.5, hours = 2 }
}

resource "mlplatform_gpu_billing_rules" "test" {
  namespace = %q
  name      = "gpu-billing"
  pools = {
    a100 = local.a100
    late = { "on-demand" = {
      node_labels  = { "mlplatform.io/gpu" = "a100-sxm4-80gb", "karpenter.sh/capacity-type" = "on-demand", "karpenter.sh/nodepool" = "${terraform_data.late.output.pool}-on-demand" }
      per_gpu      = { "nvidia.com/gpu" = 1 }
      hourly_price = { "nvidia.com/gpu" = terraform_data.late.output.price }
    } }
  }
  alert_labels                 = { severity = "page", team = terraform_data.late.output.pool }
  admission_wait_slo_per_queue = { research = "${terraform_data.late.output.hours}h" }
}
`, ns)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.Namespace(t, ns) },
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             acctest.CheckDestroyed(t, "mlplatform_gpu_billing_rules", monitoring.PrometheusRuleKind),
		Steps: []resource.TestStep{{
			Config: config,
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(rulesAddr, plancheck.ResourceActionCreate),
				plancheck.ExpectUnknownValue(rulesAddr, tfjsonpath.New("rules")),
			}},
			Check: resource.ComposeTestCheckFunc(
				checkLive(t, ns, "1m", "1h", "vector(4.5)", `{cluster_queue="research"} > 7200`),
				func(*terraform.State) error {
					if l := rule(liveRules(t, ns), "MLPlatformGPUXIDError")["labels"]; fmt.Sprint(l) != "map[severity:page team:late]" {
						return fmt.Errorf("alert labels = %v", l)
					}
					return nil
				}),
		}},
	})
}
