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

const lqAddr = "mlplatform_local_queue.test"

func lqConfig(host, namespace, name, body string) string {
	return acctest.ProviderBlock(host, acctest.CostCentreDefault) + fmt.Sprintf(`
resource "mlplatform_local_queue" "test" {
  namespace = %q
  name      = %q
%s
}
`, namespace, name, body)
}

func TestAccLocalQueue_lifecycle(t *testing.T) {
	ns, name := acctest.Name("acc-lq-research"), "training"
	cqA100, cqH100 := acctest.Name("acc-lq-research-a100"), acctest.Name("acc-lq-research-h100")
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t); acctest.Namespace(t, ns) },
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             acctest.CheckDestroyed(t, "mlplatform_local_queue", kueue.LocalQueueKind),
		Steps: []resource.TestStep{
			{
				Config: lqConfig("", ns, name, fmt.Sprintf(`cluster_queue = %q
  labels = { team = "research" }`, cqA100)),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(lqAddr, tfjsonpath.New("id"), knownvalue.StringExact(ns+"/"+name)),
					statecheck.ExpectKnownValue(lqAddr, tfjsonpath.New("stop_policy"), knownvalue.StringExact("None")),
				},
				Check: func(*terraform.State) error {
					live := acctest.Get(t, kueue.LocalQueueKind, ns, name)
					if got := nested(t, live, "spec", "clusterQueue"); got != cqA100 {
						return fmt.Errorf("spec.clusterQueue = %v", got)
					}
					return nil
				},
			},
			{
				Config: lqConfig("", ns, name, fmt.Sprintf(`cluster_queue = %q
  labels      = { team = "research" }
  stop_policy = "HoldAndDrain"
  fair_sharing_weight = "0.5"`, cqA100)),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(lqAddr, plancheck.ResourceActionUpdate),
				}},
				Check: func(*terraform.State) error {
					live := acctest.Get(t, kueue.LocalQueueKind, ns, name)
					if got := nested(t, live, "spec", "stopPolicy"); got != "HoldAndDrain" {
						return fmt.Errorf("spec.stopPolicy = %v", got)
					}
					if got := nested(t, live, "spec", "fairSharing", "weight"); got != "500m" {
						return fmt.Errorf("spec.fairSharing.weight = %v", got)
					}
					return nil
				},
			},
			acctest.ImportReleased(t, resource.TestStep{
				ResourceName:      lqAddr,
				ImportState:       true,
				ImportStateId:     ns + "/" + name,
				ImportStateVerify: true,
				// Import records the weight in Kubernetes' spelling (500m for 0.5).
				ImportStateVerifyIgnore: []string{"timeouts", "fair_sharing_weight"},
			}),
			{
				PreConfig: func() { acctest.SetLabel(t, kueue.LocalQueueKind, ns, name, "team", "other") },
				Config: lqConfig("", ns, name, fmt.Sprintf(`cluster_queue = %q
  labels      = { team = "research" }
  stop_policy = "HoldAndDrain"
  fair_sharing_weight = "0.5"`, cqA100)),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(lqAddr, plancheck.ResourceActionUpdate),
				}},
			},
			{
				// Kueue forbids changing the ClusterQueue: a new LocalQueue replaces the old.
				Config: lqConfig("", ns, name, fmt.Sprintf("cluster_queue = %q", cqH100)),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(lqAddr, plancheck.ResourceActionDestroyBeforeCreate),
				}},
			},
			{
				PreConfig: func() { deleteAndWait(t, kueue.LocalQueueKind, ns, name) },
				Config:    lqConfig("", ns, name, fmt.Sprintf("cluster_queue = %q", cqH100)),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(lqAddr, plancheck.ResourceActionCreate),
				}},
			},
		},
	})
}

// A LocalQueue in a namespace that does not exist is an apply error that says so, and nothing is
// written (the apiserver's record of the provider's writes is empty).
func TestAccLocalQueue_missingNamespace(t *testing.T) {
	rec := acctest.RecordWrites(t)
	ns := acctest.Name("acc-lq-no-such-namespace")
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		Steps: []resource.TestStep{{
			Config:      rec.Recorded(lqConfig("", ns, "training", fmt.Sprintf("cluster_queue = %q", acctest.Name("acc-lq-q")))),
			ExpectError: acctest.Words(fmt.Sprintf(`namespace %q does not exist: create it before the LocalQueue`, ns)),
		}},
	})
	rec.ExpectNone(t, "the failed apply")
}

func TestLocalQueue_invalidInputFailsAtPlan(t *testing.T) {
	cases := map[string]struct{ ns, name, body, want string }{
		"bad namespace":     {"Research", "q", `cluster_queue = "cq"`, `Attribute namespace: "Research" is not a valid RFC 1123 label`},
		"bad name":          {"research", "Q", `cluster_queue = "cq"`, `Attribute name: "Q" is not a valid`},
		"bad cluster queue": {"research", "q", `cluster_queue = "CQ_1"`, `Attribute cluster_queue: "CQ_1" is not a valid`},
		"no cluster queue":  {"research", "q", ``, `The argument "cluster_queue" is required`},
		"bad stop policy":   {"research", "q", "cluster_queue = \"cq\"\nstop_policy = \"Drain\"", `Attribute stop_policy value must be one of`},
		"bad weight":        {"research", "q", "cluster_queue = \"cq\"\nfair_sharing_weight = \"-1\"", `fair_sharing_weight`},
	}
	all := map[string]acctest.PlanCase{}
	for name, tc := range cases {
		all[name] = acctest.PlanCase{Config: func(host string) string { return lqConfig(host, tc.ns, tc.name, tc.body) }, Want: acctest.Wrapped(tc.want)}
	}
	acctest.PlanCases(t, all)
}
