package kueue_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"k8s.io/client-go/rest"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/service/kueue"
)

// provisioningOnPoolConfig is a GPU node pool with a flavor fed from its supplies, a flavor of other
// nodes, Kueue's ProvisioningRequest check, another check, and a queue applying the first to both.
func provisioningOnPoolConfig(prefix string) string {
	return acctest.ProviderBlock("", acctest.CostCentreDefault) + fmt.Sprintf(`
resource "mlplatform_gpu_node_pool" "h100" {
  name       = "%[1]s-h100"
  node_class = "%[1]s-class"
  gpu        = { model = "h100", instance_types = ["p5.48xlarge"] }
  on_demand  = { max_gpus = 8 }
}

resource "mlplatform_resource_flavor" "pool" {
  name        = "%[1]s-pool"
  node_labels = mlplatform_gpu_node_pool.h100.supplies["on-demand"].node_labels
}

resource "mlplatform_resource_flavor" "other" {
  name        = "%[1]s-other"
  node_labels = { "cloud.google.com/gke-nodepool" = "%[1]s" }
}

resource "mlplatform_provisioning_request_config" "prov" {
  name                    = "%[1]s"
  provisioning_class_name = "check-capacity.autoscaling.x-k8s.io"
}

resource "mlplatform_admission_check" "prov" {
  name            = "%[1]s-prov"
  controller_name = "kueue.x-k8s.io/provisioning-request"
  parameters = {
    api_group = "kueue.x-k8s.io"
    kind      = "ProvisioningRequestConfig"
    name      = mlplatform_provisioning_request_config.prov.name
  }
}

resource "mlplatform_admission_check" "other" {
  name            = "%[1]s-other"
  controller_name = "example.com/approval"
}

resource "mlplatform_cluster_queue" "team" {
  name               = "%[1]s-team"
  namespace_selector = {}
  wait_for_active    = false
  resource_group {
    covered_resources = ["nvidia.com/gpu"]
    flavor {
      name = mlplatform_resource_flavor.pool.name
      resource {
        name          = "nvidia.com/gpu"
        nominal_quota = "8"
      }
    }
    flavor {
      name = mlplatform_resource_flavor.other.name
      resource {
        name          = "nvidia.com/gpu"
        nominal_quota = "8"
      }
    }
  }
  admission_checks_strategy = [{ name = mlplatform_admission_check.prov.name }]
}
`, prefix)
}

// A ProvisioningRequest check applied to a flavor of a GPU node pool's (Karpenter's) nodes is
// warned about, naming the rule and the pool; on other nodes, or another controller's check, it is
// not. The queue applies with the warning; the warning itself is asked of the check directly, as
// Terraform's test framework cannot assert warnings.
func TestAccClusterQueue_provisioningCheckOnKarpenterWarns(t *testing.T) {
	prefix := acctest.Name("acc-prkarp")
	pool, other := prefix+"-pool", prefix+"-other"
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             acctest.CheckDestroyed(t, "mlplatform_cluster_queue", kueue.ClusterQueueKind),
		Steps: []resource.TestStep{{
			Config: provisioningOnPoolConfig(prefix),
			Check: func(*terraform.State) error {
				c := kube.NewClient(func() (*rest.Config, error) { return acctest.RestConfig(t), nil }, "test")
				ctx := context.Background()
				for _, tc := range []struct {
					check     string
					on        []string
					warnsPool bool
				}{
					{prefix + "-prov", nil, true},
					{prefix + "-prov", []string{pool}, true},
					{prefix + "-prov", []string{other}, false},
					{prefix + "-other", nil, false},
				} {
					diags, err := kueue.ProvisioningOnKarpenter(ctx, c, tc.check, []string{pool, other}, tc.on)
					if err != nil {
						return err
					}
					if got := diags.WarningsCount(); got != map[bool]int{true: 1, false: 0}[tc.warnsPool] || diags.HasError() {
						return fmt.Errorf("check %s on %v: %d warnings, want %v: %v", tc.check, tc.on, got, tc.warnsPool, diags)
					}
					if !tc.warnsPool {
						continue
					}
					w := diags.Warnings()[0]
					if d := w.Detail(); !strings.Contains(d, "admission_checks_strategy[0].name") ||
						!strings.Contains(d, "flavor "+pool) || !strings.Contains(d, prefix+"-h100") {
						return fmt.Errorf("warning names neither the rule, the flavor nor the pool: %s", d)
					}
				}
				return nil
			},
		}},
	})
}
