package kueue_test

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
	"github.com/mlplatform/terraform-provider-mlplatform/internal/service/kueue"
)

const cohortAddr = "mlplatform_cohort.test"

func cohortConfig(host, name, body string) string {
	return acctest.ProviderBlock(host, acctest.CostCentreDefault) + fmt.Sprintf(`
resource "mlplatform_cohort" "test" {
  name = %q
%s
}
`, name, body)
}

var cohortParent = acctest.Name("acc-cohort-org")

// A shared pool under a parent: a Cohort may lend more than its nominal quota (a ClusterQueue may not).
var cohortPool = fmt.Sprintf(`
  parent = %q
  labels = { team = "platform" }
  resource_group {
    covered_resources = ["nvidia.com/gpu"]
    flavor {
      name = %q
      resource {
        name            = "nvidia.com/gpu"
        nominal_quota   = "8"
        lending_limit   = "12"
        borrowing_limit = "4"
      }
    }
  }
`, cohortParent, acctest.Name("acc-cohort-a100"))

func TestAccCohort_lifecycle(t *testing.T) {
	name := acctest.Name("acc-cohort-lifecycle")
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             acctest.CheckDestroyed(t, "mlplatform_cohort", kueue.CohortKind),
		Steps: []resource.TestStep{
			{
				Config: cohortConfig("", name, cohortPool),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(cohortAddr, tfjsonpath.New("parent"), knownvalue.StringExact(cohortParent)),
					statecheck.ExpectKnownValue(cohortAddr, tfjsonpath.New("labels_all"), knownvalue.MapExact(map[string]knownvalue.Check{
						"team": knownvalue.StringExact("platform"), "billing.mlplatform.io/cost-centre": knownvalue.StringExact("cc-1234"),
					})),
				},
				Check: func(*terraform.State) error {
					live := acctest.Get(t, kueue.CohortKind, "", name)
					if got := nested(t, live, "spec", "parentName"); got != cohortParent {
						return fmt.Errorf("spec.parentName = %v", got)
					}
					q := nested(t, live, "spec", "resourceGroups").([]any)[0].(map[string]any)["flavors"].([]any)[0].(map[string]any)["resources"].([]any)[0].(map[string]any)
					if q["nominalQuota"] != "8" || q["lendingLimit"] != "12" || q["borrowingLimit"] != "4" {
						return fmt.Errorf("quota = %v", q)
					}
					return nil
				},
			},
			{
				// A root cohort without quotas: the limits go with the parent.
				Config: cohortConfig("", name, `fair_sharing_weight = "2"`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(cohortAddr, plancheck.ResourceActionUpdate),
				}},
				Check: func(*terraform.State) error {
					live := acctest.Get(t, kueue.CohortKind, "", name)
					if p := nested(t, live, "spec", "parentName"); p != nil {
						return fmt.Errorf("spec.parentName = %v, want none", p)
					}
					if g := nested(t, live, "spec", "resourceGroups"); g != nil {
						return fmt.Errorf("spec.resourceGroups = %v, want none", g)
					}
					return nil
				},
			},
			acctest.ImportReleased(t, resource.TestStep{
				ResourceName:            cohortAddr,
				ImportState:             true,
				ImportStateId:           name,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"timeouts"},
			}),
			{
				PreConfig: func() { acctest.SetLabel(t, kueue.CohortKind, "", name, "billing.mlplatform.io/cost-centre", "other") },
				Config:    cohortConfig("", name, `fair_sharing_weight = "2"`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(cohortAddr, plancheck.ResourceActionUpdate),
				}},
			},
			{
				PreConfig: func() { deleteAndWait(t, kueue.CohortKind, "", name) },
				Config:    cohortConfig("", name, `fair_sharing_weight = "2"`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(cohortAddr, plancheck.ResourceActionCreate),
				}},
			},
		},
	})
}

func TestCohort_invalidInputFailsAtPlan(t *testing.T) {
	t.Parallel()
	acctest.RefusedAtPlan(t, func(host string) string { return cohortConfig(host, "Org_1", "") }, `Attribute name: "Org_1" is not a valid`)
}
