package kueue_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/service/kueue"
)

const cqAddr = "mlplatform_cluster_queue.test"

// cqConfig is a provider and one ClusterQueue named name; body follows the name. The queue does
// not wait for Active, so these tests pass with or without Kueue's controller.
func cqConfig(host, name, body string) string {
	return acctest.ProviderBlock(host, acctest.CostCentreDefault) + fmt.Sprintf(`
resource "mlplatform_cluster_queue" "test" {
  name            = %q
  wait_for_active = false
%s
}
`, name, body)
}

// cqQuota is a GPU quota on one flavor; gpu is the GPU quota's body after its name. cpu is "1.5",
// which Kubernetes stores as "1500m": the configured spelling must survive a refresh.
func cqQuota(flavor, gpu string) string {
	return fmt.Sprintf(`
  resource_group {
    covered_resources = ["nvidia.com/gpu", "cpu", "memory"]
    flavor {
      name = %q
      resource {
        name = "nvidia.com/gpu"
        %s
      }
      resource {
        name          = "cpu"
        nominal_quota = "1.5"
      }
      resource {
        name          = "memory"
        nominal_quota = "1Ti"
      }
    }
  }
`, flavor, gpu)
}

func nested(t *testing.T, obj *unstructured.Unstructured, path ...string) any {
	t.Helper()
	v, _, err := unstructured.NestedFieldNoCopy(obj.Object, path...)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// gpuQuota is the live GPU quota of the queue's first flavor.
func gpuQuota(t *testing.T, name string) map[string]any {
	t.Helper()
	groups := nested(t, acctest.Get(t, kueue.ClusterQueueKind, "", name), "spec", "resourceGroups").([]any)
	flavors := groups[0].(map[string]any)["flavors"].([]any)
	return flavors[0].(map[string]any)["resources"].([]any)[0].(map[string]any)
}

func TestAccClusterQueue_lifecycle(t *testing.T) {
	name, cohort, flavor := acctest.Name("acc-cq-lifecycle"), acctest.Name("acc-cq-lifecycle-cohort"), acctest.Name("acc-cq-a100")
	created := fmt.Sprintf(`
  cohort            = %q
  labels            = { team = "research" }
  queueing_strategy = "StrictFIFO"
  namespace_selector = {}
  preemption = {
    reclaim_within_cohort = "Any"
    within_cluster_queue  = "LowerPriority"
  }
`, cohort) + cqQuota(flavor, `nominal_quota = "15"
        borrowing_limit = "5"`)
	updated := fmt.Sprintf(`
  cohort      = %q
  labels      = { team = "research" }
  stop_policy = "Hold"
  namespace_selector = {
    match_labels = { "mlplatform.io/team" = "research" }
    match_expressions = [{ key = "tier", operator = "In", values = ["training"] }]
  }
  fair_sharing_weight = "0.5"
  admission_mode      = "UsageBasedAdmissionFairSharing"
`, cohort) + cqQuota(flavor, `nominal_quota = "16"
        lending_limit = "4"`)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             acctest.CheckDestroyed(t, "mlplatform_cluster_queue", kueue.ClusterQueueKind),
		Steps: []resource.TestStep{
			{
				Config: cqConfig("", name, created),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(cqAddr, plancheck.ResourceActionCreate),
					plancheck.ExpectUnknownValue(cqAddr, tfjsonpath.New("active")),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(cqAddr, tfjsonpath.New("id"), knownvalue.StringExact(name)),
					statecheck.ExpectKnownValue(cqAddr, tfjsonpath.New("stop_policy"), knownvalue.StringExact("None")),
					statecheck.ExpectKnownValue(cqAddr, tfjsonpath.New("pending_workloads"), knownvalue.Int64Exact(0)),
					statecheck.ExpectKnownValue(cqAddr, tfjsonpath.New("resource_group").AtSliceIndex(0).AtMapKey("flavor").AtSliceIndex(0).
						AtMapKey("resource").AtSliceIndex(1).AtMapKey("nominal_quota"), knownvalue.StringExact("1.5")),
					statecheck.ExpectKnownValue(cqAddr, tfjsonpath.New("labels_all"), knownvalue.MapExact(map[string]knownvalue.Check{
						"team": knownvalue.StringExact("research"), "billing.mlplatform.io/cost-centre": knownvalue.StringExact("cc-1234"),
					})),
				},
				Check: func(*terraform.State) error {
					live := acctest.Get(t, kueue.ClusterQueueKind, "", name)
					if got := nested(t, live, "spec", "cohortName"); got != cohort {
						return fmt.Errorf("spec.cohortName = %v", got)
					}
					if got := nested(t, live, "spec", "queueingStrategy"); got != "StrictFIFO" {
						return fmt.Errorf("spec.queueingStrategy = %v", got)
					}
					if sel, ok := nested(t, live, "spec", "namespaceSelector").(map[string]any); !ok || len(sel) != 0 {
						return fmt.Errorf("spec.namespaceSelector = %v, want {} (all namespaces)", sel)
					}
					if got := nested(t, live, "spec", "preemption", "reclaimWithinCohort"); got != "Any" {
						return fmt.Errorf("spec.preemption.reclaimWithinCohort = %v", got)
					}
					if q := gpuQuota(t, name); q["nominalQuota"] != "15" || q["borrowingLimit"] != "5" {
						return fmt.Errorf("GPU quota = %v, want nominal 15 and borrowing limit 5", q)
					}
					return nil
				},
			},
			{
				Config: cqConfig("", name, updated),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(cqAddr, plancheck.ResourceActionUpdate),
				}},
				Check: func(*terraform.State) error {
					live := acctest.Get(t, kueue.ClusterQueueKind, "", name)
					if q := gpuQuota(t, name); q["nominalQuota"] != "16" || q["lendingLimit"] != "4" || q["borrowingLimit"] != nil {
						return fmt.Errorf("GPU quota = %v, want nominal 16, lending limit 4, no borrowing limit", q)
					}
					if got := nested(t, live, "spec", "stopPolicy"); got != "Hold" {
						return fmt.Errorf("spec.stopPolicy = %v", got)
					}
					if got := nested(t, live, "spec", "namespaceSelector", "matchLabels", "mlplatform.io/team"); got != "research" {
						return fmt.Errorf("spec.namespaceSelector.matchLabels = %v", got)
					}
					if got := nested(t, live, "spec", "fairSharing", "weight"); got != "500m" {
						return fmt.Errorf("spec.fairSharing.weight = %v", got)
					}
					if got := nested(t, live, "spec", "admissionScope", "admissionMode"); got != "UsageBasedAdmissionFairSharing" {
						return fmt.Errorf("spec.admissionScope.admissionMode = %v", got)
					}
					// Removed from the configuration: Kueue's default is back, owned by no one.
					if got := nested(t, live, "spec", "queueingStrategy"); got != "BestEffortFIFO" {
						return fmt.Errorf("spec.queueingStrategy = %v, want the default back", got)
					}
					return nil
				},
			},
			acctest.ImportReleased(t, resource.TestStep{
				ResourceName:      cqAddr,
				ImportState:       true,
				ImportStateId:     name,
				ImportStateVerify: true,
				// Import records quantities in Kubernetes' spelling (1500m for 1.5), and the status as it is now.
				ImportStateVerifyIgnore: []string{"timeouts", "wait_for_active", "active", "fair_sharing_weight",
					"resource_group.0.flavor.0.resource.1.nominal_quota"},
			}),
			{
				// Quota changed with kubectl edit: drift, and the apply restores it.
				PreConfig: func() { setNominalQuota(t, name, "40") },
				Config:    cqConfig("", name, updated),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(cqAddr, plancheck.ResourceActionUpdate),
				}},
				Check: func(*terraform.State) error {
					if q := gpuQuota(t, name); q["nominalQuota"] != "16" {
						return fmt.Errorf("GPU quota after drift repair = %v, want 16", q)
					}
					return nil
				},
			},
			{
				PreConfig: func() { acctest.SetLabel(t, kueue.ClusterQueueKind, "", name, "team", "someone-else") },
				Config:    cqConfig("", name, updated),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(cqAddr, plancheck.ResourceActionUpdate),
				}},
			},
			{
				// No namespace_selector: Kueue then admits no namespace, and the field is gone.
				Config: cqConfig("", name, cqQuota(flavor, `nominal_quota = "16"`)),
				Check: func(*terraform.State) error {
					if sel := nested(t, acctest.Get(t, kueue.ClusterQueueKind, "", name), "spec", "namespaceSelector"); sel != nil {
						return fmt.Errorf("spec.namespaceSelector = %v, want none", sel)
					}
					return nil
				},
			},
			{
				PreConfig: func() { deleteAndWait(t, kueue.ClusterQueueKind, "", name) },
				Config:    cqConfig("", name, cqQuota(flavor, `nominal_quota = "16"`)),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(cqAddr, plancheck.ResourceActionCreate),
				}},
			},
		},
	})
}

// setNominalQuota changes the first quota with an update, as kubectl edit does.
func setNominalQuota(t *testing.T, name, quota string) {
	t.Helper()
	obj := acctest.Get(t, kueue.ClusterQueueKind, "", name)
	groups := nested(t, obj, "spec", "resourceGroups").([]any)
	groups[0].(map[string]any)["flavors"].([]any)[0].(map[string]any)["resources"].([]any)[0].(map[string]any)["nominalQuota"] = quota
	if _, err := acctest.Dynamic(t).Resource(kueue.ClusterQueueKind.GVR).Update(context.Background(), obj, metav1.UpdateOptions{FieldManager: "kubectl-edit"}); err != nil {
		t.Fatalf("edit ClusterQueue %s: %v", name, err)
	}
}

// Defaults Kueue fills in (preemption, flavorFungibility) and fields other managers add cause no
// diff, and a queue of only defaults imports clean.
func TestAccClusterQueue_kueueDefaultsCauseNoDiff(t *testing.T) {
	name := acctest.Name("acc-cq-defaults")
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             acctest.CheckDestroyed(t, "mlplatform_cluster_queue", kueue.ClusterQueueKind),
		Steps: []resource.TestStep{
			{
				Config: cqConfig("", name, `flavor_fungibility = { when_can_borrow = "TryNextFlavor" }`),
				Check: func(*terraform.State) error {
					live := acctest.Get(t, kueue.ClusterQueueKind, "", name)
					if got := nested(t, live, "spec", "preemption", "withinClusterQueue"); got != "Never" {
						return fmt.Errorf("spec.preemption.withinClusterQueue = %v, want Kueue's default Never", got)
					}
					if got := nested(t, live, "spec", "flavorFungibility", "whenCanPreempt"); got != "TryNextFlavor" {
						return fmt.Errorf("spec.flavorFungibility.whenCanPreempt = %v", got)
					}
					return nil
				},
			},
			{
				PreConfig: func() {
					acctest.ApplyAs(t, "other-controller", kueue.ClusterQueueKind, "", map[string]any{
						"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "ClusterQueue",
						"metadata": map[string]any{"name": name, "labels": map[string]any{"added-by": "other"}},
					})
				},
				Config:   cqConfig("", name, `flavor_fungibility = { when_can_borrow = "TryNextFlavor" }`),
				PlanOnly: true,
			},
			acctest.ImportReleased(t, resource.TestStep{
				ResourceName:            cqAddr,
				ImportState:             true,
				ImportStateId:           name,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"timeouts", "wait_for_active", "labels", "labels_all", "active"},
			}),
		},
	})
}

// A plan that only creates queues needs no reachable cluster.
func TestClusterQueue_planNeedsNoCluster(t *testing.T) {
	acctest.PlanWithoutAPICalls(t, func(host string) string {
		return cqConfig(host, "planned", `cohort = "team"`+cqQuota("a100", `nominal_quota = "15"`))
	}, nil)
}

// Refusals outside the parity table (see cluster_queue_parity_test.go for the quota rules).
func TestClusterQueue_invalidInputFailsAtPlan(t *testing.T) {
	cases := map[string]struct{ name, body, want string }{
		"invalid name":       {"Team_A", "", `Attribute name: "Team_A" is not a valid`},
		"bad label":          {"q", `labels = { "-x" = "y" }`, `"-x" is not a valid Kubernetes key`},
		"empty check flavor": {"q", `admission_checks_strategy = [{ name = "prov", on_flavors = ["A100"] }]`, `on_flavors\[0\]: "A100" is not a valid Kubernetes name`},
		"empty check list":   {"q", `admission_checks_strategy = []`, `admission_checks_strategy list must contain at least 1`},
		"check name too long": {"q", fmt.Sprintf(`admission_checks_strategy = [{ name = %q }]`, strings.Repeat("a", 317)),
			`Attribute admission_checks_strategy\[0\]\.name: spec\.admissionChecksStrategy\.admissionChecks\[0\]\.name: Too long: may not be more than 316`},
	}
	all := map[string]acctest.PlanCase{}
	for name, tc := range cases {
		all[name] = acctest.PlanCase{Config: func(host string) string { return cqConfig(host, tc.name, tc.body) }, Want: acctest.Wrapped(tc.want)}
	}
	acctest.PlanCases(t, all)
}
