package argo_test

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/service/argo"
)

const tsAddr = "mlplatform_training_schedule.test"

// scheduleConfig is a nightly retraining of a template created in the same configuration;
// body adds or overrides attributes of the schedule.
func scheduleConfig(host, ns, name, body string) string {
	return acctest.ProviderBlock(host, acctest.CostCentreDefault) + fmt.Sprintf(`
resource "mlplatform_training_job_template" "sentiment" {
  namespace       = %[1]q
  name            = "sentiment-model"
  queue           = "training"
  billing         = { "billing.mlplatform.io/team" = "nlp" }
  image           = "ghcr.io/acme/sentiment:1.4"
  training_script = "train.py"
  dataset_version = "2024-06"
  hyperparameters = { learning_rate = "3e-4" }
  hardware        = { gpu_type = "a100-80gb", cpu_cores = 8, memory_gb = 128 }
}

resource "mlplatform_training_schedule" "test" {
  namespace  = %[1]q
  name       = %[2]q
  template   = mlplatform_training_job_template.sentiment.name
  timezone   = "Europe/Berlin"
%[3]s
}
`, ns, name, body)
}

func TestAccTrainingSchedule_lifecycle(t *testing.T) {
	ns, name := acctest.Name("acc-ts-nlp"), "nightly-sentiment"
	nightly := `schedules  = ["0 2 * * *"]
parameters = { dataset_version = "latest" }`
	twice := `schedules         = ["0 3 * * *", "0 15 * * 6"]
suspend           = true
starting_deadline = "1h"
concurrency_policy = "Replace"
parameters        = { dataset_version = "latest", learning_rate = "1e-4" }`
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { teamNamespace(t, ns) },
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             acctest.CheckDestroyed(t, "mlplatform_training_schedule", argo.CronWorkflowKind),
		Steps: []resource.TestStep{
			{
				Config: scheduleConfig("", ns, name, nightly),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(tsAddr, tfjsonpath.New("id"), knownvalue.StringExact(ns+"/"+name)),
					statecheck.ExpectKnownValue(tsAddr, tfjsonpath.New("concurrency_policy"), knownvalue.StringExact("Forbid")),
					statecheck.ExpectKnownValue(tsAddr, tfjsonpath.New("suspend"), knownvalue.Bool(false)),
				},
				Check: func(*terraform.State) error {
					return checkSchedule(t, ns, name, liveSchedule{
						schedules: []any{"0 2 * * *"}, policy: "Forbid", suspend: false,
						params: map[string]any{"dataset_version": "latest"}})
				},
			},
			{
				Config: scheduleConfig("", ns, name, twice),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(tsAddr, plancheck.ResourceActionUpdate),
				}},
				Check: func(*terraform.State) error {
					return checkSchedule(t, ns, name, liveSchedule{
						schedules: []any{"0 3 * * *", "0 15 * * 6"}, policy: "Replace", suspend: true, deadline: 3600,
						params: map[string]any{"dataset_version": "latest", "learning_rate": "1e-4"}})
				},
			},
			acctest.ImportReleased(t, resource.TestStep{
				ResourceName:            tsAddr,
				ImportState:             true,
				ImportStateId:           ns + "/" + name,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"timeouts"},
			}),
			{
				// Back to the nightly run, not suspended: suspend false is written, and the
				// deadline and the second parameter go.
				Config: scheduleConfig("", ns, name, nightly),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(tsAddr, plancheck.ResourceActionUpdate),
				}},
				Check: func(*terraform.State) error {
					return checkSchedule(t, ns, name, liveSchedule{
						schedules: []any{"0 2 * * *"}, policy: "Forbid", suspend: false,
						params: map[string]any{"dataset_version": "latest"}})
				},
			},
			{
				// Suspended and switched to Allow with kubectl: drift, restored by the next apply.
				PreConfig: func() {
					editSchedule(t, ns, name, func(spec map[string]any) {
						spec["suspend"] = true
						spec["concurrencyPolicy"] = "Allow"
					})
				},
				Config: scheduleConfig("", ns, name, nightly),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(tsAddr, plancheck.ResourceActionUpdate),
				}},
				Check: func(*terraform.State) error {
					return checkSchedule(t, ns, name, liveSchedule{
						schedules: []any{"0 2 * * *"}, policy: "Forbid", suspend: false,
						params: map[string]any{"dataset_version": "latest"}})
				},
			},
			{
				// Deleted outside Terraform: planned for re-creation, and re-created.
				PreConfig: func() { acctest.Delete(t, argo.CronWorkflowKind, ns, name) },
				Config:    scheduleConfig("", ns, name, nightly),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(tsAddr, plancheck.ResourceActionCreate),
				}},
				Check: func(*terraform.State) error {
					return checkSchedule(t, ns, name, liveSchedule{
						schedules: []any{"0 2 * * *"}, policy: "Forbid", suspend: false,
						params: map[string]any{"dataset_version": "latest"}})
				},
			},
		},
	})
}

type liveSchedule struct {
	schedules []any
	policy    string
	suspend   bool
	deadline  int64 // 0: unset
	params    map[string]any
}

// checkSchedule checks the live CronWorkflow: the template by name, parameter overrides, no
// workflow metadata (the template's pods carry the labels), and the scheduling fields.
func checkSchedule(t *testing.T, ns, name string, want liveSchedule) error {
	obj := acctest.Get(t, argo.CronWorkflowKind, ns, name)
	spec, _, _ := unstructured.NestedMap(obj.Object, "spec")
	if got := str(t, spec, "workflowSpec", "workflowTemplateRef", "name"); got != "sentiment-model" {
		return fmt.Errorf("workflowTemplateRef.name = %q", got)
	}
	if _, found, _ := unstructured.NestedFieldNoCopy(spec, "workflowMetadata"); found {
		return fmt.Errorf("workflowMetadata is set: %v", spec["workflowMetadata"])
	}
	if _, found, _ := unstructured.NestedFieldNoCopy(spec, "schedule"); found {
		return fmt.Errorf("deprecated spec.schedule is set")
	}
	params, _, _ := unstructured.NestedSlice(spec, "workflowSpec", "arguments", "parameters")
	gotParams := map[string]any{}
	for _, p := range params {
		gotParams[p.(map[string]any)["name"].(string)] = p.(map[string]any)["value"]
	}
	got := liveSchedule{schedules: spec["schedules"].([]any), params: gotParams}
	got.policy, _ = spec["concurrencyPolicy"].(string)
	got.suspend, _ = spec["suspend"].(bool)
	got.deadline, _ = spec["startingDeadlineSeconds"].(int64)
	if !reflect.DeepEqual(got, want) {
		return fmt.Errorf("live CronWorkflow %+v; want %+v", got, want)
	}
	if tz := str(t, spec, "timezone"); tz != "Europe/Berlin" {
		return fmt.Errorf("timezone = %q", tz)
	}
	ok, _, _ := unstructured.NestedInt64(spec, "successfulJobsHistoryLimit")
	failed, _, _ := unstructured.NestedInt64(spec, "failedJobsHistoryLimit")
	if ok != 3 || failed != 1 {
		return fmt.Errorf("history limits = %d, %d; want 3, 1", ok, failed)
	}
	return nil
}

// editSchedule changes the CronWorkflow's spec with an update, as `kubectl edit` would.
func editSchedule(t *testing.T, ns, name string, edit func(spec map[string]any)) {
	t.Helper()
	obj := acctest.Get(t, argo.CronWorkflowKind, ns, name)
	edit(obj.Object["spec"].(map[string]any))
	if _, err := acctest.Dynamic(t).Resource(argo.CronWorkflowKind.GVR).Namespace(ns).Update(context.Background(), obj, metav1.UpdateOptions{FieldManager: "kubectl-edit"}); err != nil {
		t.Fatalf("edit %s/%s: %v", ns, name, err)
	}
}

// Mistakes are plan errors naming the attribute, with no API call; a valid schedule plans with
// no cluster at all.
func TestAccTrainingSchedule_refusedAtPlan(t *testing.T) {
	ns := acctest.Name("acc-ts-plan")
	cases := map[string]struct{ body, want string }{
		"invalid cron": {`schedules = ["0 2 * *"]`,
			`Attribute schedules[0]: "0 2 * *" is not a cron schedule: expected exactly 5 fields, found 4`},
		"cron with seconds": {`schedules = ["0 2 * * *", "0 0 2 * * *"]`,
			`Attribute schedules[1]: "0 0 2 * * *" is not a cron schedule`},
		"timezone in the schedule": {`schedules = ["CRON_TZ=UTC 0 2 * * *"]`,
			`Attribute schedules[0]: "CRON_TZ=UTC 0 2 * * *" carries a timezone; set it in ` + "`timezone`" + ` instead`},
		// robfig/cron and v3 take names; Argo Workflows v4's CRD takes digits only.
		"weekday name": {`schedules = ["@daily", "0 2 * * MON"]`,
			`Attribute schedules[1]: spec.schedules[1]: Invalid value: "0 2 * * MON": Argo Workflows v4's CRD: spec.schedules[1] in body should match`},
		"invalid timezone": {"schedules = [\"@daily\"]\ntimezone = \"Europe/Berlim\"",
			`Attribute timezone: "Europe/Berlim" is not an IANA timezone name`},
		"local timezone": {"schedules = [\"@daily\"]\ntimezone = \"Local\"",
			`Attribute timezone: "Local" is not an IANA timezone name`},
		"bad concurrency policy": {"schedules = [\"@daily\"]\nconcurrency_policy = \"Skip\"",
			`Attribute concurrency_policy value must be one of: ["Allow" "Forbid" "Replace"], got: "Skip"`},
		"template in a parameter": {"schedules = [\"@daily\"]\nparameters = { lr = \"{{workflow.name}}\" }",
			`Attribute parameters["lr"] must not hold`},
		"name too long": {"schedules = [\"@daily\"]\nname = \"" + longName + "\"",
			`Attribute name string length must be at most 52`},
	}
	all := map[string]acctest.PlanCase{}
	for name, tc := range cases {
		all[name] = acctest.PlanCase{Config: func(host string) string { return planScheduleConfig(host, ns, tc.body) }, Want: acctest.Words(tc.want)}
	}
	acctest.PlanCases(t, all)
	t.Run("valid", func(t *testing.T) {
		acctest.PlanWithoutAPICalls(t, func(host string) string {
			return planScheduleConfig(host, ns, "schedules = [\"0 2 * * 1-5\", \"@every 6h\"]\nstarting_deadline = \"30m\"")
		}, nil)
	})
}

var longName = "nightly-retraining-of-the-sentiment-model-for-the-nlp"

// planScheduleConfig is a schedule of an existing template; body's name and timezone take
// precedence over the defaults.
func planScheduleConfig(host, ns, body string) string {
	name, tz := `name = "nightly"`, `timezone = "UTC"`
	if acctest.Words("name =").MatchString(body) {
		name = ""
	}
	if acctest.Words("timezone =").MatchString(body) {
		tz = ""
	}
	return acctest.ProviderBlock(host, acctest.CostCentreDefault) + fmt.Sprintf(`
resource "mlplatform_training_schedule" "test" {
  namespace = %q
  template  = "sentiment-model"
  %s
  %s
  %s
}
`, ns, name, tz, body)
}

// Before the CronWorkflow is written, the template it names must exist and declare every
// parameter it overrides; otherwise nothing is written and the error names the attribute (the
// apiserver's record of the provider's writes has none of the schedule's).
func TestAccTrainingSchedule_checkedAgainstItsTemplate(t *testing.T) {
	rec := acctest.RecordWrites(t)
	ns, name := acctest.Name("acc-ts-check"), "nightly"
	missing := acctest.ProviderBlock("", acctest.CostCentreDefault, rec.ProviderSetting()) + fmt.Sprintf(`
resource "mlplatform_training_schedule" "test" {
  namespace = %q
  name      = %q
  template  = "no-such-template"
  schedules = ["@daily"]
  timezone  = "UTC"
}
`, ns, name)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { teamNamespace(t, ns) },
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		// Neither refused apply wrote the CronWorkflow.
		CheckDestroy: func(*terraform.State) error {
			_, err := acctest.Dynamic(t).Resource(argo.CronWorkflowKind.GVR).Namespace(ns).Get(context.Background(), name, metav1.GetOptions{})
			if !apierrors.IsNotFound(err) {
				return fmt.Errorf("CronWorkflow %s/%s: get returned %w; want NotFound", ns, name, err)
			}
			return nil
		},
		Steps: []resource.TestStep{
			{
				Config:      missing,
				ExpectError: acctest.Words("Attribute template: WorkflowTemplate " + ns + "/no-such-template does not exist"),
			},
			{
				PreConfig: func() { rec.ExpectNone(t, "the apply refused for a missing template") },
				Config: rec.Recorded(scheduleConfig("", ns, name, `schedules  = ["@daily"]
parameters = { dataset_version = "latest", learning_rte = "1e-4" }`)),
				ExpectError: acctest.Words(`Attribute parameters["learning_rte"]: WorkflowTemplate ` + ns +
					`/sentiment-model declares no parameter "learning_rte" (it declares: dataset_version, learning_rate)`),
			},
		},
	})
	// The template was written, and destroyed; the schedule never.
	rec.ExpectNone(t, "the apply refused for a parameter the template does not declare", argo.CronWorkflowKind)
}
