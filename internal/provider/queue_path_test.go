package provider_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
)

// queuePathConfig is a team "nlp" whose LocalQueue "training" feeds ClusterQueue "nlp", which
// gives 14 A100 1g.10gb MIG slices (and their CPU and memory) on one flavor per capacity type of
// capacities, and a template asking for gpuType, with extra attributes. templateLast makes the
// template refer to the team (planned after the whole queue path), else the flavors refer to the
// template (planned before it; the team, planned last, completes the path).
func queuePathConfig(host, gpuType, extra string, capacities []string, templateLast bool) string {
	ns, after := `mlplatform_team.nlp.namespace`, ""
	if !templateLast {
		ns, after = `"nlp"`, `labels = { template = mlplatform_training_job_template.run.name }`
	}
	var flavors, quotas strings.Builder
	for _, c := range capacities {
		fmt.Fprintf(&flavors, `
resource "mlplatform_resource_flavor" %[1]q {
  name        = "a100-%[1]s"
  node_labels = { "mlplatform.io/gpu" = "a100-sxm4-80gb", "karpenter.sh/capacity-type" = %[1]q }
  node_taints = [{ key = "nvidia.com/gpu", value = "true", effect = "NoSchedule" }]
  %[2]s
}
`, c, after)
		fmt.Fprintf(&quotas, `
    flavor {
      name = mlplatform_resource_flavor.%[1]s.name
      resource {
        name          = "nvidia.com/mig-1g.10gb"
        nominal_quota = "14"
      }
      resource {
        name          = "cpu"
        nominal_quota = "64"
      }
      resource {
        name          = "memory"
        nominal_quota = "512Gi"
      }
    }`, c)
	}
	return fmt.Sprintf(`
provider "mlplatform" {
  host = %[1]q
}
%[2]s
resource "mlplatform_cluster_queue" "nlp" {
  name               = "nlp"
  namespace_selector = {}
  resource_group {
    covered_resources = ["nvidia.com/mig-1g.10gb", "cpu", "memory"]
%[3]s
  }
}

resource "mlplatform_team" "nlp" {
  name                  = "nlp"
  local_queues          = { training = mlplatform_cluster_queue.nlp.name }
  require_project_label = false
}

resource "mlplatform_training_job_template" "run" {
  namespace       = %[4]s
  name            = "sentiment"
  queue           = "training"
  image           = "ghcr.io/acme/trainer:1"
  training_script = "train.py"
  hardware        = { gpu_type = %[5]q, cpu_cores = 2, memory_gb = 16 }
  %[6]s
}
`, host, flavors.String(), quotas.String(), ns, gpuType, extra)
}

// A template whose queue, planned in the same configuration, could never admit its pods (a MIG
// profile the queue has no quota for) is refused at plan, with no API call, instead of at apply
// after everything else was written: on the template's gpu_type when it is planned last, on the
// resource that completes the queue path (here the team) when the template is planned first. A
// profile the queue covers passes.
func TestAccTrainingJobTemplate_queueInTheConfigurationRefusesAtPlan(t *testing.T) {
	refusal := `Attribute hardware.gpu_type: through LocalQueue nlp/training, ClusterQueue nlp has no quota for nvidia.com/mig-2g.20gb (it covers: nvidia.com/mig-1g.10gb, cpu, memory).`
	t.Run("template planned last", func(t *testing.T) {
		acctest.RefusedAtPlan(t, func(host string) string {
			return queuePathConfig(host, "a100-2g.20gb", "", []string{"spot", "on-demand"}, true)
		}, `(?s)Kueue could never admit this template .*`+acctest.Words(refusal).String())
	})
	t.Run("template planned first", func(t *testing.T) {
		acctest.RefusedAtPlan(t, func(host string) string {
			return queuePathConfig(host, "a100-2g.20gb", "", []string{"spot", "on-demand"}, false)
		}, `(?s)with mlplatform_team.nlp,.*mlplatform_training_job_template "nlp/sentiment" \(planned before this resource\): `+
			acctest.Words(refusal).String())
	})
	for _, last := range []bool{true, false} {
		t.Run(fmt.Sprintf("covered profile passes, template last %v", last), func(t *testing.T) {
			acctest.PlanWithoutAPICalls(t, func(host string) string {
				return queuePathConfig(host, "a100-1g.10gb", "", []string{"spot", "on-demand"}, last)
			}, nil)
		})
	}
}

// A template whose runs can only land on spot capacity and that has no checkpoint is a warning at
// plan: when its queue's flavors that can take its pods are all spot, on the template's queue
// when it is planned last, on the team that completes the queue path when the template is planned
// first. An on-demand flavor beside, or a checkpoint, says nothing.
func TestAccTrainingJobTemplate_spotOnlyQueueWithoutCheckpointWarnsAtPlan(t *testing.T) {
	spot := `Spot capacity without a checkpoint: Attribute checkpoint: not set, and LocalQueue nlp/training admits this template's pods only on spot capacity \(ClusterQueue nlp's flavors that can take them: a100-spot, labelled karpenter.sh/capacity-type=spot\): each spot reclaim restarts a run from zero\. Set checkpoint = \{ uri = "s3://<bucket>/<prefix>" \}`
	t.Run("template planned last", func(t *testing.T) {
		warnings := acctest.PlanWarnings(t, func(host string) string {
			return queuePathConfig(host, "a100-1g.10gb", "", []string{"spot"}, true)
		})
		acctest.WarnedOnce(t, warnings, `^mlplatform_training_job_template AttributeName\("queue"\): `+spot)
	})
	t.Run("template planned first", func(t *testing.T) {
		warnings := acctest.PlanWarnings(t, func(host string) string {
			return queuePathConfig(host, "a100-1g.10gb", "", []string{"spot"}, false)
		})
		acctest.WarnedOnce(t, warnings, `^mlplatform_team: Spot capacity without a checkpoint: mlplatform_training_job_template "nlp/sentiment" \(planned before this resource\): `+
			strings.TrimPrefix(spot, "Spot capacity without a checkpoint: "))
	})
	for name, tc := range map[string]struct {
		extra      string
		capacities []string
	}{
		"an on-demand flavor beside": {capacities: []string{"spot", "on-demand"}},
		"a checkpoint":               {extra: `checkpoint = { uri = "s3://acme/ckpt" }`, capacities: []string{"spot"}},
	} {
		for _, last := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s, template last %v", name, last), func(t *testing.T) {
				warnings := acctest.PlanWarnings(t, func(host string) string {
					return queuePathConfig(host, "a100-1g.10gb", tc.extra, tc.capacities, last)
				})
				acctest.NotWarned(t, warnings, `Spot capacity without a checkpoint`)
			})
		}
	}
}
