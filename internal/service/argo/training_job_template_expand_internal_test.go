package argo

import (
	"context"
	"reflect"
	"testing"

	wfv1 "github.com/argoproj/argo-workflows/v3/pkg/apis/workflow/v1alpha1"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
)

func sentimentModel() *trainingJobTemplateModel {
	ctx := context.Background()
	m := &trainingJobTemplateModel{}
	m.Namespace, m.Name = types.StringValue("nlp"), types.StringValue("sentiment")
	m.Queue, m.PriorityClass = types.StringValue("training"), types.StringValue("low")
	m.Billing, _ = types.MapValueFrom(ctx, types.StringType, map[string]string{"billing.mlplatform.io/team": "nlp"})
	m.Image, m.TrainingScript = types.StringValue("ghcr.io/acme/trainer:1.4"), types.StringValue("train.py")
	m.Command = types.ListNull(types.StringType)
	m.Args, _ = types.ListValueFrom(ctx, types.StringType, []string{"--epochs=3", "--lr={{workflow.parameters.learning_rate}}"})
	m.Env, _ = types.MapValueFrom(ctx, types.StringType, map[string]string{"HF_HOME": "/cache"})
	m.DatasetVersion = types.StringValue("v7")
	m.Hyperparameters, _ = types.MapValueFrom(ctx, types.StringType, map[string]string{"learning_rate": "3e-4", "batch_size": "32"})
	m.Hardware = &hardwareModel{GPUType: types.StringValue("a100-1g.10gb"), GPUCount: types.Int64Value(2),
		CPUCores: types.Int64Value(8), MemoryGB: types.Int64Value(128), ShmSizeGB: types.Int64Value(16)}
	m.Capacity = types.StringValue("spot")
	m.Checkpoint = &checkpointModel{URI: types.StringValue("s3://ckpt/"), EnvName: types.StringValue("CHECKPOINT_DIR"),
		TerminationGracePeriod: types.StringValue("2m")}
	m.Retry = &retryModel{Limit: types.Int64Value(5), Backoff: types.StringValue("30s")}
	m.Source = &sourceModel{GitRepo: types.StringValue("git@github.com:acme/models.git"), Revision: types.StringValue("main"),
		SSHPrivateKeySecret: &secretRefModel{Name: types.StringValue("deploy-key"), Key: types.StringValue("ssh-privatekey")}}
	m.Tracking = &trackingModel{URI: types.StringValue("http://mlflow:5000"), Experiment: types.StringNull()}
	m.Volumes = []volumeModel{{ClaimName: types.StringValue("imdb"), MountPath: types.StringValue("/data/imdb")}}
	m.ActiveDeadline, m.TTLAfterFinish = types.StringValue("48h"), types.StringValue("24h")
	m.PodGC = types.StringValue("OnPodSuccess")
	return m
}

func expand(t *testing.T, m *trainingJobTemplateModel) (*unstructured.Unstructured, wfv1.WorkflowTemplate) {
	t.Helper()
	meta := framework.ObjectMeta{Namespace: "nlp", Name: "sentiment", Labels: map[string]string{"billing.mlplatform.io/cost-centre": "cc-1"}}
	body, diags := trainingJobTemplate{}.Expand(context.Background(), m, meta)
	if diags.HasError() {
		t.Fatal(diags)
	}
	obj := &unstructured.Unstructured{Object: body.(map[string]any)}
	var wt wfv1.WorkflowTemplate
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(obj.Object, &wt); err != nil {
		t.Fatal(err)
	}
	return obj, wt
}

func TestExpand(t *testing.T) {
	_, wt := expand(t, sentimentModel())
	tmpl := wt.Spec.Templates[0]
	wantLabels := map[string]string{
		"billing.mlplatform.io/cost-centre": "cc-1", "billing.mlplatform.io/team": "nlp",
		"kueue.x-k8s.io/queue-name": "training", "kueue.x-k8s.io/priority-class": "low",
	}
	if !reflect.DeepEqual(tmpl.Metadata.Labels, wantLabels) || !reflect.DeepEqual(wt.Spec.PodMetadata.Labels, wantLabels) {
		t.Errorf("pod labels: template %v, podMetadata %v; want %v", tmpl.Metadata.Labels, wt.Spec.PodMetadata.Labels, wantLabels)
	}
	c := tmpl.Container
	wantArgs := []string{"--epochs=3", "--lr={{workflow.parameters.learning_rate}}",
		"--dataset_version={{workflow.parameters.dataset_version}}",
		"--batch_size={{workflow.parameters.batch_size}}", "--learning_rate={{workflow.parameters.learning_rate}}"}
	if !reflect.DeepEqual(c.Command, []string{"python", "train.py"}) || !reflect.DeepEqual(c.Args, wantArgs) {
		t.Errorf("argv: %q %q; want python train.py %q", c.Command, c.Args, wantArgs)
	}
	if got := c.Resources.Limits["nvidia.com/mig-1g.10gb"]; got.Value() != 2 {
		t.Errorf("MIG limit = %v; want 2", got)
	}
	if got := c.Resources.Requests.Memory().String(); got != "128Gi" {
		t.Errorf("memory request = %s", got)
	}
	wantSel := map[string]string{"mlplatform.io/gpu": "a100-sxm4-80gb", "karpenter.sh/capacity-type": "spot"}
	if !reflect.DeepEqual(tmpl.NodeSelector, wantSel) {
		t.Errorf("nodeSelector = %v; want %v", tmpl.NodeSelector, wantSel)
	}
	if tmpl.PodSpecPatch != `{"terminationGracePeriodSeconds":120}` {
		t.Errorf("podSpecPatch = %s", tmpl.PodSpecPatch)
	}
	wantEnv := map[string]string{"HF_HOME": "/cache", "CHECKPOINT_DIR": "s3://ckpt/nlp/{{workflow.name}}",
		"MLFLOW_TRACKING_URI": "http://mlflow:5000", "MLFLOW_RUN_NAME": "{{workflow.name}}"}
	if len(c.Env) != len(wantEnv) {
		t.Errorf("env = %v; want %v", c.Env, wantEnv)
	}
	for _, e := range c.Env {
		if wantEnv[e.Name] != e.Value {
			t.Errorf("env %s = %q; want %q", e.Name, e.Value, wantEnv[e.Name])
		}
	}
	rs := tmpl.RetryStrategy
	if rs.Limit.IntValue() != 5 || rs.RetryPolicy != wfv1.RetryPolicyAlways || rs.Expression != retryExpression || rs.Backoff.Duration != "30s" {
		t.Errorf("retryStrategy = %+v", rs)
	}
	git := tmpl.Inputs.Artifacts[0]
	if git.Path != "/workspace/src" || git.Git.Repo != "git@github.com:acme/models.git" || git.Git.SSHPrivateKeySecret.Name != "deploy-key" ||
		c.WorkingDir != "/workspace/src" {
		t.Errorf("source artifact = %+v, workingDir %q", git, c.WorkingDir)
	}
	if len(c.VolumeMounts) != 2 || !c.VolumeMounts[1].ReadOnly || !tmpl.Volumes[1].PersistentVolumeClaim.ReadOnly {
		t.Errorf("volumes %+v mounts %+v", tmpl.Volumes, c.VolumeMounts)
	}
	if *wt.Spec.ActiveDeadlineSeconds != 48*3600 || *wt.Spec.TTLStrategy.SecondsAfterCompletion != 24*3600 {
		t.Errorf("activeDeadlineSeconds %v ttl %v", *wt.Spec.ActiveDeadlineSeconds, wt.Spec.TTLStrategy)
	}
	if wt.Spec.PodGC.Strategy != wfv1.PodGCOnPodSuccess {
		t.Errorf("podGC = %+v", wt.Spec.PodGC)
	}
	if len(wt.Spec.Arguments.Parameters) != 3 || wt.Spec.Arguments.Parameters[0].Name != "dataset_version" {
		t.Errorf("parameters = %+v", wt.Spec.Arguments.Parameters)
	}
}

// What Expand writes, Flatten reads back unchanged, and an import (no prior values) reads the
// same but for the spellings only the configuration knows.
func TestFlattenRoundTrip(t *testing.T) {
	want := sentimentModel()
	obj, _ := expand(t, want)
	got := sentimentModel()
	if d := (trainingJobTemplate{}).Flatten(context.Background(), obj, got, false); d.HasError() {
		t.Fatal(d)
	}
	var diags diag.Diagnostics
	setComputed(context.Background(), want, &diags)
	got.SubmitCommand, got.Resources = want.SubmitCommand, want.Resources
	if got.RetryExpression.ValueString() != retryExpression {
		t.Errorf("retry_expression read back = %s", got.RetryExpression)
	}
	want.RetryExpression = got.RetryExpression
	if !reflect.DeepEqual(got, want) {
		t.Errorf("round trip:\n got %+v\nwant %+v", got, want)
	}
	imported := &trainingJobTemplateModel{}
	imported.Billing, imported.Hyperparameters, imported.Env = types.MapNull(types.StringType), types.MapNull(types.StringType), types.MapNull(types.StringType)
	imported.Command, imported.Args = types.ListNull(types.StringType), types.ListNull(types.StringType)
	obj.SetLabels(map[string]string{"billing.mlplatform.io/cost-centre": "cc-1"})
	if d := (trainingJobTemplate{}).Flatten(context.Background(), obj, imported, true); d.HasError() {
		t.Fatal(d)
	}
	if imported.Hardware.GPUType.ValueString() != "a100-sxm4-80gb-1g.10gb" || imported.Checkpoint.TerminationGracePeriod.ValueString() != "120s" ||
		!reflect.DeepEqual(imported.Billing, want.Billing) || imported.TrainingScript.ValueString() != "train.py" {
		t.Errorf("imported %+v %+v %+v", imported.Hardware, imported.Checkpoint, imported.Billing)
	}
}

func TestSubmitCommand(t *testing.T) {
	got := submitCommand("nlp", "sentiment", []param{{"dataset_version", "v7"}, {"note", "it's ok"}})
	want := `argo submit --from workflowtemplate/sentiment -n nlp -p dataset_version=v7 -p 'note=it'\''s ok'`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestSubmitManifest(t *testing.T) {
	got, err := submitManifest("nlp", "sentiment", []param{{"dataset_version", "v7"}, {"note", "it's: ok"}})
	if err != nil {
		t.Fatal(err)
	}
	want := `apiVersion: argoproj.io/v1alpha1
kind: Workflow
metadata:
  generateName: sentiment-
  namespace: nlp
spec:
  arguments:
    parameters:
    - name: dataset_version
      value: v7
    - name: note
      value: 'it''s: ok'
  workflowTemplateRef:
    name: sentiment
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// A retry strategy changed outside Terraform reads back differently from what the plan sets.
func TestFlattenRetryDrift(t *testing.T) {
	for name, change := range map[string]func(rs map[string]any){
		"expression": func(rs map[string]any) { rs["expression"] = "true" },
		"policy":     func(rs map[string]any) { rs["retryPolicy"] = "OnFailure" },
		"removed":    func(rs map[string]any) { delete(rs, "expression"); delete(rs, "retryPolicy") },
	} {
		obj, _ := expand(t, sentimentModel())
		templates, _, _ := unstructured.NestedSlice(obj.Object, "spec", "templates")
		change(templates[0].(map[string]any)["retryStrategy"].(map[string]any))
		_ = unstructured.SetNestedSlice(obj.Object, templates, "spec", "templates")
		m := sentimentModel()
		if d := (trainingJobTemplate{}).Flatten(context.Background(), obj, m, false); d.HasError() {
			t.Fatal(d)
		}
		if m.RetryExpression.ValueString() == retryExpression {
			t.Errorf("%s changed: retry_expression still reads as the one written", name)
		}
	}
}
