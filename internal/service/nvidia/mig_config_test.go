package nvidia_test

import (
	"context"
	"fmt"
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
	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
)

const (
	migAddr = "mlplatform_mig_config.test"
	migNS   = "gpu-operator" // the default namespace, which runs share
)

// migName is the lifecycle test's own name, so that runs sharing a cluster never meet; the default
// name is checked at plan (TestMigConfig_planNeedsNoCluster).
var migName = acctest.Name("acc-mig-config")

func migConfig(host, body string) string {
	return acctest.ProviderBlock(host, acctest.CostCentreDefault) + fmt.Sprintf(`
resource "mlplatform_mig_config" "test" {
  %s
}
`, body)
}

const migA100 = `
  labels = { team = "research" }
  mig_configs = {
    "all-disabled" = { entries = [{ mig_enabled = false }] }
    "all-1g.10gb" = { entries = [
      { gpu = "A100-SXM4-80GB", mig_enabled = true, mig_devices = { "1g.10gb" = 7 } },
      { gpu = "A100-SXM4-40GB", mig_enabled = true, mig_devices = { "1g.10gb" = 4 } },
    ] }
    "custom-balanced" = { entries = [{
      gpu         = "A100-SXM4-80GB"
      mig_enabled = true
      mig_devices = { "3g.40gb" = 1, "2g.20gb" = 1, "1g.10gb" = 2 }
    }] }
  }
`

const migA100YAML = `
version: v1
mig-configs:
  all-disabled:
  - devices: all
    mig-enabled: false
  all-1g.10gb:
  - device-filter: ["0x20B210DE"]
    devices: all
    mig-enabled: true
    mig-devices: {"1g.10gb": 7}
  - device-filter: ["0x20B010DE"]
    devices: all
    mig-enabled: true
    mig-devices: {"1g.10gb": 4}
  custom-balanced:
  - device-filter: ["0x20B210DE"]
    devices: all
    mig-enabled: true
    mig-devices: {"3g.40gb": 1, "2g.20gb": 1, "1g.10gb": 2}
`

// migHalf replaces custom-balanced with a config that splits a node's GPUs, names the model by
// an alias, and adds an all-enabled config without instances.
const migHalf = `
  labels = { team = "research" }
  mig_configs = {
    "all-disabled" = { entries = [{ mig_enabled = false }] }
    "all-enabled"  = { entries = [{ mig_enabled = true }] }
    "custom-half" = { entries = [
      { gpu = "a100-80gb", devices = [0, 1, 2, 3], mig_enabled = false },
      { gpu = "a100-80gb", devices = [4, 5, 6, 7], mig_enabled = true, mig_devices = { "3g.40gb" = 2 } },
    ] }
  }
`

const migHalfYAML = `
version: v1
mig-configs:
  all-disabled:
  - devices: all
    mig-enabled: false
  all-enabled:
  - devices: all
    mig-enabled: true
    mig-devices: {}
  custom-half:
  - device-filter: ["0x20B210DE"]
    devices: [0, 1, 2, 3]
    mig-enabled: false
  - device-filter: ["0x20B210DE"]
    devices: [4, 5, 6, 7]
    mig-enabled: true
    mig-devices: {"3g.40gb": 2}
`

// migNamed is body with the lifecycle test's name.
func migNamed(body string) string { return fmt.Sprintf("name = %q\n", migName) + body }

func checkMigYAML(t *testing.T, want string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		return expectYAML(configMapYAML(t, migNS, migName, "config.yaml"), want)
	}
}

// editData changes one data key with an update, as `kubectl edit` does.
func editData(t *testing.T, namespace, name, key, value string) {
	t.Helper()
	obj := acctest.Get(t, kube.ConfigMapKind, namespace, name)
	if err := unstructured.SetNestedField(obj.Object, value, "data", key); err != nil {
		t.Fatal(err)
	}
	_, err := acctest.Dynamic(t).Resource(kube.ConfigMapKind.GVR).Namespace(namespace).
		Update(context.Background(), obj, metav1.UpdateOptions{FieldManager: "kubectl-edit"})
	if err != nil {
		t.Fatalf("edit %s/%s: %v", namespace, name, err)
	}
}

func TestAccMigConfig_lifecycle(t *testing.T) {
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t); acctest.SharedNamespace(t, migNS) },
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             acctest.CheckDestroyed(t, "mlplatform_mig_config", kube.ConfigMapKind),
		Steps: []resource.TestStep{
			{
				Config: migConfig("", migNamed(migA100)),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(migAddr, plancheck.ResourceActionCreate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(migAddr, tfjsonpath.New("id"), knownvalue.StringExact(migNS+"/"+migName)),
					statecheck.ExpectKnownValue(migAddr, tfjsonpath.New("namespace"), knownvalue.StringExact(migNS)),
					statecheck.ExpectKnownValue(migAddr, tfjsonpath.New("labels_all"), knownvalue.MapExact(map[string]knownvalue.Check{
						"team":                              knownvalue.StringExact("research"),
						"billing.mlplatform.io/cost-centre": knownvalue.StringExact("cc-1234"),
					})),
				},
				Check: resource.ComposeTestCheckFunc(checkMigYAML(t, migA100YAML), func(*terraform.State) error {
					if got := acctest.Get(t, kube.ConfigMapKind, migNS, migName).GetLabels()["billing.mlplatform.io/cost-centre"]; got != "cc-1234" {
						return fmt.Errorf("default label not on the ConfigMap: %q", got)
					}
					return nil
				}),
			},
			acctest.ImportReleased(t, resource.TestStep{
				ResourceName:            migAddr,
				ImportState:             true,
				ImportStateId:           migNS + "/" + migName,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"timeouts"},
			}),
			{
				Config: migConfig("", migNamed(migHalf)),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(migAddr, plancheck.ResourceActionUpdate),
				}},
				Check: checkMigYAML(t, migHalfYAML),
			},
			{
				// Another manager adds a data key and a label: no diff.
				PreConfig: func() {
					acctest.ApplyAs(t, "other-controller", kube.ConfigMapKind, migNS, map[string]any{
						"apiVersion": "v1", "kind": "ConfigMap",
						"metadata": map[string]any{"name": migName, "namespace": migNS, "labels": map[string]any{"added-by": "other"}},
						"data":     map[string]any{"notes.txt": "kept"},
					})
				},
				Config:   migConfig("", migNamed(migHalf)),
				PlanOnly: true,
			},
			{
				// The config edited outside Terraform shows as drift and the apply restores it.
				PreConfig: func() {
					editData(t, migNS, migName, "config.yaml", "version: v1\nmig-configs:\n  all-disabled:\n  - devices: all\n    mig-enabled: false\n")
				},
				Config: migConfig("", migNamed(migHalf)),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(migAddr, plancheck.ResourceActionUpdate),
				}},
				Check: resource.ComposeTestCheckFunc(checkMigYAML(t, migHalfYAML), func(*terraform.State) error {
					if got := configMapData(t, migNS, migName)["notes.txt"]; got != "kept" {
						return fmt.Errorf("another manager's data key was not kept: %q", got)
					}
					return nil
				}),
			},
			{
				// Unreadable content is drift too.
				PreConfig: func() { editData(t, migNS, migName, "config.yaml", "version: v1\nmig-configs: [") },
				Config:    migConfig("", migNamed(migHalf)),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(migAddr, plancheck.ResourceActionUpdate),
				}},
				Check: checkMigYAML(t, migHalfYAML),
			},
			{
				// Deleted outside Terraform: planned for re-creation, and re-created.
				PreConfig: func() { acctest.Delete(t, kube.ConfigMapKind, migNS, migName) },
				Config:    migConfig("", migNamed(migHalf)),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(migAddr, plancheck.ResourceActionCreate),
				}},
				Check: checkMigYAML(t, migHalfYAML),
			},
		},
	})
}

func configMapData(t *testing.T, namespace, name string) map[string]string {
	t.Helper()
	data, _, err := unstructured.NestedStringMap(acctest.Get(t, kube.ConfigMapKind, namespace, name).Object, "data")
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// Plan-time refusals against a stand-in API server: each fails at plan naming the attribute,
// with no API call.
func TestMigConfig_invalidInputFailsAtPlan(t *testing.T) {
	entry := func(e string) string {
		return `mig_configs = { "all-disabled" = { entries = [{ mig_enabled = false }] }, "custom" = { entries = [` + e + `] } }`
	}
	cases := map[string]struct{ body, want string }{
		// The check: 3 x 1g.10gb + 2g.20gb + 3g.40gb needs 9 of 8 memory slices.
		"layout does not fit": {
			entry(`{ gpu = "A100-SXM4-80GB", mig_enabled = true, mig_devices = { "1g.10gb" = 3, "2g.20gb" = 1, "3g.40gb" = 1 } }`),
			`(?s)Attribute mig_configs\["custom"\]\.entries\[0\]\.mig_devices: MIG layout.*3g.40gb \+ 2g.20gb \+ 1g.10gb x2 uses all 8 memory slices;\s+another\s+1g.10gb\s+does\s+not\s+fit`,
		},
		"3g+3g+1g": {
			entry(`{ gpu = "h100", mig_enabled = true, mig_devices = { "3g.40gb" = 2, "1g.10gb" = 1 } }`),
			`3g.40gb x2 uses all 8 memory\s+slices; 1g.10gb does not fit`,
		},
		"fits no model": {
			entry(`{ mig_enabled = true, mig_devices = { "7g.80gb" = 1, "1g.10gb" = 1 } }`),
			`(?s)mig_devices: MIG layout 7g.80gb \+\s+1g.10gb does not fit on one\s+A100-SXM4-80GB.*likewise\s+on\s+H100-SXM5-80GB`,
		},
		"no model has the profiles": {
			entry(`{ mig_enabled = true, mig_devices = { "3g.40gb" = 1, "3g.20gb" = 1 } }`),
			`no GPU model offers all of the profiles`,
		},
		"profile of another model": {
			entry(`{ gpu = "a100-40gb", mig_enabled = true, mig_devices = { "3g.40gb" = 1 } }`),
			`A100-SXM4-40GB has\s+no\s+MIG\s+profile\s+"3g.40gb"`,
		},
		"devices with MIG off": {
			entry(`{ gpu = "a100", mig_enabled = false, mig_devices = { "1g.10gb" = 1 } }`),
			`Attribute mig_configs\["custom"\]\.entries\[0\]\.mig_devices must be empty when\s+mig_enabled is false`,
		},
		"me spelling": {
			entry(`{ gpu = "a100", mig_enabled = true, mig_devices = { "1g.10gb.me" = 1 } }`),
			`write\s+"1g.10gb\+me"`,
		},
		"no MIG": {
			entry(`{ gpu = "l4", mig_enabled = false }`),
			`L4 does not support MIG`,
		},
		"unknown gpu": {
			entry(`{ gpu = "mi300x", mig_enabled = false }`), // AMD: never in the NVIDIA catalog
			`Attribute mig_configs\["custom"\]\.entries\[0\]\.gpu: unknown GPU model`,
		},
		"duplicate device": {
			entry(`{ devices = [0, 0], mig_enabled = false }`),
			`contains duplicate values`,
		},
		"negative device": {
			entry(`{ devices = [-1], mig_enabled = false }`),
			`devices\[0\] value must be at least\s+0`,
		},
		"entries select one GPU": {
			entry(`{ gpu = "a100", devices = [0, 1, 2, 3], mig_enabled = false }, { gpu = "A100-SXM4-80GB", devices = [3, 4], mig_enabled = true }`),
			`Attribute mig_configs\["custom"\]\.entries\[1\]\.devices: entry 1 selects\s+A100-SXM4-80GB GPU 3, which entry 0 selects too`,
		},
		"entry for every GPU beside one for some": {
			entry(`{ mig_enabled = false }, { gpu = "a100", devices = [4], mig_enabled = true }`),
			`entry 1 selects a100 GPU 4, which entry 0 selects too`,
		},
		"no entries":     {`mig_configs = { "all-disabled" = { entries = [] } }`, `list must contain at least 1`},
		"no configs":     {`mig_configs = {}`, `map must contain at least 1`},
		"bad label name": {`mig_configs = { "my config" = { entries = [{ mig_enabled = false }] } }`, `"my config" is not a valid Kubernetes label value`},
		"bad namespace":  {`namespace = "GPU"` + "\n" + entry(`{ mig_enabled = false }`), `Attribute namespace: "GPU" is not a valid`},
	}
	all := map[string]acctest.PlanCase{}
	for name, tc := range cases {
		all[name] = acctest.PlanCase{Config: func(host string) string { return migConfig(host, tc.body) }, Want: acctest.Wrapped(tc.want)}
	}
	acctest.PlanCases(t, all)
}

// A plan that only creates the ConfigMap needs no reachable cluster; it has the GPU Operator's
// default name and namespace.
func TestMigConfig_planNeedsNoCluster(t *testing.T) {
	acctest.TestWithoutAPICalls(t, func(host string) []resource.TestStep {
		return []resource.TestStep{{
			Config:             migConfig(host, migA100),
			PlanOnly:           true,
			ExpectNonEmptyPlan: true,
			ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPreRefresh: []plancheck.PlanCheck{
				plancheck.ExpectKnownValue(migAddr, tfjsonpath.New("name"), knownvalue.StringExact("custom-mig-config")),
				plancheck.ExpectKnownValue(migAddr, tfjsonpath.New("namespace"), knownvalue.StringExact("gpu-operator")),
			}},
		}}
	})
}
