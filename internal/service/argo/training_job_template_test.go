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
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/service/argo"
)

const tjtAddr = "mlplatform_training_job_template.test"

// tjtConfig is a template of the nlp team's sentiment job; body adds or overrides attributes.
func tjtConfig(host, namespace, name, lr, capacity, body string) string {
	return acctest.ProviderBlock(host, acctest.CostCentreDefault) + fmt.Sprintf(`
resource "mlplatform_training_job_template" "test" {
  namespace      = %[1]q
  name           = %[2]q
  queue          = "training"
  priority_class = "low"
  billing        = { "billing.mlplatform.io/team" = "nlp" }
  service_account = "training-workflow"
  image           = "ghcr.io/acme/sentiment:1.4"
  training_script = "train.py"
  args            = ["--epochs=3"]
  env             = { HF_HOME = "/cache" }
  dataset_version = "2024-06"
  hyperparameters = { learning_rate = %[3]q, batch_size = "32" }
  hardware = {
    gpu_type    = "a100-sxm4-80gb"
    cpu_cores   = 8
    memory_gb   = 128
    shm_size_gb = 16
  }
  capacity   = %[4]q
  checkpoint = { uri = "s3://ckpt/training" }
  source = {
    git_repo               = "git@github.com:acme/models.git"
    ssh_private_key_secret = { name = "deploy-key", key = "ssh-privatekey" }
  }
  tracking           = { uri = "http://mlflow.mlflow:5000", experiment = "sentiment" }
  volumes            = [{ claim_name = "imdb", mount_path = "/data/imdb" }]
  active_deadline    = "48h"
  ttl_after_finished = "24h"
  pod_gc             = "OnPodSuccess"
%[5]s
}
`, namespace, name, lr, capacity, body)
}

func TestAccTrainingJobTemplate_lifecycle(t *testing.T) {
	ns, name := acctest.Name("acc-tjt-nlp"), "sentiment"
	config := func(lr, capacity string) string { return tjtConfig("", ns, name, lr, capacity, "") }
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { teamNamespace(t, ns) },
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             acctest.CheckDestroyed(t, "mlplatform_training_job_template", argo.WorkflowTemplateKind),
		Steps: []resource.TestStep{
			{
				Config: config("3e-4", "spot"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					// Computed at plan: the engineer sees the command before anything is written.
					plancheck.ExpectKnownValue(tjtAddr, tfjsonpath.New("submit_command"), knownvalue.StringExact(
						"argo submit --from workflowtemplate/"+name+" -n "+ns+" -p dataset_version=2024-06 -p batch_size=32 -p learning_rate=3e-4")),
					plancheck.ExpectKnownValue(tjtAddr, tfjsonpath.New("resources"), knownvalue.MapExact(map[string]knownvalue.Check{
						"cpu": knownvalue.StringExact("8"), "memory": knownvalue.StringExact("128Gi"), "nvidia.com/gpu": knownvalue.StringExact("1")})),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(tjtAddr, tfjsonpath.New("id"), knownvalue.StringExact(ns+"/"+name)),
					statecheck.ExpectKnownValue(tjtAddr, tfjsonpath.New("retry").AtMapKey("limit"), knownvalue.Int64Exact(10)),
				},
				Check: resource.ComposeTestCheckFunc(
					func(*terraform.State) error { return checkLive(t, ns, name, "3e-4", "spot") },
					func(s *terraform.State) error {
						return checkSubmitManifest(t, s.RootModule().Resources[tjtAddr].Primary.Attributes["submit_manifest"], ns, name)
					},
				),
			},
			{
				Config: config("1e-4", "on-demand"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(tjtAddr, plancheck.ResourceActionUpdate),
				}},
				Check: func(*terraform.State) error { return checkLive(t, ns, name, "1e-4", "on-demand") },
			},
			acctest.ImportReleased(t, resource.TestStep{
				ResourceName:            tjtAddr,
				ImportState:             true,
				ImportStateId:           ns + "/" + name,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"timeouts"},
			}),
			{
				// A managed field changed with kubectl shows as drift and is restored.
				PreConfig: func() {
					editTrain(t, ns, name, func(tmpl map[string]any) {
						tmpl["container"].(map[string]any)["image"] = "ghcr.io/acme/sentiment:hacked"
					})
				},
				Config: config("1e-4", "on-demand"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(tjtAddr, plancheck.ResourceActionUpdate),
				}},
				Check: func(*terraform.State) error {
					if got := str(t, trainTemplate(t, acctest.Get(t, argo.WorkflowTemplateKind, ns, name)), "container", "image"); got != "ghcr.io/acme/sentiment:1.4" {
						return fmt.Errorf("image after apply = %q", got)
					}
					return nil
				},
			},
			{
				// A retry strategy that retries everything, set with kubectl: drift, restored.
				PreConfig: func() {
					editTrain(t, ns, name, func(tmpl map[string]any) { tmpl["retryStrategy"].(map[string]any)["expression"] = "true" })
				},
				Config: config("1e-4", "on-demand"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(tjtAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(tjtAddr, tfjsonpath.New("retry_expression"), knownvalue.StringExact(argo.RetryExpression)),
				}},
				Check: func(*terraform.State) error { return checkLive(t, ns, name, "1e-4", "on-demand") },
			},
			{
				// Deleted outside Terraform: planned for re-creation.
				PreConfig: func() { acctest.Delete(t, argo.WorkflowTemplateKind, ns, name) },
				Config:    config("1e-4", "on-demand"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(tjtAddr, plancheck.ResourceActionCreate),
				}},
				Check: func(*terraform.State) error { return checkLive(t, ns, name, "1e-4", "on-demand") },
			},
		},
	})
}

// checkLive checks what the cluster holds: the labels Kueue and billing need on the pod template
// and podMetadata, parameters as argv, the GPU selector and toleration, checkpointing and retries.
func checkLive(t *testing.T, ns, name, lr, capacity string) error {
	obj := acctest.Get(t, argo.WorkflowTemplateKind, ns, name)
	tmpl := trainTemplate(t, obj)
	want := map[string]string{
		"kueue.x-k8s.io/queue-name": "training", "kueue.x-k8s.io/priority-class": "low",
		"billing.mlplatform.io/team": "nlp", "billing.mlplatform.io/cost-centre": "cc-1234",
	}
	for _, where := range [][]string{{"metadata", "labels"}} {
		got, _, _ := unstructured.NestedStringMap(tmpl, where...)
		if !reflect.DeepEqual(got, want) {
			return fmt.Errorf("templates[0].metadata.labels = %v; want %v", got, want)
		}
	}
	if got, _, _ := unstructured.NestedStringMap(obj.Object, "spec", "podMetadata", "labels"); !reflect.DeepEqual(got, want) {
		return fmt.Errorf("spec.podMetadata.labels = %v; want %v", got, want)
	}
	if sa, _, _ := unstructured.NestedString(obj.Object, "spec", "serviceAccountName"); sa != "training-workflow" {
		return fmt.Errorf("spec.serviceAccountName = %q; want training-workflow", sa)
	}
	args, _, _ := unstructured.NestedStringSlice(tmpl, "container", "args")
	wantArgs := []string{"--epochs=3", "--dataset_version={{workflow.parameters.dataset_version}}",
		"--batch_size={{workflow.parameters.batch_size}}", "--learning_rate={{workflow.parameters.learning_rate}}"}
	if !reflect.DeepEqual(args, wantArgs) {
		return fmt.Errorf("args = %q; want %q", args, wantArgs)
	}
	params, _, _ := unstructured.NestedSlice(obj.Object, "spec", "arguments", "parameters")
	if v := params[2].(map[string]any); v["name"] != "learning_rate" || v["value"] != lr {
		return fmt.Errorf("parameter learning_rate = %v; want %s", v, lr)
	}
	sel, _, _ := unstructured.NestedStringMap(tmpl, "nodeSelector")
	if wantSel := map[string]string{"mlplatform.io/gpu": "a100-sxm4-80gb", "karpenter.sh/capacity-type": capacity}; !reflect.DeepEqual(sel, wantSel) {
		return fmt.Errorf("nodeSelector = %v; want %v", sel, wantSel)
	}
	if got := str(t, tmpl, "retryStrategy", "expression"); got != argo.RetryExpression {
		return fmt.Errorf("retryStrategy.expression = %q", got)
	}
	if got := str(t, tmpl, "podSpecPatch"); got != `{"terminationGracePeriodSeconds":120}` {
		return fmt.Errorf("podSpecPatch = %q", got)
	}
	env, _, _ := unstructured.NestedSlice(tmpl, "container", "env")
	gotEnv := map[string]any{}
	for _, e := range env {
		gotEnv[e.(map[string]any)["name"].(string)] = e.(map[string]any)["value"]
	}
	wantEnv := map[string]any{"HF_HOME": "/cache", "CHECKPOINT_DIR": "s3://ckpt/training/" + ns + "/{{workflow.name}}",
		"MLFLOW_TRACKING_URI": "http://mlflow.mlflow:5000", "MLFLOW_EXPERIMENT_NAME": "sentiment", "MLFLOW_RUN_NAME": "{{workflow.name}}"}
	if !reflect.DeepEqual(gotEnv, wantEnv) {
		return fmt.Errorf("env = %v; want %v", gotEnv, wantEnv)
	}
	artifacts, _, _ := unstructured.NestedSlice(tmpl, "inputs", "artifacts")
	if len(artifacts) != 1 || str(t, artifacts[0].(map[string]any), "git", "revision") != "main" ||
		str(t, artifacts[0].(map[string]any), "git", "sshPrivateKeySecret", "name") != "deploy-key" ||
		str(t, tmpl, "container", "workingDir") != "/workspace/src" {
		return fmt.Errorf("source: artifacts %v, workingDir %q", artifacts, str(t, tmpl, "container", "workingDir"))
	}
	if got, _, _ := unstructured.NestedString(obj.Object, "spec", "podGC", "strategy"); got != "OnPodSuccess" {
		return fmt.Errorf("podGC.strategy = %q", got)
	}
	if d, _, _ := unstructured.NestedInt64(obj.Object, "spec", "activeDeadlineSeconds"); d != 48*3600 {
		return fmt.Errorf("activeDeadlineSeconds = %d", d)
	}
	return nil
}

// editTrain changes the train template with an update, as `kubectl edit` would.
func editTrain(t *testing.T, ns, name string, edit func(tmpl map[string]any)) {
	t.Helper()
	obj := acctest.Get(t, argo.WorkflowTemplateKind, ns, name)
	templates, _, _ := unstructured.NestedSlice(obj.Object, "spec", "templates")
	edit(templates[0].(map[string]any))
	if err := unstructured.SetNestedSlice(obj.Object, templates, "spec", "templates"); err != nil {
		t.Fatal(err)
	}
	if _, err := acctest.Dynamic(t).Resource(argo.WorkflowTemplateKind.GVR).Namespace(ns).Update(context.Background(), obj, metav1.UpdateOptions{FieldManager: "kubectl-edit"}); err != nil {
		t.Fatalf("edit %s/%s: %v", ns, name, err)
	}
}

// Switching a template to a MIG slice and a command, and dropping checkpoint, source, tracking,
// datasets and deadlines, removes them from the cluster's object; the small template imports.
func TestAccTrainingJobTemplate_migAndRemovals(t *testing.T) {
	ns, name := acctest.Name("acc-tjt-research"), "mig-experiment"
	small := acctest.ProviderBlock("", acctest.CostCentreDefault) + fmt.Sprintf(`
resource "mlplatform_training_job_template" "test" {
  namespace = %q
  name      = %q
  queue     = "training"
  image     = "ghcr.io/acme/research:0.3"
  command   = ["python", "-m", "experiments.small"]
  hardware  = { gpu_type = "a100-1g.10gb", gpu_count = 2, cpu_cores = 2, memory_gb = 16 }
  retry     = { limit = 0 }
}
`, ns, name)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { teamNamespace(t, ns) },
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             acctest.CheckDestroyed(t, "mlplatform_training_job_template", argo.WorkflowTemplateKind),
		Steps: []resource.TestStep{
			{Config: tjtConfig("", ns, name, "3e-4", "spot", "")},
			{
				Config: small,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(tjtAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(tjtAddr, tfjsonpath.New("resources"), knownvalue.MapExact(map[string]knownvalue.Check{
						"cpu": knownvalue.StringExact("2"), "memory": knownvalue.StringExact("16Gi"),
						"nvidia.com/mig-1g.10gb": knownvalue.StringExact("2")})),
					plancheck.ExpectKnownValue(tjtAddr, tfjsonpath.New("submit_command"),
						knownvalue.StringExact("argo submit --from workflowtemplate/"+name+" -n "+ns)),
				}},
				Check: func(*terraform.State) error {
					obj := acctest.Get(t, argo.WorkflowTemplateKind, ns, name)
					tmpl := trainTemplate(t, obj)
					for _, gone := range [][]string{{"podSpecPatch"}, {"inputs"}, {"volumes"}, {"container", "env"},
						{"container", "workingDir"}, {"container", "volumeMounts"}, {"container", "args"}} {
						if _, found, _ := unstructured.NestedFieldNoCopy(tmpl, gone...); found {
							return fmt.Errorf("templates[0].%v still set after it was removed from the configuration", gone)
						}
					}
					for _, gone := range [][]string{{"spec", "activeDeadlineSeconds"}, {"spec", "ttlStrategy"}, {"spec", "arguments"}, {"spec", "podGC"}} {
						if _, found, _ := unstructured.NestedFieldNoCopy(obj.Object, gone...); found {
							return fmt.Errorf("%v still set after it was removed from the configuration", gone)
						}
					}
					if got, _, _ := unstructured.NestedString(tmpl, "container", "resources", "limits", "nvidia.com/mig-1g.10gb"); got != "2" {
						return fmt.Errorf("MIG limit = %q", got)
					}
					if _, found, _ := unstructured.NestedFieldNoCopy(tmpl, "nodeSelector", "karpenter.sh/capacity-type"); found {
						return fmt.Errorf("capacity-type selector still set with capacity = any")
					}
					return nil
				},
			},
			acctest.ImportReleased(t, resource.TestStep{
				ResourceName:      tjtAddr,
				ImportState:       true,
				ImportStateId:     ns + "/" + name,
				ImportStateVerify: true,
				// Import reads the catalog's canonical name ("a100-sxm4-80gb-1g.10gb"): which alias the
				// configuration used is not in the cluster. The lifecycle test imports a canonical name.
				ImportStateVerifyIgnore: []string{"timeouts", "hardware.gpu_type"},
				ImportStateCheck: func(s []*terraform.InstanceState) error {
					if got := s[0].Attributes["hardware.gpu_type"]; got != "a100-sxm4-80gb-1g.10gb" {
						return fmt.Errorf("imported hardware.gpu_type = %q", got)
					}
					return nil
				},
			}),
		},
	})
}

// checkSubmitManifest creates the template's submit_manifest as `kubectl create -f` would, in a
// server-side dry run: the API server (Argo's Workflow CRD) accepts it, and it names the template.
func checkSubmitManifest(t *testing.T, manifest, ns, name string) error {
	t.Helper()
	wf := &unstructured.Unstructured{}
	if err := yaml.Unmarshal([]byte(manifest), &wf.Object); err != nil {
		return fmt.Errorf("submit_manifest is not YAML: %w\n%s", err, manifest)
	}
	created, err := acctest.Dynamic(t).Resource(acctest.Workflows).Namespace(ns).Create(context.Background(), wf,
		metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
	if err != nil {
		return fmt.Errorf("creating submit_manifest:\n%s\n%w", manifest, err)
	}
	if ref, _, _ := unstructured.NestedString(created.Object, "spec", "workflowTemplateRef", "name"); ref != name {
		return fmt.Errorf("submit_manifest runs workflowTemplateRef %q, want %q", ref, name)
	}
	if params, _, _ := unstructured.NestedSlice(created.Object, "spec", "arguments", "parameters"); len(params) != 3 {
		return fmt.Errorf("submit_manifest has parameters %v, want the template's 3", params)
	}
	return nil
}
