package provider_test

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
)

// queueSpellingConfig is a team with the LocalQueue "training", a raw LocalQueue "inference" in
// its namespace, and a template that names queue; templateLast makes the template refer to the
// team and the LocalQueue (planned after them), else they refer to the template (planned before).
func queueSpellingConfig(host, queue string, templateLast bool) string {
	ns, teamLabels, lqLabels := `mlplatform_team.nlp.namespace`, "", ""
	after := `  depends_on = [mlplatform_local_queue.inference]`
	if !templateLast {
		ns, after = `"nlp"`, ""
		teamLabels = `labels = { template = mlplatform_training_job_template.run.name }`
		lqLabels = `labels = { template = mlplatform_training_job_template.run.name }`
	}
	return fmt.Sprintf(`
provider "mlplatform" {
  host = %q
}

resource "mlplatform_team" "nlp" {
  name                  = "nlp"
  local_queues          = { training = "nlp" }
  require_project_label = false
  %s
}

resource "mlplatform_local_queue" "inference" {
  namespace     = "nlp"
  name          = "inference"
  cluster_queue = "nlp"
  %s
}

resource "mlplatform_training_job_template" "run" {
  namespace       = %s
  name            = "sentiment"
  image           = "ghcr.io/acme/trainer:1"
  training_script = "train.py"
  hardware        = { gpu_type = "a100-1g.10gb", cpu_cores = 2, memory_gb = 16 }
  queue           = %q
%s
}
`, host, teamLabels, lqLabels, ns, queue, after)
}

// A template's LocalQueue that the configuration does not declare in its namespace but one or two
// letters from one it does is refused at plan, by whichever side Terraform plans second, naming
// the declared queue. A declared queue, or one far from every declared queue (perhaps another
// configuration's, checked against the cluster before writing), passes. No API call either way.
func TestAccTrainingJobTemplate_misspelledQueueRefusedAtPlan(t *testing.T) {
	refused := func(nearest string) *regexp.Regexp {
		return acctest.Words(fmt.Sprintf(`mlplatform_training_job_template "nlp/sentiment": LocalQueue %q is not declared in namespace nlp, where this configuration declares %q`, "trainng", nearest))
	}
	t.Run("template planned after the team", func(t *testing.T) {
		acctest.PlanWithoutAPICalls(t, func(host string) string { return queueSpellingConfig(host, "trainng", true) }, refused("training"))
	})
	t.Run("team planned after the template", func(t *testing.T) {
		acctest.PlanWithoutAPICalls(t, func(host string) string { return queueSpellingConfig(host, "trainng", false) }, refused("training"))
	})
	t.Run("raw LocalQueue planned after the template", func(t *testing.T) {
		acctest.PlanWithoutAPICalls(t, func(host string) string { return queueSpellingConfig(host, "inferense", false) },
			acctest.Words(`LocalQueue "inferense" is not declared in namespace nlp, where this configuration declares "inference"`))
	})
	for _, queue := range []string{"training", "inference", "batch"} {
		t.Run("queue "+queue+" passes", func(t *testing.T) {
			acctest.PlanWithoutAPICalls(t, func(host string) string { return queueSpellingConfig(host, queue, true) }, nil)
			acctest.PlanWithoutAPICalls(t, func(host string) string { return queueSpellingConfig(host, queue, false) }, nil)
		})
	}
}
