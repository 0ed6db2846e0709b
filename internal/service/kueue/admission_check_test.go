package kueue_test

import (
	"fmt"
	"strings"
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

const (
	acAddr  = "mlplatform_admission_check.test"
	prcAddr = "mlplatform_provisioning_request_config.test"
)

// provisioningConfig is an AdmissionCheck named name with the ProvisioningRequestConfig of the
// same name; acBody and prcBody follow their required attributes.
func provisioningConfig(host, name, acBody, prcBody string) string {
	return acctest.ProviderBlock(host, acctest.CostCentreDefault) + fmt.Sprintf(`
resource "mlplatform_provisioning_request_config" "test" {
  name                    = %[1]q
  provisioning_class_name = "check-capacity.autoscaling.x-k8s.io"
%[3]s
}

resource "mlplatform_admission_check" "test" {
  name            = %[1]q
  controller_name = "kueue.x-k8s.io/provisioning-request"
  parameters = {
    api_group = "kueue.x-k8s.io"
    kind      = "ProvisioningRequestConfig"
    name      = mlplatform_provisioning_request_config.test.name
  }
%[2]s
}
`, name, acBody, prcBody)
}

func TestAccAdmissionCheck_lifecycle(t *testing.T) {
	name := acctest.Name("acc-prov")
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy: func(s *terraform.State) error {
			if err := acctest.CheckDestroyed(t, "mlplatform_admission_check", kueue.AdmissionCheckKind)(s); err != nil {
				return err
			}
			return acctest.CheckDestroyed(t, "mlplatform_provisioning_request_config", kueue.ProvisioningRequestConfigKind)(s)
		},
		Steps: []resource.TestStep{
			{
				Config: provisioningConfig("", name, "", `  managed_resources = ["nvidia.com/gpu"]`),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(acAddr, tfjsonpath.New("controller_name"), knownvalue.StringExact("kueue.x-k8s.io/provisioning-request")),
					statecheck.ExpectKnownValue(prcAddr, tfjsonpath.New("retry_strategy"), knownvalue.Null()),
				},
				Check: func(*terraform.State) error {
					ac := acctest.Get(t, kueue.AdmissionCheckKind, "", name)
					if p := nested(t, ac, "spec", "parameters", "name"); p != name {
						return fmt.Errorf("parameters.name = %v, want %s", p, name)
					}
					// Kueue's CRD defaults the retry strategy; the state keeps it null, with no diff.
					prc := acctest.Get(t, kueue.ProvisioningRequestConfigKind, "", name)
					if n := nested(t, prc, "spec", "retryStrategy", "backoffLimitCount"); n != int64(3) {
						return fmt.Errorf("retryStrategy.backoffLimitCount = %v, want Kueue's default 3", n)
					}
					return nil
				},
			},
			{
				Config: provisioningConfig("", name, "", `  managed_resources = ["nvidia.com/gpu", "cpu"]
  parameters = { "max-run-duration" = "3600" }
  retry_strategy = { backoff_limit_count = 0 }
  pod_set_merge_policy = "IdenticalWorkloadSchedulingRequirements"
  pod_set_updates = { node_selector = [{ key = "cloud.google.com/gke-nodepool", value_from_provisioning_class_detail = "nodepool" }] }`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(prcAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectResourceAction(acAddr, plancheck.ResourceActionNoop),
				}},
				Check: func(*terraform.State) error {
					prc := acctest.Get(t, kueue.ProvisioningRequestConfigKind, "", name)
					for _, c := range []struct {
						path []string
						want any
					}{
						{[]string{"spec", "retryStrategy", "backoffLimitCount"}, int64(0)},
						{[]string{"spec", "retryStrategy", "backoffMaxSeconds"}, int64(1800)},
						{[]string{"spec", "parameters", "max-run-duration"}, "3600"},
						{[]string{"spec", "podSetMergePolicy"}, "IdenticalWorkloadSchedulingRequirements"},
					} {
						if got := nested(t, prc, c.path...); got != c.want {
							return fmt.Errorf("%s = %v (%T), want %v", strings.Join(c.path, "."), got, got, c.want)
						}
					}
					return nil
				},
			},
			acctest.ImportReleased(t, resource.TestStep{
				ResourceName: prcAddr, ImportState: true, ImportStateId: name,
				ImportStateVerify: true, ImportStateVerifyIgnore: []string{"timeouts"},
			}),
			acctest.ImportReleased(t, resource.TestStep{
				ResourceName: acAddr, ImportState: true, ImportStateId: name,
				ImportStateVerify: true, ImportStateVerifyIgnore: []string{"timeouts"},
			}),
			{
				// Kueue forbids changing the controller: the check is replaced.
				Config: provisioningConfig("", name, "", "") + `
resource "mlplatform_admission_check" "other" {
  name            = "` + name + `-mk"
  controller_name = "kueue.x-k8s.io/multikueue"
  parameters      = { api_group = "kueue.x-k8s.io", kind = "MultiKueueConfig", name = "workers" }
}
`,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(prcAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectResourceAction("mlplatform_admission_check.other", plancheck.ResourceActionCreate),
				}},
			},
			{
				PreConfig: func() { deleteAndWait(t, kueue.ProvisioningRequestConfigKind, "", name) },
				Config:    provisioningConfig("", name, "", ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(prcAddr, plancheck.ResourceActionCreate),
				}},
			},
		},
	})
}

func TestAccAdmissionCheck_controllerChangeReplaces(t *testing.T) {
	name := acctest.Name("acc-ac")
	config := func(controller string) string {
		return acctest.ProviderBlock("", acctest.CostCentreDefault) + fmt.Sprintf(`
resource "mlplatform_admission_check" "test" {
  name            = %q
  controller_name = %q
  parameters      = { api_group = "kueue.x-k8s.io", kind = "MultiKueueConfig", name = "workers" }
}
`, name, controller)
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             acctest.CheckDestroyed(t, "mlplatform_admission_check", kueue.AdmissionCheckKind),
		Steps: []resource.TestStep{
			{Config: config("example.com/capacity")},
			{
				Config: config("kueue.x-k8s.io/multikueue"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(acAddr, plancheck.ResourceActionDestroyBeforeCreate),
				}},
				Check: func(*terraform.State) error {
					if c := nested(t, acctest.Get(t, kueue.AdmissionCheckKind, "", name), "spec", "controllerName"); c != "kueue.x-k8s.io/multikueue" {
						return fmt.Errorf("controllerName = %v", c)
					}
					return nil
				},
			},
		},
	})
}

// Kueue's CRD rules, run at plan by the validate engine, name the attribute in Kueue's words.
func TestAdmissionCheck_invalidInputFailsAtPlan(t *testing.T) {
	cases := map[string]struct{ ac, prc, want string }{
		"controller too long": {fmt.Sprintf(`controller_name = %q`, strings.Repeat("x", 254)), "",
			`Attribute controller_name: .*Too long`},
		"parameters kind": {`controller_name = "x"
  parameters = { api_group = "kueue.x-k8s.io", kind = "Provisioning_Config", name = "prov" }`, "", `Attribute parameters.kind: .*should match`},
		"class not a subdomain": {"", `provisioning_class_name = "Check_Capacity"`, `Attribute provisioning_class_name: .*should match`},
		"unknown merge policy":  {"", `pod_set_merge_policy = "Merge"`, `Attribute pod_set_merge_policy value must be one of`},
		"duplicate resource":    {"", `managed_resources = ["nvidia.com/gpu", "nvidia.com/gpu"]`, `Attribute managed_resources\[1\]: .*Duplicate value`},
		"parameter too long":    {"", fmt.Sprintf(`parameters = { x = %q }`, strings.Repeat("x", 256)), `Attribute parameters\["x"\]: .*Too long`},
		"retry beyond int32":    {"", `retry_strategy = { backoff_max_seconds = 2147483648 }`, `Attribute retry_strategy.backoff_max_seconds value must be between`},
		"node selector key": {"", `pod_set_updates = { node_selector = [{ key = "-bad", value_from_provisioning_class_detail = "x" }] }`,
			`Attribute pod_set_updates.node_selector\[0\].key: .*should match`},
		"duplicate selector key": {"", `pod_set_updates = { node_selector = [{ key = "a", value_from_provisioning_class_detail = "x" },
    { key = "a", value_from_provisioning_class_detail = "y" }] }`, `pod_set_updates.node_selector\[1\].*Duplicate value`},
	}
	all := map[string]acctest.PlanCase{}
	for name, tc := range cases {
		all[name] = acctest.PlanCase{Config: func(host string) string {
			config := acctest.ProviderBlock(host, acctest.CostCentreDefault)
			if tc.ac != "" {
				config += fmt.Sprintf("resource \"mlplatform_admission_check\" \"test\" {\n  name = \"prov\"\n  %s\n}\n", tc.ac)
			}
			if tc.prc != "" {
				if !strings.HasPrefix(tc.prc, "provisioning_class_name") {
					tc.prc = "provisioning_class_name = \"check-capacity.autoscaling.x-k8s.io\"\n  " + tc.prc
				}
				config += fmt.Sprintf("resource \"mlplatform_provisioning_request_config\" \"test\" {\n  name = \"prov\"\n  %s\n}\n", tc.prc)
			}
			return config
		}, Want: acctest.Wrapped("(?s)" + tc.want)}
	}
	acctest.PlanCases(t, all)
}
