package kueue_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/service/kueue"
)

// capacityConfig is an H100 pool sliced all-1g.10gb (2 on-demand GPUs: 14 x 1g.10gb), a flavor fed
// from its supplies and a ClusterQueue with one quota on it. H100, not A100: the other tests'
// flavors select A100 nodes, and must not select this pool.
func capacityConfig(provider, prefix, res, quota string) string {
	return provider + fmt.Sprintf(`
resource "mlplatform_gpu_node_pool" "h100" {
  name       = "%[1]s-h100"
  node_class = "%[1]s-class"
  gpu        = { model = "h100", instance_types = ["p5.48xlarge"] }
  mig        = { profiles = { "1g.10gb" = 7 } }
  on_demand  = { max_gpus = 2 }
}

resource "mlplatform_resource_flavor" "h100" {
  name        = "%[1]s-h100"
  node_labels = mlplatform_gpu_node_pool.h100.supplies["on-demand"].node_labels
}

resource "mlplatform_cluster_queue" "team" {
  name               = "%[1]s-team"
  namespace_selector = {}
  resource_group {
    covered_resources = [%[2]q]
    flavor {
      name = mlplatform_resource_flavor.h100.name
      resource {
        name          = %[2]q
        nominal_quota = %[3]q
      }
    }
  }
}
`, prefix, res, quota)
}

// secondQueue is another ClusterQueue with a quota on capacityConfig's flavor.
func secondQueue(prefix, quota string) string {
	return fmt.Sprintf(`
resource "mlplatform_cluster_queue" "other" {
  name               = "%[1]s-other"
  namespace_selector = {}
  resource_group {
    covered_resources = ["nvidia.com/mig-1g.10gb"]
    flavor {
      name = mlplatform_resource_flavor.h100.name
      resource {
        name          = "nvidia.com/mig-1g.10gb"
        nominal_quota = %[2]q
      }
    }
  }
}
`, prefix, quota)
}

// strayConfig is capacityConfig with the flavor's node labels written by hand, mlplatform.io/gpu
// drifted to gpuLabel from what the pool's nodes carry (awslabs/ai-on-eks#237: runs Pending
// forever).
func strayConfig(provider, prefix, gpuLabel string) string {
	return strings.Replace(capacityConfig(provider, prefix, "nvidia.com/mig-1g.10gb", "7"),
		`node_labels = mlplatform_gpu_node_pool.h100.supplies["on-demand"].node_labels`,
		fmt.Sprintf(`node_labels = { "mlplatform.io/gpu" = %q, "karpenter.sh/capacity-type" = "on-demand" }
  depends_on  = [mlplatform_gpu_node_pool.h100]`, gpuLabel), 1)
}

// A flavor whose pool labels no pool's nodes carry, and a quota for a MIG profile the pool's nodes
// never expose, are refused before the queue is written; a quota above what the pool can supply is
// refused at plan, from the planned values; an over-commit by two queues is applied (with a
// warning, which the unit tests of internal/capacity and internal/framework check:
// terraform-plugin-testing cannot assert warnings). What each step wrote is the apiserver's record.
func TestAccClusterQueue_Capacity(t *testing.T) {
	rec := acctest.RecordWrites(t)
	p := acctest.ProviderBlock("", acctest.CostCentreDefault, rec.ProviderSetting())
	prefix := acctest.Name("acc-cap")
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             acctest.CheckDestroyed(t, "mlplatform_cluster_queue", kueue.ClusterQueueKind),
		Steps: []resource.TestStep{
			{
				// A value no pool ever writes (an alias): refused at plan, with the value to write.
				Config: strayConfig(p, prefix, "h100"),
				ExpectError: regexp.MustCompile(`(?s)Node label no GPU node pool writes.*` +
					`a\s+pool\s+of\s+h100\s+labels\s+them\s+mlplatform\.io/gpu=h100-sxm5-80gb`),
			},
			{
				// A value a pool may write, but no pool in the cluster does: refused before the queue
				// is written.
				PreConfig: func() { rec.ExpectNone(t, "the plan refused for a label no pool writes") },
				Config:    strayConfig(p, prefix, "b200-180gb"),
				ExpectError: regexp.MustCompile(`(?s)Flavor selects no GPU node pool's nodes.*` +
					`labelled\s+karpenter\.sh/capacity-type=on-demand,\s+mlplatform\.io/gpu=b200-180gb,\s+which\s+no\s+GPU\s+node\s+pool's\s+nodes\s+carry.*` +
					prefix + `-h100-on-demand:\s+karpenter\.sh/capacity-type=on-demand,\s+mlplatform\.io/gpu=h100-sxm5-80gb`),
			},
			{
				PreConfig: func() {
					rec.ExpectNone(t, "the apply refused for a flavor that selects no pool's nodes", kueue.ClusterQueueKind)
				},
				Config: capacityConfig(p, prefix, "nvidia.com/mig-2g.20gb", "4"),
				ExpectError: regexp.MustCompile(`(?s)never\s+expose.*nominal_quota = "4".*` + // on the quota's line
					`never\s+nvidia\.com/mig-2g\.20gb`),
			},
			{
				// One queue above what the pool can ever supply (14 at most): refused at plan, from
				// the planned pool, not the cluster's.
				PreConfig: func() {
					rec.ExpectNone(t, "the apply refused for a MIG profile the pool's nodes never expose", kueue.ClusterQueueKind)
				},
				Config:   capacityConfig(p, prefix, "nvidia.com/mig-1g.10gb", "20"),
				PlanOnly: true,
				ExpectError: regexp.MustCompile(`(?s)Quota exceeds what the flavor's node pools can supply.*nominal_quota = "20".*` +
					`nominal\s+quota\s+20\s+for\s+nvidia\.com/mig-1g\.10gb.*at\s+their\s+limits:\s+14`),
			},
			{
				// The same when the pool's limit is lowered in the same plan: the cluster's NodePool
				// still has 2 GPUs (14), the planned one 1 (7).
				PreConfig:   func() { rec.ExpectNone(t, "the plan refused for a quota above supply") },
				Config:      strings.Replace(capacityConfig(p, prefix, "nvidia.com/mig-1g.10gb", "10"), "max_gpus = 2", "max_gpus = 1", 1),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)nominal\s+quota\s+10\s+for\s+nvidia\.com/mig-1g\.10gb.*at\s+their\s+limits:\s+7`),
			},
			{
				// Two queues that add up to more (20): applied, with a warning, as over-commit can be
				// deliberate.
				PreConfig: func() { rec.ExpectNone(t, "the plan refused for a quota above a lowered supply") },
				Config:    capacityConfig(p, prefix, "nvidia.com/mig-1g.10gb", "10") + secondQueue(prefix, "10"),
				Check: func(*terraform.State) error {
					acctest.Get(t, kueue.ClusterQueueKind, "", prefix+"-team")
					acctest.Get(t, kueue.ClusterQueueKind, "", prefix+"-other")
					// The record is live: it holds both queues' writes.
					ws := rec.Take(t)
					for _, q := range []string{prefix + "-team", prefix + "-other"} {
						if !ws.Has(kueue.ClusterQueueKind, "", q) {
							return fmt.Errorf("the apiserver's record of the apply has no write of ClusterQueue %s:\n%s", q, ws)
						}
					}
					return nil
				},
			},
		},
	})
}
