package argo_test

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/service/argo"
)

// A hyperparameter taken from another resource, so known only at apply: submit_command is planned
// unknown, and the template is written with the value once known.
func TestAccTrainingJobTemplate_hyperparameterKnownOnlyAtApply(t *testing.T) {
	ns, name := acctest.Name("acc-tjt-late"), "sentiment"
	config := `
resource "terraform_data" "lr" {
  input = "3e-4"
}
` + tjtConfig("", ns, name, "${terraform_data.lr.output}", "spot", "")
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { teamNamespace(t, ns) },
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             acctest.CheckDestroyed(t, "mlplatform_training_job_template", argo.WorkflowTemplateKind),
		Steps: []resource.TestStep{{
			Config: config,
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(tjtAddr, plancheck.ResourceActionCreate),
				plancheck.ExpectUnknownValue(tjtAddr, tfjsonpath.New("submit_command")),
			}},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(tjtAddr, tfjsonpath.New("submit_command"), knownvalue.StringExact(
					"argo submit --from workflowtemplate/"+name+" -n "+ns+" -p dataset_version=2024-06 -p batch_size=32 -p learning_rate=3e-4")),
			},
			Check: func(*terraform.State) error { return checkLive(t, ns, name, "3e-4", "spot") },
		}},
	})
}
