package provider_test

import (
	"fmt"
	"testing"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
)

// flavorPoolConfig is an A100 pool sliced all-1g.10gb that runs on-demand nodes only, a flavor
// whose node labels are written by hand for capacityType, and a ClusterQueue that gives it 7
// slices. last is the one of the three Terraform plans last: "queue" (it refers to the flavor,
// which depends on the pool), "pool" (it depends on the queue, which refers to the flavor) or
// "flavor" (it depends on both; the queue names it by a string).
func flavorPoolConfig(host, capacityType, last string) string {
	poolAfter, flavorAfter, flavorName := "", "depends_on = [mlplatform_gpu_node_pool.a100]", "mlplatform_resource_flavor.a100.name"
	switch last {
	case "pool":
		poolAfter, flavorAfter = "depends_on = [mlplatform_cluster_queue.nlp]", ""
	case "flavor":
		flavorAfter, flavorName = "depends_on = [mlplatform_gpu_node_pool.a100, mlplatform_cluster_queue.nlp]", `"a100-sliced"`
	}
	return fmt.Sprintf(`
provider "mlplatform" {
  host = %[1]q
}

resource "mlplatform_gpu_node_pool" "a100" {
  name       = "a100"
  node_class = "gpu"
  gpu        = { model = "a100-80gb", instance_types = ["p4de.24xlarge"] }
  mig        = { profiles = { "1g.10gb" = 7 } }
  on_demand  = { max_gpus = 2 }
  %[2]s
}

resource "mlplatform_resource_flavor" "a100" {
  name        = "a100-sliced"
  node_labels = { "mlplatform.io/gpu" = "a100-sxm4-80gb", "karpenter.sh/capacity-type" = %[3]q }
  %[4]s
}

resource "mlplatform_cluster_queue" "nlp" {
  name               = "nlp"
  namespace_selector = {}
  resource_group {
    covered_resources = ["nvidia.com/mig-1g.10gb"]
    flavor {
      name = %[5]s
      resource {
        name          = "nvidia.com/mig-1g.10gb"
        nominal_quota = "7"
      }
    }
  }
}
`, host, poolAfter, capacityType, flavorAfter, flavorName)
}

// A flavor whose node labels no GPU node pool of the configuration supplies (spot, where the pool
// runs on-demand only), given quota, is a warning at plan with no API call, on whichever of the
// queue (its nominal_quota), the pool (its supplies) and the flavor (its node_labels) Terraform
// plans last, naming the pool's labels and the fix. The on-demand flavor the pool supplies says
// nothing, in every order.
func TestAccResourceFlavor_noPoolSuppliesWarnsAtPlan(t *testing.T) {
	found := `Flavor selects no GPU node pool's nodes: .*ResourceFlavor a100-sliced selects the nodes labelled karpenter.sh/capacity-type=spot, mlplatform.io/gpu=a100-sxm4-80gb, which no GPU node pool's nodes carry \(theirs: a100-on-demand: karpenter.sh/capacity-type=on-demand, mlplatform.io/gpu=a100-sxm4-80gb\)\. ClusterQueue nlp gives it 7 nvidia.com/mig-1g.10gb: .* Take the flavor's node labels from a pool's ` + "`supplies`"
	for last, at := range map[string]string{
		"queue":  `mlplatform_cluster_queue AttributeName\("resource_group"\).ElementKeyInt\(0\).AttributeName\("flavor"\).ElementKeyInt\(0\).AttributeName\("resource"\).ElementKeyInt\(0\).AttributeName\("nominal_quota"\)`,
		"pool":   `mlplatform_gpu_node_pool AttributeName\("supplies"\)`,
		"flavor": `mlplatform_resource_flavor AttributeName\("node_labels"\)`,
	} {
		t.Run(last+" planned last", func(t *testing.T) {
			warnings := acctest.PlanWarnings(t, func(host string) string { return flavorPoolConfig(host, "spot", last) })
			acctest.WarnedOnce(t, warnings, `^`+at+`: `+found)
			acctest.WarnedOnce(t, warnings, `Flavor selects no GPU node pool's nodes`)
		})
		t.Run(last+" planned last, supplied", func(t *testing.T) {
			warnings := acctest.PlanWarnings(t, func(host string) string { return flavorPoolConfig(host, "on-demand", last) })
			acctest.NotWarned(t, warnings, `Flavor selects no GPU node pool's nodes`)
		})
	}
}
