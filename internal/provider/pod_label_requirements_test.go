package provider_test

import (
	"fmt"
	"testing"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
)

// podLabelConfig is a team that requires the project label of its pods and a template in its
// namespace with billing; teamFirst makes the template refer to the team (planned after it),
// else the team refers to the template (planned before it).
func podLabelConfig(host, requireProject, billing string, teamFirst bool) string {
	queue, teamLabels := `queue = mlplatform_team.nlp.local_queue_names[0]`, ""
	if !teamFirst {
		queue, teamLabels = `queue = "training"`, `labels = { template = mlplatform_training_job_template.run.name }`
	}
	return fmt.Sprintf(`
provider "mlplatform" {
  host = %q
}

resource "mlplatform_team" "nlp" {
  name                  = "nlp"
  local_queues          = { training = "nlp" }
  require_project_label = %s
  %s
}

resource "mlplatform_training_job_template" "run" {
  namespace       = "nlp"
  name            = "sentiment"
  image           = "ghcr.io/acme/trainer:1"
  training_script = "train.py"
  hardware        = { gpu_type = "a100-1g.10gb", cpu_cores = 2, memory_gb = 16 }
  %s
  billing         = %s
}
`, host, requireProject, teamLabels, queue, billing)
}

// A template whose runs' pods lack the project label its team requires is refused at plan, by
// whichever of the two Terraform plans second, naming the attribute; with the label, or a team
// that does not require it, the plan passes. No API call either way.
func TestAccTeam_projectLabelTemplatesLackRefusedAtPlan(t *testing.T) {
	noProject := `{ "mlplatform.io/team" = "nlp" }`
	withProject := `merge(mlplatform_team.nlp.pod_labels, { (mlplatform_team.nlp.project_label) = "sentiment" })`
	t.Run("template planned after the team", func(t *testing.T) {
		acctest.PlanWithoutAPICalls(t, func(host string) string { return podLabelConfig(host, "true", noProject, true) },
			acctest.Words(`Attribute billing: mlplatform_team "nlp" requires every pod in namespace nlp to carry the label "mlplatform.io/project", and this template's pods would not`))
	})
	t.Run("team planned after the template", func(t *testing.T) {
		acctest.PlanWithoutAPICalls(t, func(host string) string { return podLabelConfig(host, "true", noProject, false) },
			acctest.Words(`Attribute require_project_label: the team requires every pod in namespace nlp to carry the label "mlplatform.io/project" (project_label), and the pods of mlplatform_training_job_template "nlp/sentiment" would not`))
	})
	t.Run("label carried", func(t *testing.T) {
		acctest.PlanWithoutAPICalls(t, func(host string) string { return podLabelConfig(host, "true", withProject, true) }, nil)
	})
	t.Run("label not required", func(t *testing.T) {
		acctest.PlanWithoutAPICalls(t, func(host string) string { return podLabelConfig(host, "false", noProject, false) }, nil)
	})
}
