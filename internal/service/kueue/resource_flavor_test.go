package kueue_test

import (
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
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/service/kueue"
)

const flavorAddr = "mlplatform_resource_flavor.test"

// flavorConfig is a provider with a billing default label and one flavor; body is the flavor's
// attributes after its name.
func flavorConfig(name, body string) string {
	return flavorConfigWith(acctest.CostCentreDefault, name, body)
}

func flavorConfigWith(providerBody, name, body string) string {
	return fmt.Sprintf(`
provider "mlplatform" {
  %[1]s
}

resource "mlplatform_resource_flavor" "test" {
  name = %[2]q
  %[3]s
}
`, providerBody, name, body)
}

const flavorA100 = `
  labels = { team = "research" }
  node_labels = {
    "nvidia.com/gpu.product"       = "NVIDIA-A100-SXM4-80GB"
    "karpenter.sh/capacity-type"   = "on-demand"
  }
  node_taints = [{ key = "nvidia.com/gpu", value = "true", effect = "NoSchedule" }]
  tolerations = [{ key = "nvidia.com/gpu", operator = "Exists", effect = "NoSchedule" }]
`

// flavorA100Spot changes a node label and drops the taint: an update in place.
const flavorA100Spot = `
  labels = { team = "research" }
  node_labels = {
    "nvidia.com/gpu.product"       = "NVIDIA-A100-SXM4-80GB"
    "karpenter.sh/capacity-type"   = "spot"
  }
  tolerations = [{ key = "nvidia.com/gpu", operator = "Exists", effect = "NoSchedule" }]
`

func nestedString(t *testing.T, obj *unstructured.Unstructured, path ...string) string {
	t.Helper()
	v, _, err := unstructured.NestedString(obj.Object, path...)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestAccResourceFlavor_lifecycle(t *testing.T) {
	name := acctest.Name("acc-flavor-lifecycle")
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             acctest.CheckDestroyed(t, "mlplatform_resource_flavor", kueue.ResourceFlavorKind),
		Steps: []resource.TestStep{
			{
				Config: flavorConfig(name, flavorA100),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(flavorAddr, plancheck.ResourceActionCreate),
					// labels_all is known at plan: default labels show before anything is written.
					plancheck.ExpectKnownValue(flavorAddr, tfjsonpath.New("labels_all"), knownvalue.MapExact(map[string]knownvalue.Check{
						"team":                              knownvalue.StringExact("research"),
						"billing.mlplatform.io/cost-centre": knownvalue.StringExact("cc-1234"),
					})),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(flavorAddr, tfjsonpath.New("id"), knownvalue.StringExact(name)),
					statecheck.ExpectKnownValue(flavorAddr, tfjsonpath.New("uid"), knownvalue.StringRegexp(regexp.MustCompile(`^[0-9a-f-]{36}$`))),
					statecheck.ExpectKnownValue(flavorAddr, tfjsonpath.New("labels_all"), knownvalue.MapExact(map[string]knownvalue.Check{
						"team":                              knownvalue.StringExact("research"),
						"billing.mlplatform.io/cost-centre": knownvalue.StringExact("cc-1234"),
					})),
					statecheck.ExpectKnownValue(flavorAddr, tfjsonpath.New("node_taints").AtSliceIndex(0).AtMapKey("effect"), knownvalue.StringExact("NoSchedule")),
				},
				Check: func(*terraform.State) error {
					live := acctest.Get(t, kueue.ResourceFlavorKind, "", name)
					if got := live.GetLabels()["billing.mlplatform.io/cost-centre"]; got != "cc-1234" {
						return fmt.Errorf("default label not on the object: labels %v", live.GetLabels())
					}
					if got := nestedString(t, live, "spec", "nodeLabels", "karpenter.sh/capacity-type"); got != "on-demand" {
						return fmt.Errorf("spec.nodeLabels capacity-type = %q", got)
					}
					taints, _, _ := unstructured.NestedSlice(live.Object, "spec", "nodeTaints")
					if len(taints) != 1 {
						return fmt.Errorf("spec.nodeTaints = %v, want one taint", taints)
					}
					return nil
				},
			},
			{
				Config: flavorConfig(name, flavorA100Spot),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(flavorAddr, plancheck.ResourceActionUpdate),
				}},
				Check: func(*terraform.State) error {
					live := acctest.Get(t, kueue.ResourceFlavorKind, "", name)
					if got := nestedString(t, live, "spec", "nodeLabels", "karpenter.sh/capacity-type"); got != "spot" {
						return fmt.Errorf("spec.nodeLabels capacity-type = %q, want spot", got)
					}
					if taints, found, _ := unstructured.NestedSlice(live.Object, "spec", "nodeTaints"); found {
						return fmt.Errorf("removed taint still on the object: %v", taints)
					}
					return nil
				},
			},
			acctest.ImportReleased(t, resource.TestStep{
				ResourceName:            flavorAddr,
				ImportState:             true,
				ImportStateId:           name,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"timeouts"},
			}),
			{
				// Another manager adds a label and an annotation: no diff.
				PreConfig: func() {
					acctest.ApplyAs(t, "other-controller", kueue.ResourceFlavorKind, "", map[string]any{
						"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "ResourceFlavor",
						"metadata": map[string]any{
							"name":        name,
							"labels":      map[string]any{"added-by": "other"},
							"annotations": map[string]any{"other.example.com/note": "x"},
						},
					})
				},
				Config:   flavorConfig(name, flavorA100Spot),
				PlanOnly: true,
			},
			{
				// A managed label changed with kubectl shows as drift and the apply restores it.
				PreConfig: func() { acctest.SetLabel(t, kueue.ResourceFlavorKind, "", name, "team", "someone-else") },
				Config:    flavorConfig(name, flavorA100Spot),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(flavorAddr, plancheck.ResourceActionUpdate),
				}},
				Check: func(*terraform.State) error {
					labels := acctest.Get(t, kueue.ResourceFlavorKind, "", name).GetLabels()
					if labels["team"] != "research" || labels["added-by"] != "other" {
						return fmt.Errorf("labels after drift repair: %v; want team=research restored and added-by=other kept", labels)
					}
					return nil
				},
			},
			{
				// Deleted outside Terraform: planned for re-creation, and re-created.
				PreConfig: func() { acctest.Delete(t, kueue.ResourceFlavorKind, "", name) },
				Config:    flavorConfig(name, flavorA100Spot),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(flavorAddr, plancheck.ResourceActionCreate),
				}},
				Check: func(*terraform.State) error {
					acctest.Get(t, kueue.ResourceFlavorKind, "", name)
					return nil
				},
			},
		},
	})
}

func TestAccResourceFlavor_renameReplaces(t *testing.T) {
	oldName, newName := acctest.Name("acc-flavor-old"), acctest.Name("acc-flavor-new")
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             acctest.CheckDestroyed(t, "mlplatform_resource_flavor", kueue.ResourceFlavorKind),
		Steps: []resource.TestStep{
			{Config: flavorConfig(oldName, `node_labels = { "mlplatform.io/gpu" = "h100-sxm5-80gb" }`)},
			{
				Config: flavorConfig(newName, `node_labels = { "mlplatform.io/gpu" = "h100-sxm5-80gb" }`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(flavorAddr, plancheck.ResourceActionDestroyBeforeCreate),
				}},
			},
		},
	})
}

// Plan-time refusals, made against a stand-in API server that counts requests: each must fail
// at plan naming the attribute, with no API call.
func TestResourceFlavor_invalidInputFailsAtPlan(t *testing.T) {
	nineLabels := make([]string, 9)
	for i := range nineLabels {
		nineLabels[i] = fmt.Sprintf("%q = \"v\"", fmt.Sprintf("l%d", i))
	}
	// Terraform wraps long messages, so each pattern is short or allows any whitespace.
	cases := map[string]struct{ name, body, want string }{
		"invalid name":        {"GPU_Flavor", "", `Attribute name: "GPU_Flavor" is not a valid`},
		"bad taint effect":    {"f", `node_taints = [{ key = "nvidia.com/gpu", effect = "NoRun" }]`, `Attribute node_taints\[0\]\.effect value must be one\s+of`},
		"nine node labels":    {"f", "node_labels = {" + strings.Join(nineLabels, "\n") + "}", `Attribute\s+node_labels:\s+spec\.nodeLabels:\s+Too\s+many:\s+9:\s+must\s+have\s+at\s+most\s+8\s+items`},
		"bad label key":       {"f", `node_labels = { "-bad" = "x" }`, `"-bad" is not a valid Kubernetes key`},
		"bad label value":     {"f", `labels = { team = "not valid!" }`, `Attribute labels\["team"\]: "not valid!" is not a\s+valid`},
		"duplicate taint":     {"f", `node_taints = [{ key = "a", effect = "NoSchedule" }, { key = "a", effect = "NoSchedule" }]`, `Attribute node_taints\[1\]: taint 1 repeats taint 0`},
		"nine tolerations":    {"f", "tolerations = [" + strings.Repeat(`{ operator = "Exists" },`, 9) + "]", `Attribute\s+tolerations:\s+spec\.tolerations:\s+Too\s+many:\s+9:\s+must\s+have\s+at\s+most\s+8\s+items`},
		"empty key, Equal":    {"f", `tolerations = [{ value = "x" }]`, `Attribute tolerations\[0\]\.operator must be "Exists"`},
		"seconds, NoSchedule": {"f", `tolerations = [{ key = "a", operator = "Exists", effect = "NoSchedule", toleration_seconds = 10 }]`, `Attribute tolerations\[0\]\.toleration_seconds may only be set`},
		"Exists with value":   {"f", `tolerations = [{ key = "a", operator = "Exists", value = "x" }]`, `Attribute tolerations\[0\]\.value must be empty`},
		"topology, no labels": {"f", `topology_name = "default"`, `Attribute\s+topology_name:\s+spec:\s+Invalid\s+value:[\s\S]*?at\s+least\s+one\s+nodeLabel\s+is\s+required\s+when\s+topology\s+is\s+set`},
	}
	all := map[string]acctest.PlanCase{}
	for name, tc := range cases {
		all[name] = acctest.PlanCase{Config: func(host string) string { return flavorConfigWith(fmt.Sprintf("host = %q", host), tc.name, tc.body) }, Want: regexp.MustCompile(tc.want)}
	}
	acctest.PlanCases(t, all)
}

// A plan that only creates objects needs no reachable cluster.
func TestResourceFlavor_planNeedsNoCluster(t *testing.T) {
	acctest.TestWithoutAPICalls(t, func(host string) []resource.TestStep {
		return []resource.TestStep{{
			Config:             flavorConfigWith(fmt.Sprintf("host = %q", host), "planned", flavorA100),
			PlanOnly:           true,
			ExpectNonEmptyPlan: true,
		}}
	})
}
