package provider_test

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
)

const (
	costCentre = "billing.mlplatform.io/cost-centre"
	classAddr  = "mlplatform_workload_priority_class.test"
)

// default_labels taken from another resource of the same run: the plan works although the label
// is unknown, and the apply writes the value the other resource produced. Everything after
// Configure (labels_all planned unknown, then known after apply) depends on the framework
// planning labels_all unknown while ProviderData.DefaultLabelsUnknown is set.
func TestAccProvider_defaultLabelsFromAnotherResource(t *testing.T) {
	name := acctest.Name("acc-unknown-labels")
	step := func(cost string, action plancheck.ResourceActionType) resource.TestStep {
		return resource.TestStep{
			Config: priorityClassConfig(fmt.Sprintf("%q", cost), fmt.Sprintf("default_labels = { %q = terraform_data.cost.output }", costCentre), name),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(classAddr, action),
				plancheck.ExpectUnknownValue(classAddr, tfjsonpath.New("labels_all")),
			}},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(classAddr, tfjsonpath.New("labels_all"),
					knownvalue.MapExact(map[string]knownvalue.Check{costCentre: knownvalue.StringExact(cost)})),
			},
			Check: func(*terraform.State) error {
				if got := acctest.Get(t, priorityClasses, "", name).GetLabels()[costCentre]; got != cost {
					return fmt.Errorf("live label %s = %q, want %q", costCentre, got, cost)
				}
				return nil
			},
		}
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             acctest.CheckDestroyed(t, "mlplatform_workload_priority_class", priorityClasses),
		Steps: []resource.TestStep{
			step("cc-1", plancheck.ResourceActionCreate),
			// A new input makes terraform_data's output unknown again: the label changes in place.
			step("cc-2", plancheck.ResourceActionUpdate),
		},
	})
}
