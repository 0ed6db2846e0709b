package kueue_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/service/kueue"
)

const wpcAddr = "mlplatform_workload_priority_class.test"

func wpcConfig(host, name, body string) string {
	return acctest.ProviderBlock(host, acctest.CostCentreDefault) + fmt.Sprintf(`
resource "mlplatform_workload_priority_class" "test" {
  name = %q
%s
}
`, name, body)
}

func TestAccWorkloadPriorityClass_lifecycle(t *testing.T) {
	name := acctest.Name("acc-wpc-critical")
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             acctest.CheckDestroyed(t, "mlplatform_workload_priority_class", kueue.WorkloadPriorityClassKind),
		Steps: []resource.TestStep{
			{
				Config: wpcConfig("", name, `value = 1000
  description = "Production training on on-demand nodes; may preempt research runs."`),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(wpcAddr, tfjsonpath.New("value"), knownvalue.Int64Exact(1000)),
				},
				Check: func(*terraform.State) error {
					live := acctest.Get(t, kueue.WorkloadPriorityClassKind, "", name)
					if v := nested(t, live, "value"); v != int64(1000) {
						return fmt.Errorf("value = %v (%T)", v, v)
					}
					return nil
				},
			},
			{
				Config: wpcConfig("", name, `value = -10`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(wpcAddr, plancheck.ResourceActionUpdate),
				}},
				Check: func(*terraform.State) error {
					live := acctest.Get(t, kueue.WorkloadPriorityClassKind, "", name)
					if v, d := nested(t, live, "value"), nested(t, live, "description"); v != int64(-10) || d != nil {
						return fmt.Errorf("value = %v, description = %v; want -10 and none", v, d)
					}
					return nil
				},
			},
			acctest.ImportReleased(t, resource.TestStep{
				ResourceName:            wpcAddr,
				ImportState:             true,
				ImportStateId:           name,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"timeouts"},
			}),
			{
				PreConfig: func() {
					acctest.SetLabel(t, kueue.WorkloadPriorityClassKind, "", name, "billing.mlplatform.io/cost-centre", "x")
				},
				Config: wpcConfig("", name, `value = -10`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(wpcAddr, plancheck.ResourceActionUpdate),
				}},
			},
			{
				PreConfig: func() { deleteAndWait(t, kueue.WorkloadPriorityClassKind, "", name) },
				Config:    wpcConfig("", name, `value = -10`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(wpcAddr, plancheck.ResourceActionCreate),
				}},
			},
		},
	})
}

func TestWorkloadPriorityClass_invalidInputFailsAtPlan(t *testing.T) {
	cases := map[string]struct{ name, body, want string }{
		"invalid name":         {"High", "value = 1", `Attribute name: "High" is not a valid`},
		"value beyond int32":   {"high", "value = 2147483648", `Attribute value value must be between -2147483648 and 2147483647`},
		"no value":             {"high", "", `The argument "value" is required`},
		"description too long": {"high", fmt.Sprintf("value = 1\ndescription = %q", strings.Repeat("x", 2049)), `Attribute description: description: Too long: may not be more than 2048 bytes`},
	}
	all := map[string]acctest.PlanCase{}
	for name, tc := range cases {
		all[name] = acctest.PlanCase{Config: func(host string) string { return wpcConfig(host, tc.name, tc.body) }, Want: acctest.Wrapped(tc.want)}
	}
	acctest.PlanCases(t, all)
}
