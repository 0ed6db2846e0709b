package monitoring_test

import (
	"context"
	"encoding/json"
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
	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/service/monitoring"
)

const dashboardAddr = "mlplatform_gpu_dashboard.test"

func dashboardConfig(host, body string) string {
	return acctest.ProviderBlock(host, acctest.CostCentreDefault) + fmt.Sprintf(`
resource "mlplatform_gpu_dashboard" "test" {
%s
}
`, body)
}

// liveDashboard is the dashboard ConfigMap: its labels, annotations and the JSON under <name>.json.
func liveDashboard(t *testing.T, ns, name string) (labels, annotations map[string]string, text string) {
	t.Helper()
	cm := acctest.Get(t, kube.ConfigMapKind, ns, name)
	text, found, err := unstructured.NestedString(cm.Object, "data", name+".json")
	if err != nil || !found {
		t.Fatalf("ConfigMap %s/%s has no key %s.json (err=%v): %v", ns, name, name, err, cm.Object["data"])
	}
	return cm.GetLabels(), cm.GetAnnotations(), text
}

// dashboardField reads a top-level field of the dashboard JSON.
func dashboardField(t *testing.T, text, field string) any {
	t.Helper()
	var d map[string]any
	if err := json.Unmarshal([]byte(text), &d); err != nil {
		t.Fatalf("dashboard is not JSON: %v", err)
	}
	return d[field]
}

// editDashboard changes the ConfigMap outside Terraform with an update, as `kubectl edit` does.
func editDashboard(t *testing.T, ns, name string, edit func(cm *unstructured.Unstructured)) {
	t.Helper()
	cm := acctest.Get(t, kube.ConfigMapKind, ns, name)
	edit(cm)
	_, err := acctest.Dynamic(t).Resource(kube.ConfigMapKind.GVR).Namespace(ns).Update(context.Background(), cm, metav1.UpdateOptions{FieldManager: "kubectl-edit"})
	if err != nil {
		t.Fatalf("edit ConfigMap %s/%s: %v", ns, name, err)
	}
}

func TestAccGPUDashboard_lifecycle(t *testing.T) {
	ns, name := acctest.Name("acc-dashboard"), "gpu-platform"
	created := fmt.Sprintf(`
  namespace  = %q
  name       = %q
  labels     = { team = "platform" }
  folder     = "GPU platform"
  datasource = "Prometheus"
`, ns, name)
	updated := fmt.Sprintf(`
  namespace           = %q
  name                = %q
  labels              = { team = "platform" }
  title               = "GPUs (prod)"
  dashboard_uid       = "gpus-prod"
  refresh             = "5m"
  time_from           = "now-7d"
  sidecar_label       = "grafana.example.com/dashboard"
  sidecar_label_value = "prod"
  folder              = "Platform"
  folder_annotation   = "grafana.example.com/folder"
`, ns, name)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t); acctest.Namespace(t, ns) },
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             acctest.CheckDestroyed(t, "mlplatform_gpu_dashboard", kube.ConfigMapKind),
		Steps: []resource.TestStep{
			{
				Config: dashboardConfig("", created),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(dashboardAddr, tfjsonpath.New("id"), knownvalue.StringExact(ns+"/"+name)),
					statecheck.ExpectKnownValue(dashboardAddr, tfjsonpath.New("dashboard_uid"), knownvalue.StringExact(name)),
					statecheck.ExpectKnownValue(dashboardAddr, tfjsonpath.New("title"), knownvalue.StringExact("ML platform: GPUs")),
					statecheck.ExpectKnownValue(dashboardAddr, tfjsonpath.New("sidecar_label_value"), knownvalue.StringExact("1")),
				},
				Check: func(s *terraform.State) error {
					labels, annotations, text := liveDashboard(t, ns, name)
					if labels["grafana_dashboard"] != "1" || labels["team"] != "platform" || labels["billing.mlplatform.io/cost-centre"] != "cc-1234" {
						return fmt.Errorf("labels = %v", labels)
					}
					if annotations["grafana_folder"] != "GPU platform" {
						return fmt.Errorf("annotations = %v", annotations)
					}
					if got := s.RootModule().Resources[dashboardAddr].Primary.Attributes["dashboard_json"]; got != text {
						return fmt.Errorf("dashboard_json in state differs from the ConfigMap's %s.json", name)
					}
					if uid := dashboardField(t, text, "uid"); uid != name {
						return fmt.Errorf("uid = %v", uid)
					}
					if !strings.Contains(text, `"value": "Prometheus"`) {
						return fmt.Errorf("the datasource variable does not select Prometheus")
					}
					// The queries of the dashboard as written to the cluster, on the fixture.
					checkDashboardQueries(t, text, dashboardFixture())
					return nil
				},
			},
			acctest.ImportReleased(t, resource.TestStep{
				ResourceName:            dashboardAddr,
				ImportState:             true,
				ImportStateId:           ns + "/" + name,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"timeouts"},
			}),
			{
				Config: dashboardConfig("", updated),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(dashboardAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(dashboardAddr, tfjsonpath.New("dashboard_json"), knownvalue.StringRegexp(regexp.MustCompile(`"uid": "gpus-prod"`))),
				}},
				Check: func(*terraform.State) error {
					labels, annotations, text := liveDashboard(t, ns, name)
					if labels["grafana.example.com/dashboard"] != "prod" {
						return fmt.Errorf("labels = %v", labels)
					}
					if _, ok := labels["grafana_dashboard"]; ok {
						return fmt.Errorf("the old sidecar label is still there: %v", labels)
					}
					if _, ok := annotations["grafana_folder"]; ok || annotations["grafana.example.com/folder"] != "Platform" {
						return fmt.Errorf("annotations = %v", annotations)
					}
					for field, want := range map[string]any{"title": "GPUs (prod)", "uid": "gpus-prod", "refresh": "5m"} {
						if got := dashboardField(t, text, field); got != want {
							return fmt.Errorf("%s = %v, want %v", field, got, want)
						}
					}
					return nil
				},
			},
			{
				// A panel changed in Grafana's JSON outside Terraform shows as drift and is written back.
				PreConfig: func() {
					editDashboard(t, ns, name, func(cm *unstructured.Unstructured) {
						data, _, _ := unstructured.NestedStringMap(cm.Object, "data")
						data[name+".json"] = strings.Replace(data[name+".json"], "GPU temperature", "Temperature", 1)
						_ = unstructured.SetNestedStringMap(cm.Object, data, "data")
					})
				},
				Config: dashboardConfig("", updated),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(dashboardAddr, plancheck.ResourceActionUpdate),
				}},
				Check: func(*terraform.State) error {
					if _, _, text := liveDashboard(t, ns, name); !strings.Contains(text, `"GPU temperature"`) {
						return fmt.Errorf("the panel's title was not written back")
					}
					return nil
				},
			},
			{
				// The sidecar label and folder annotation removed outside Terraform: drift, written back.
				PreConfig: func() {
					editDashboard(t, ns, name, func(cm *unstructured.Unstructured) {
						labels, annotations := cm.GetLabels(), cm.GetAnnotations()
						delete(labels, "grafana.example.com/dashboard")
						delete(annotations, "grafana.example.com/folder")
						cm.SetLabels(labels)
						cm.SetAnnotations(annotations)
					})
				},
				Config: dashboardConfig("", updated),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(dashboardAddr, plancheck.ResourceActionUpdate),
				}},
				Check: func(*terraform.State) error {
					labels, annotations, _ := liveDashboard(t, ns, name)
					if labels["grafana.example.com/dashboard"] != "prod" || annotations["grafana.example.com/folder"] != "Platform" {
						return fmt.Errorf("not written back: labels %v, annotations %v", labels, annotations)
					}
					return nil
				},
			},
			{
				// Deleted outside Terraform: planned for creation again.
				PreConfig: func() { acctest.Delete(t, kube.ConfigMapKind, ns, name) },
				Config:    dashboardConfig("", updated),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(dashboardAddr, plancheck.ResourceActionCreate),
				}},
			},
		},
	})
}

// A ConfigMap of the same name that someone else wrote is refused, not taken over.
func TestAccGPUDashboard_refusesAForeignConfigMap(t *testing.T) {
	ns := acctest.Name("acc-dashboard-foreign")
	resource.ParallelTest(t, resource.TestCase{
		PreCheck: func() {
			acctest.PreCheck(t)
			acctest.Namespace(t, ns)
			acctest.ApplyAs(t, "helm", kube.ConfigMapKind, ns, map[string]any{
				"apiVersion": "v1", "kind": "ConfigMap",
				"metadata": map[string]any{"name": "mlplatform-gpu", "namespace": ns},
				"data":     map[string]any{"other.json": "{}"},
			})
		},
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		Steps: []resource.TestStep{{
			Config:      dashboardConfig("", fmt.Sprintf("namespace = %q", ns)),
			ExpectError: regexp.MustCompile(strings.ReplaceAll("ConfigMap "+ns+"/mlplatform-gpu already exists and was not created by this resource", " ", `\s+`)),
		}},
	})
}

func TestGPUDashboard_invalidInputFailsAtPlan(t *testing.T) {
	cases := map[string]struct{ body, want string }{
		"uid too long": {`dashboard_uid = "` + strings.Repeat("g", 41) + `"`,
			`Attribute dashboard_uid must be at most 40 characters of letters, digits, '-' and '_'`},
		"uid with a dot": {`dashboard_uid = "gpu.platform"`, `Attribute dashboard_uid must be at most 40 characters`},
		"name is no uid": {`name = "gpu.platform"`,
			`Attribute dashboard_uid: omitted, it defaults to name "gpu.platform", which is not a Grafana dashboard uid \(at most 40 characters of letters, digits, '-' and '_'\): set dashboard_uid`},
		"sidecar label in labels": {`labels = { grafana_dashboard = "1" }`,
			`Attribute labels\["grafana_dashboard"\]: the provider writes "grafana_dashboard" from sidecar_label_value`},
		"custom sidecar label in labels": {"sidecar_label = \"dashboards\"\nlabels = { dashboards = \"yes\" }",
			`Attribute labels\["dashboards"\]: the provider writes "dashboards"`},
		"folder annotation in annotations": {`annotations = { grafana_folder = "GPU" }`,
			`Attribute annotations\["grafana_folder"\]: the provider writes "grafana_folder" from folder`},
		"bad refresh":         {`refresh = "1 minute"`, `Attribute refresh must be a Grafana refresh interval`},
		"bad time_from":       {`time_from = "yesterday"`, `Attribute time_from must be a Grafana relative time`},
		"bad time_to":         {`time_to = "now+1h"`, `Attribute time_to must be a Grafana relative time`},
		"bad sidecar label":   {`sidecar_label = "grafana dashboard"`, `Attribute sidecar_label: "grafana dashboard" is not a valid Kubernetes key`},
		"bad sidecar value":   {`sidecar_label_value = "-1-"`, `Attribute sidecar_label_value: "-1-" is not a valid Kubernetes label value`},
		"bad folder key":      {`folder_annotation = "/folder"`, `Attribute folder_annotation: "/folder" is not a valid Kubernetes key`},
		"empty folder":        {`folder = ""`, `Attribute folder string length must be at least 1`},
		"empty title":         {`title = ""`, `Attribute title string length must be at least 1`},
		"bad namespace":       {`namespace = "Monitoring"`, `Attribute namespace: "Monitoring" is not a valid RFC 1123 label`},
		"bad name":            {`name = "GPU"`, `Attribute name: "GPU" is not a valid Kubernetes name`},
		"computed dashboard":  {`dashboard_json = "{}"`, `Invalid Configuration for Read-Only Attribute`},
		"reserved annotation": {`annotations = { "mlplatform.io/owner" = "x" }`, `Attribute annotations`},
	}
	all := map[string]acctest.PlanCase{}
	for name, tc := range cases {
		all[name] = acctest.PlanCase{Config: func(host string) string { return dashboardConfig(host, tc.body) }, Want: acctest.Wrapped(tc.want)}
	}
	acctest.PlanCases(t, all)
}

// The defaults plan with no cluster at all: name, namespace, uid and the dashboard are known at
// plan, with no API call.
func TestGPUDashboard_planNeedsNoCluster(t *testing.T) {
	want, err := monitoring.DefaultDashboardJSON()
	if err != nil {
		t.Fatal(err)
	}
	acctest.TestWithoutAPICalls(t, func(host string) []resource.TestStep {
		return []resource.TestStep{{
			Config:             dashboardConfig(host, ""),
			PlanOnly:           true,
			ExpectNonEmptyPlan: true,
			ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{
				plancheck.ExpectKnownValue(dashboardAddr, tfjsonpath.New("namespace"), knownvalue.StringExact("monitoring")),
				plancheck.ExpectKnownValue(dashboardAddr, tfjsonpath.New("name"), knownvalue.StringExact("mlplatform-gpu")),
				plancheck.ExpectKnownValue(dashboardAddr, tfjsonpath.New("dashboard_uid"), knownvalue.StringExact("mlplatform-gpu")),
				plancheck.ExpectKnownValue(dashboardAddr, tfjsonpath.New("dashboard_json"), knownvalue.StringExact(want)),
			}},
		}}
	})
}
