package monitoring_test

import (
	"context"
	"fmt"
	"regexp"
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
	"github.com/mlplatform/terraform-provider-mlplatform/internal/service/monitoring"
)

const rulesAddr = "mlplatform_gpu_billing_rules.test"

// supplies are two pools' supplies as mlplatform_gpu_node_pool computes them, taints and
// tolerations included (the resource reads the rest and Terraform drops these).
const supplies = `
locals {
  toleration = [{ key = "nvidia.com/gpu", operator = "Exists", value = "", effect = "NoSchedule", toleration_seconds = null }]
  taint      = [{ key = "nvidia.com/gpu", value = "true", effect = "NoSchedule" }]
  a100 = {
    "on-demand" = {
      node_labels  = { "mlplatform.io/gpu" = "a100-sxm4-80gb", "karpenter.sh/capacity-type" = "on-demand", "karpenter.sh/nodepool" = "a100-on-demand" }
      taints       = local.taint
      tolerations  = local.toleration
      resources    = { "nvidia.com/gpu" = 16 }
      per_gpu      = { "nvidia.com/gpu" = 1 }
      hourly_price = { "nvidia.com/gpu" = 5.12 }
    }
    spot = {
      node_labels  = { "mlplatform.io/gpu" = "a100-sxm4-80gb", "karpenter.sh/capacity-type" = "spot", "karpenter.sh/nodepool" = "a100-spot" }
      taints       = local.taint
      tolerations  = local.toleration
      resources    = { "nvidia.com/gpu" = 32 }
      per_gpu      = { "nvidia.com/gpu" = 1 }
      hourly_price = null
    }
  }
  a100_mig = {
    "on-demand" = {
      node_labels  = { "mlplatform.io/gpu" = "a100-sxm4-80gb", "karpenter.sh/capacity-type" = "on-demand", "karpenter.sh/nodepool" = "a100-mig-on-demand" }
      taints       = local.taint
      tolerations  = local.toleration
      resources    = { "nvidia.com/mig-1g.10gb" = 56 }
      per_gpu      = { "nvidia.com/mig-1g.10gb" = 7 }
      hourly_price = { "nvidia.com/mig-1g.10gb" = 0.7314285714285714 }
    }
  }
}
`

func rulesConfig(host, ns, body string) string {
	return acctest.ProviderBlock(host, acctest.CostCentreDefault) + supplies + fmt.Sprintf(`
resource "mlplatform_gpu_billing_rules" "test" {
  namespace = %q
  name      = "gpu-billing"
  pools     = { a100 = local.a100, "a100-mig" = local.a100_mig }
%s
}
`, ns, body)
}

var prometheusRuleGVR = monitoring.PrometheusRuleKind.GVR

// liveRules is the live PrometheusRule's one group.
func liveRules(t *testing.T, ns string) map[string]any {
	t.Helper()
	obj := acctest.Get(t, monitoring.PrometheusRuleKind, ns, "gpu-billing")
	groups, _, _ := unstructured.NestedSlice(obj.Object, "spec", "groups")
	if len(groups) != 1 {
		t.Fatalf("PrometheusRule has %d groups: %v", len(groups), groups)
	}
	return groups[0].(map[string]any)
}

// rule finds a rule of the group by its record or alert name (and, for a record, a label value).
func rule(group map[string]any, name string) map[string]any {
	for _, r := range group["rules"].([]any) {
		m := r.(map[string]any)
		if m["record"] == name || m["alert"] == name {
			return m
		}
	}
	return nil
}

func checkLive(t *testing.T, ns, interval, idleFor string, exprHas ...string) func(*terraform.State) error {
	return func(*terraform.State) error {
		g := liveRules(t, ns)
		if g["interval"] != interval {
			return fmt.Errorf("interval = %v, want %s", g["interval"], interval)
		}
		if idle := rule(g, "MLPlatformAllocatedGPUIdle"); idle == nil || idle["for"] != idleFor {
			return fmt.Errorf("idle alert = %v, want for %s", idle, idleFor)
		}
		var all strings.Builder
		for _, r := range g["rules"].([]any) {
			fmt.Fprintln(&all, r.(map[string]any)["expr"])
		}
		for _, want := range exprHas {
			if !strings.Contains(all.String(), want) {
				return fmt.Errorf("no rule has %q:\n%s", want, all.String())
			}
		}
		return nil
	}
}

func TestAccGPUBillingRules_lifecycle(t *testing.T) {
	ns := acctest.Name("acc-billing")
	updated := `evaluation_interval          = "30s"
  gpu_idle_alert_after         = "2h"
  admission_wait_slo_per_queue = { research = "2h" }
  alert_labels                 = { severity = "page", team = "platform" }`
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.Namespace(t, ns) },
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             acctest.CheckDestroyed(t, "mlplatform_gpu_billing_rules", monitoring.PrometheusRuleKind),
		Steps: []resource.TestStep{
			{
				Config: rulesConfig("", ns, ""),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(rulesAddr, tfjsonpath.New("id"), knownvalue.StringExact(ns+"/gpu-billing")),
					statecheck.ExpectKnownValue(rulesAddr, tfjsonpath.New("labels"), knownvalue.MapExact(map[string]knownvalue.Check{
						"release": knownvalue.StringExact("kube-prometheus-stack")})),
					statecheck.ExpectKnownValue(rulesAddr, tfjsonpath.New("gpu_memory_alert_ratio"), knownvalue.Float64Exact(0.95)),
				},
				Check: checkLive(t, ns, "1m", "1h",
					"* 60 / 3600",
					`mlplatform:pod_gpu_requests{resource="nvidia_com_mig_1g_10gb"} * 0.14285714285714285`,
					"vector(5.12)", "vector(0.7314285714285714)",
					`"label_mlplatform_io_team"`, `"exported_pod"`),
			},
			{
				Config: rulesConfig("", ns, updated),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(rulesAddr, plancheck.ResourceActionUpdate),
				}},
				Check: resource.ComposeTestCheckFunc(
					checkLive(t, ns, "30s", "2h", "* 30 / 3600", `{cluster_queue="research"} > 7200`, `{cluster_queue!~"research"} > 600`),
					func(*terraform.State) error {
						if l := rule(liveRules(t, ns), "MLPlatformGPUXIDError")["labels"]; fmt.Sprint(l) != "map[severity:page team:platform]" {
							return fmt.Errorf("alert labels = %v", l)
						}
						return nil
					}),
			},
			acctest.ImportReleased(t, resource.TestStep{
				ResourceName:            rulesAddr,
				ImportState:             true,
				ImportStateId:           ns + "/gpu-billing",
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"timeouts"},
			}),
			{
				// An alert edited outside Terraform: drift of rules, restored by the next apply.
				PreConfig: func() { editAlert(t, ns, "MLPlatformGPUXIDError", "vector(0)") },
				Config:    rulesConfig("", ns, updated),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(rulesAddr, plancheck.ResourceActionUpdate),
				}},
				Check: func(*terraform.State) error {
					if e := rule(liveRules(t, ns), "MLPlatformGPUXIDError")["expr"]; e != "mlplatform:gpu_xid_errors > 0" {
						return fmt.Errorf("XID alert expr = %v", e)
					}
					return nil
				},
			},
			{
				// Deleted outside Terraform: planned for re-creation.
				PreConfig: func() { acctest.Delete(t, monitoring.PrometheusRuleKind, ns, "gpu-billing") },
				Config:    rulesConfig("", ns, updated),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(rulesAddr, plancheck.ResourceActionCreate),
				}},
				Check: checkLive(t, ns, "30s", "2h"),
			},
		},
	})
}

// editAlert changes an alert's expression with an update, as `kubectl edit` would.
func editAlert(t *testing.T, ns, alert, expr string) {
	t.Helper()
	obj := acctest.Get(t, monitoring.PrometheusRuleKind, ns, "gpu-billing")
	groups, _, _ := unstructured.NestedSlice(obj.Object, "spec", "groups")
	r := rule(groups[0].(map[string]any), alert)
	if r == nil {
		t.Fatalf("no alert %s", alert)
	}
	r["expr"] = expr
	if err := unstructured.SetNestedSlice(obj.Object, groups, "spec", "groups"); err != nil {
		t.Fatal(err)
	}
	if _, err := acctest.Dynamic(t).Resource(prometheusRuleGVR).Namespace(ns).Update(context.Background(), obj, metav1.UpdateOptions{FieldManager: "kubectl-edit"}); err != nil {
		t.Fatalf("edit PrometheusRule: %v", err)
	}
}

// planAgainstUnreachable plans config against a stand-in API server that counts requests: it
// fails with want (nil: succeeds), and makes no API call.
func planAgainstUnreachable(t *testing.T, config func(host string) string, want *regexp.Regexp) {
	t.Helper()
	acctest.TestWithoutAPICalls(t, func(host string) []resource.TestStep {
		return []resource.TestStep{{
			Config:             config(host),
			PlanOnly:           true,
			ExpectNonEmptyPlan: want == nil,
			ExpectError:        want,
		}}
	})
}

func words(s string) *regexp.Regexp {
	return regexp.MustCompile(strings.ReplaceAll(regexp.QuoteMeta(s), " ", `\s+`))
}

// Mistakes are plan errors naming the attribute, with no API call.
func TestAccGPUBillingRules_refusedAtPlan(t *testing.T) {
	pool := func(model, nodepool, resource string) string {
		return fmt.Sprintf(`pools = { a100 = { spot = {
    node_labels  = { "mlplatform.io/gpu" = %q, "karpenter.sh/capacity-type" = "spot", "karpenter.sh/nodepool" = %q }
    per_gpu      = { %q = 1 }
    hourly_price = { %q = 1.5 }
  } } }`, model, nodepool, resource, resource)
	}
	cases := map[string]struct{ body, want string }{
		"unknown GPU model": {pool("a200", "a100-spot", "nvidia.com/gpu"),
			`pools["a100"]["spot"]: node_labels["mlplatform.io/gpu"]: unknown GPU model "a200"`},
		"pool keyed by another name": {pool("a100-sxm4-80gb", "other-spot", "nvidia.com/gpu"),
			`node_labels["karpenter.sh/nodepool"] is "other-spot", not "a100-spot": key pools by the GPU node pool's name`},
		"MIG profile of another GPU": {pool("a100-sxm4-80gb", "a100-spot", "nvidia.com/mig-1g.5gb"),
			`A100-SXM4-80GB has no MIG profile "1g.5gb"`},
		"not a GPU resource": {pool("a100-sxm4-80gb", "a100-spot", "nvidia.com/gpu.shared"),
			`"nvidia.com/gpu.shared" is not a resource the NVIDIA device plugin advertises`},
		"capacity type": {`pools = { a100 = { preemptible = { node_labels = {}, per_gpu = {}, hourly_price = null } } }`,
			`pools["a100"]["preemptible"]: the capacity type must be one of ["on-demand" "spot" "reserved"]`},
		"price of a resource not supplied": {`pools = { a100 = { spot = {
    node_labels  = { "mlplatform.io/gpu" = "a100", "karpenter.sh/nodepool" = "a100-spot" }
    per_gpu      = { "nvidia.com/gpu" = 1 }
    hourly_price = { "nvidia.com/mig-1g.10gb" = 1.5 }
  } } }`, `hourly_price has "nvidia.com/mig-1g.10gb", which per_gpu does not list`},
		"parts without a price": {`pools = { a100 = { spot = {
    node_labels  = { "mlplatform.io/gpu" = "a100", "karpenter.sh/nodepool" = "a100-spot" }
    per_gpu      = null
    hourly_price = null
  } } }`, `per_gpu is null, as the pool's mig.parts split its GPUs, and hourly_price lists no resources`},
		"duration": {pool("a100", "a100-spot", "nvidia.com/gpu") + "\ngpu_idle_alert_after = \"1 hour\"",
			`Attribute gpu_idle_alert_after: "1 hour" is not a Prometheus duration`},
		"fractional interval": {pool("a100", "a100-spot", "nvidia.com/gpu") + "\nevaluation_interval = \"1500ms\"",
			`Attribute evaluation_interval: "1500ms" is not a whole number of seconds`},
		"per-queue SLO": {pool("a100", "a100-spot", "nvidia.com/gpu") + "\nadmission_wait_slo_per_queue = { research = \"soon\" }",
			`"soon" is not a Prometheus duration`},
		"team label": {pool("a100", "a100-spot", "nvidia.com/gpu") + "\nteam_label = \"team name\"",
			`Attribute team_label: "team name" is not a valid Kubernetes key`},
		"dcgm label": {pool("a100", "a100-spot", "nvidia.com/gpu") + "\ndcgm_node_label = \"host-name\"",
			`Attribute dcgm_node_label: "host-name" is not a Prometheus label name`},
		"memory ratio": {pool("a100", "a100-spot", "nvidia.com/gpu") + "\ngpu_memory_alert_ratio = 95",
			`Attribute gpu_memory_alert_ratio value must be between 0.000000 and 1.000000, got: 95.000000`},
	}
	all := map[string]acctest.PlanCase{}
	for name, tc := range cases {
		all[name] = acctest.PlanCase{Config: func(host string) string {
			return acctest.ProviderBlock(host, acctest.CostCentreDefault) + fmt.Sprintf("resource \"mlplatform_gpu_billing_rules\" \"test\" {\n  name = \"gpu-billing\"\n  %s\n}\n", tc.body)
		}, Want: words(tc.want)}
	}
	acctest.PlanCases(t, all)
}

// A real GPU node pool's supplies go straight into pools; the plan knows the rules, and makes no
// API call.
func TestAccGPUBillingRules_poolSuppliesAtPlan(t *testing.T) {
	planAgainstUnreachable(t, func(host string) string {
		return acctest.ProviderBlock(host, acctest.CostCentreDefault) + `
resource "mlplatform_gpu_node_pool" "a100" {
  name       = "a100"
  node_class = "gpu"
  gpu        = { model = "a100-80gb" }
  mig        = { config = "all-1g.10gb" }
  on_demand  = { max_gpus = 8 }
  spot       = { max_gpus = 16, discount = 0.6 }
}

# GPUs split into MIG parts: per_gpu is null, and the rules read the resources from the prices.
resource "mlplatform_gpu_node_pool" "half" {
  name       = "half"
  node_class = "gpu"
  gpu        = { model = "a100-80gb" }
  mig = { parts = [
    { devices = [0, 1, 2, 3], config = "all-balanced" },
    { devices = [4, 5, 6, 7], config = "all-disabled" },
  ] }
  on_demand = { max_gpus = 8 }
}

resource "mlplatform_gpu_billing_rules" "test" {
  name = "gpu-billing"
  pools = {
    (mlplatform_gpu_node_pool.a100.name) = mlplatform_gpu_node_pool.a100.supplies
    (mlplatform_gpu_node_pool.half.name) = mlplatform_gpu_node_pool.half.supplies
  }
}

output "rules" { value = mlplatform_gpu_billing_rules.test.rules }
`
	}, nil)
}
