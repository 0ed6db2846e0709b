package nvidia_test

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
	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
)

const (
	tsAddr = "mlplatform_time_slicing_config.test"
	tsNS   = "gpu-operator" // the default namespace, which runs share
)

var tsName = acctest.Name("acc-time-slicing")

func timeSlicingConfig(host, body string) string {
	return acctest.ProviderBlock(host, acctest.CostCentreDefault) + fmt.Sprintf(`
resource "mlplatform_time_slicing_config" "test" {
  name = %q
  %s
}
`, tsName, body)
}

const tsTwo = `
  labels = { team = "inference" }
  configs = {
    "any" = {
      fail_requests_greater_than_one = true
      resources = [{ name = "nvidia.com/gpu", replicas = 4 }]
    }
    "a100-mig" = {
      mig_strategy      = "mixed"
      rename_by_default = true
      resources = [
        { name = "nvidia.com/mig-1g.10gb", replicas = 2 },
        { name = "nvidia.com/mig-2g.20gb", replicas = 3 },
      ]
    }
  }
`

const tsAnyYAML = `
version: v1
sharing:
  timeSlicing:
    renameByDefault: false
    failRequestsGreaterThanOne: true
    resources:
    - name: nvidia.com/gpu
      replicas: 4
`

const tsMigYAML = `
version: v1
flags:
  migStrategy: mixed
sharing:
  timeSlicing:
    renameByDefault: true
    failRequestsGreaterThanOne: false
    resources:
    - name: nvidia.com/mig-1g.10gb
      replicas: 2
    - name: nvidia.com/mig-2g.20gb
      replicas: 3
`

// tsUpdated changes the replicas of "any", drops "a100-mig" and adds "l4".
const tsUpdated = `
  labels = { team = "inference" }
  configs = {
    "any" = {
      fail_requests_greater_than_one = true
      resources = [{ name = "nvidia.com/gpu", replicas = 8 }]
    }
    "l4" = {
      resources = [{ name = "nvidia.com/gpu", replicas = 2 }]
    }
  }
`

const tsAny8YAML = `
version: v1
sharing:
  timeSlicing:
    renameByDefault: false
    failRequestsGreaterThanOne: true
    resources:
    - name: nvidia.com/gpu
      replicas: 8
`

func checkTSYAML(t *testing.T, want map[string]string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		data := configMapData(t, tsNS, tsName)
		for key, yaml := range want {
			if err := expectYAML(configMapYAML(t, tsNS, tsName, key), yaml); err != nil {
				return fmt.Errorf("key %s: %w", key, err)
			}
		}
		for key := range data {
			if _, ok := want[key]; !ok && key != "other.yaml" {
				return fmt.Errorf("unexpected data key %q", key)
			}
		}
		return nil
	}
}

func TestAccTimeSlicingConfig_lifecycle(t *testing.T) {
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t); acctest.SharedNamespace(t, tsNS) },
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             acctest.CheckDestroyed(t, "mlplatform_time_slicing_config", kube.ConfigMapKind),
		Steps: []resource.TestStep{
			{
				Config: timeSlicingConfig("", tsTwo),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(tsAddr, plancheck.ResourceActionCreate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(tsAddr, tfjsonpath.New("id"), knownvalue.StringExact(tsNS+"/"+tsName)),
					statecheck.ExpectKnownValue(tsAddr, tfjsonpath.New("labels_all").AtMapKey("billing.mlplatform.io/cost-centre"), knownvalue.StringExact("cc-1234")),
				},
				Check: checkTSYAML(t, map[string]string{"any": tsAnyYAML, "a100-mig": tsMigYAML}),
			},
			acctest.ImportReleased(t, resource.TestStep{
				ResourceName:            tsAddr,
				ImportState:             true,
				ImportStateId:           tsNS + "/" + tsName,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"timeouts"},
			}),
			{
				Config: timeSlicingConfig("", tsUpdated),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(tsAddr, plancheck.ResourceActionUpdate),
				}},
				Check: checkTSYAML(t, map[string]string{"any": tsAny8YAML, "l4": `
version: v1
sharing:
  timeSlicing:
    renameByDefault: false
    failRequestsGreaterThanOne: false
    resources:
    - name: nvidia.com/gpu
      replicas: 2
`}),
			},
			{
				// Another manager adds a key: no diff, and it is kept.
				PreConfig: func() {
					acctest.ApplyAs(t, "other-controller", kube.ConfigMapKind, tsNS, map[string]any{
						"apiVersion": "v1", "kind": "ConfigMap",
						"metadata": map[string]any{"name": tsName, "namespace": tsNS},
						"data":     map[string]any{"other.yaml": "version: v1\n"},
					})
				},
				Config:   timeSlicingConfig("", tsUpdated),
				PlanOnly: true,
			},
			{
				// A managed key edited with kubectl shows as drift and the apply restores it.
				PreConfig: func() {
					editData(t, tsNS, tsName, "any", "version: v1\nsharing:\n  timeSlicing:\n    resources:\n    - name: nvidia.com/gpu\n      replicas: 2\n")
				},
				Config: timeSlicingConfig("", tsUpdated),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(tsAddr, plancheck.ResourceActionUpdate),
				}},
				Check: func(s *terraform.State) error {
					if err := expectYAML(configMapYAML(t, tsNS, tsName, "any"), tsAny8YAML); err != nil {
						return err
					}
					if configMapData(t, tsNS, tsName)["other.yaml"] == "" {
						return fmt.Errorf("another manager's key was removed")
					}
					return nil
				},
			},
			{
				// Deleted outside Terraform: planned for re-creation, and re-created.
				PreConfig: func() { acctest.Delete(t, kube.ConfigMapKind, tsNS, tsName) },
				Config:    timeSlicingConfig("", tsUpdated),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(tsAddr, plancheck.ResourceActionCreate),
				}},
				Check: func(*terraform.State) error { return expectYAML(configMapYAML(t, tsNS, tsName, "any"), tsAny8YAML) },
			},
		},
	})
}

// MPS and flags-only configs, as NVIDIA's README writes them, in a ConfigMap of their own.
func TestAccTimeSlicingConfig_mpsAndFlags(t *testing.T) {
	name := acctest.Name("acc-mps")
	cfg := acctest.ProviderBlock("", acctest.CostCentreDefault) + fmt.Sprintf(`
resource "mlplatform_time_slicing_config" "test" {
  name = %q
  configs = {
    "mps" = {
      sharing           = "mps"
      rename_by_default = true
      resources         = [{ name = "nvidia.com/gpu", replicas = 10 }]
    }
    "driver-container" = {
      mig_strategy       = "single"
      fail_on_init_error = false
      nvidia_driver_root = "/run/nvidia/driver"
      plugin = {
        pass_device_specs    = true
        device_list_strategy = ["envvar", "cdi-annotations"]
        device_id_strategy   = "index"
      }
    }
  }
}
`, name)
	want := map[string]string{
		// failRequestsGreaterThanOne is left to the device plugin, which defaults it to true under MPS.
		"mps": `
version: v1
sharing:
  mps:
    renameByDefault: true
    resources:
    - name: nvidia.com/gpu
      replicas: 10
`,
		"driver-container": `
version: v1
flags:
  migStrategy: single
  failOnInitError: false
  nvidiaDriverRoot: /run/nvidia/driver
  plugin:
    passDeviceSpecs: true
    deviceListStrategy: [envvar, cdi-annotations]
    deviceIDStrategy: index
`,
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t); acctest.SharedNamespace(t, tsNS) },
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             acctest.CheckDestroyed(t, "mlplatform_time_slicing_config", kube.ConfigMapKind),
		Steps: []resource.TestStep{
			{
				Config: cfg,
				Check: func(*terraform.State) error {
					for key, yaml := range want {
						if err := expectYAML(configMapYAML(t, tsNS, name, key), yaml); err != nil {
							return fmt.Errorf("key %s: %w", key, err)
						}
					}
					return nil
				},
			},
			acctest.ImportReleased(t, resource.TestStep{ResourceName: tsAddr, ImportState: true, ImportStateId: tsNS + "/" + name, ImportStateVerify: true,
				ImportStateVerifyIgnore: []string{"timeouts"}}),
		},
	})
}

func TestTimeSlicingConfig_invalidInputFailsAtPlan(t *testing.T) {
	cfg := func(body string) string { return `configs = { "any" = { ` + body + ` } }` }
	cases := map[string]struct{ body, want string }{
		"one replica": {cfg(`resources = [{ name = "nvidia.com/gpu", replicas = 1 }]`),
			`Attribute configs\["any"\]\.resources\[0\]\.replicas value must be at least 2, got: 1`},
		"unknown resource": {cfg(`resources = [{ name = "nvidia.com/gpus", replicas = 2 }]`),
			`Attribute configs\["any"\]\.resources\[0\]\.name: "nvidia.com/gpus" is not a resource the NVIDIA device plugin advertises`},
		"bad MIG resource": {cfg(`resources = [{ name = "nvidia.com/mig-1g.10gb+me", replicas = 2 }]`), `is not a resource the NVIDIA device plugin advertises`},
		"MIG under single": {cfg(`mig_strategy = "single"` + "\n" + `resources = [{ name = "nvidia.com/mig-1g.10gb", replicas = 2 }]`),
			`nvidia.com/mig-1g.10gb is advertised only under the mixed MIG strategy, but mig_strategy is "single"`},
		"duplicate resource": {cfg(`resources = [{ name = "nvidia.com/gpu", replicas = 2 }, { name = "nvidia.com/gpu", replicas = 3 }]`),
			`Attribute configs\["any"\]\.resources\[1\]\.name: "nvidia.com/gpu" is already shared by resources\[0\]`},
		"rename collides": {cfg(`resources = [{ name = "nvidia.com/mig-1g.10gb", replicas = 2, rename = "nvidia.com/gpu" }, { name = "nvidia.com/gpu", replicas = 2 }]`),
			`resources\[1\] would advertise nvidia.com/gpu, as resources\[0\] does`},
		"bad rename":     {cfg(`resources = [{ name = "nvidia.com/gpu", replicas = 2, rename = "shared_gpu" }]`), `"shared_gpu" is not a resource name the device plugin accepts: it must start with nvidia.com/`},
		"no resources":   {cfg(`resources = []`), `list must contain at least 1`},
		"bad strategy":   {cfg(`mig_strategy = "auto"` + "\n" + `resources = [{ name = "nvidia.com/gpu", replicas = 2 }]`), `value must be one of`},
		"bad config key": {`configs = { "a/b" = { resources = [{ name = "nvidia.com/gpu", replicas = 2 }] } }`, `"a/b" is not a valid ConfigMap key`},
		"no configs":     {`configs = {}`, `map must contain at least 1`},
		"MPS of MIG devices": {cfg(`sharing = "mps"` + "\n" + `resources = [{ name = "nvidia.com/mig-1g.10gb", replicas = 2 }]`),
			`MPS can share only nvidia.com/gpu \(whole GPUs\), not nvidia.com/mig-1g.10gb`},
		"MPS under mixed": {cfg(`sharing = "mps"` + "\n" + `mig_strategy = "mixed"` + "\n" + `resources = [{ name = "nvidia.com/gpu", replicas = 2 }]`),
			`the device plugin refuses MPS with mig_strategy "mixed"`},
		"sharing without resources": {cfg(`sharing = "mps"`), `Attribute configs\["any"\]\.sharing shares GPUs, but the config has no resources`},
		"bad sharing":               {cfg(`sharing = "mig"` + "\n" + `resources = [{ name = "nvidia.com/gpu", replicas = 2 }]`), `value must be one of`},
		"relative driver root":      {cfg(`nvidia_driver_root = "run/nvidia/driver"`), `"run/nvidia/driver" is not an absolute path`},
		"bad device list strategy":  {cfg(`plugin = { device_list_strategy = ["volumes"] }`), `device_list_strategy\[0\][\s\S]*value must be one of`},
		"bad device id strategy":    {cfg(`plugin = { device_id_strategy = "serial" }`), `device_id_strategy value must be one of`},
	}
	all := map[string]acctest.PlanCase{}
	for name, tc := range cases {
		all[name] = acctest.PlanCase{Config: func(host string) string { return timeSlicingConfig(host, tc.body) }, Want: acctest.Wrapped(tc.want)}
	}
	acctest.PlanCases(t, all)
}
