package argo

import (
	"context"
	"errors"
	"strings"
	"testing"

	wfv1 "github.com/argoproj/argo-workflows/v3/pkg/apis/workflow/v1alpha1"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/validate"
)

// smallModel is the MIG template with a command and nothing optional (the acceptance tests'
// "small" configuration).
func smallModel() *trainingJobTemplateModel {
	ctx := context.Background()
	m := &trainingJobTemplateModel{}
	m.Namespace, m.Name = types.StringValue("research"), types.StringValue("mig-experiment")
	m.Queue, m.PriorityClass = types.StringValue("training"), types.StringNull()
	m.Billing, m.Env, m.Hyperparameters = types.MapNull(types.StringType), types.MapNull(types.StringType), types.MapNull(types.StringType)
	m.Image, m.TrainingScript = types.StringValue("ghcr.io/acme/research:0.3"), types.StringNull()
	m.Command, _ = types.ListValueFrom(ctx, types.StringType, []string{"python", "-m", "experiments.small"})
	m.Args, m.DatasetVersion = types.ListNull(types.StringType), types.StringNull()
	m.Hardware = &hardwareModel{GPUType: types.StringValue("a100-1g.10gb"), GPUCount: types.Int64Value(2),
		CPUCores: types.Int64Value(2), MemoryGB: types.Int64Value(16), ShmSizeGB: types.Int64Null()}
	m.Capacity = types.StringValue(capacityAny)
	m.Retry = &retryModel{Limit: types.Int64Value(0), Backoff: types.StringNull()}
	m.ActiveDeadline, m.TTLAfterFinish, m.PodGC = types.StringNull(), types.StringNull(), types.StringNull()
	return m
}

// cpuModel is a CPU-only job with a tracking experiment and no source.
func cpuModel() *trainingJobTemplateModel {
	m := sentimentModel()
	m.Hardware = &hardwareModel{GPUType: types.StringNull(), GPUCount: types.Int64Value(1),
		CPUCores: types.Int64Value(4), MemoryGB: types.Int64Value(8), ShmSizeGB: types.Int64Null()}
	m.Source, m.Checkpoint, m.Volumes = nil, nil, nil
	m.Tracking = &trackingModel{URI: types.StringValue("http://mlflow:5000"), Experiment: types.StringValue("sentiment")}
	return m
}

// Argo's validator runs on the generated templates of the tested configurations and accepts them.
func TestLintAcceptsGeneratedTemplates(t *testing.T) {
	p := &framework.ProviderData{DefaultLabels: map[string]string{"billing.mlplatform.io/cost-centre": "cc-1"}}
	for name, m := range map[string]*trainingJobTemplateModel{
		"sentiment": sentimentModel(), "small": smallModel(), "cpu": cpuModel(),
	} {
		t.Run(name, func(t *testing.T) {
			if d := lintModel(context.Background(), p, m); d.HasError() {
				t.Fatal(d)
			}
			// The validator saw the template: a broken copy of it is refused.
			_, wt := expand(t, m)
			wt.Spec.Templates[0].Container.Image = ""
			if err := lintWorkflowTemplate(&wt); err == nil || !strings.Contains(err.Error(), "container.image may not be empty") {
				t.Errorf("empty image: %v", err)
			}
		})
	}
}

// What a user can write, passes the provider's own checks, and Argo refuses: each is an error on
// the attribute, quoting Argo.
func TestLintRefusals(t *testing.T) {
	cases := map[string]struct {
		change func(m *trainingJobTemplateModel)
		path   path.Path
		argo   string
	}{
		// metadata.name may have 253 characters; Argo refuses a template name over 63.
		"name longer than 63": {func(m *trainingJobTemplateModel) { m.Name = types.StringValue(strings.Repeat("a", 64)) },
			path.Root("name"), `workflow template name "` + strings.Repeat("a", 64) + `" must not be more than 63 characters long (currently 64)`},
		// Two datasets at one path: both mounts are generated and Argo refuses the second.
		"same mount path twice": {func(m *trainingJobTemplateModel) {
			m.Volumes = append(m.Volumes, volumeModel{ClaimName: types.StringValue("imdb-v2"), MountPath: types.StringValue("/data/imdb")})
			// The CRD lists mounts as a map keyed by mountPath: the apiserver refuses the object before
			// Argo's validator could.
		}, path.Root("volumes").AtListIndex(1).AtName("mount_path"),
			`spec.templates[0].container.volumeMounts[2]: Duplicate value: {"mountPath":"/data/imdb"}`},
		// Caught by ValidateConfig first; Argo's message maps to the same attribute.
		"input variable in args": {func(m *trainingJobTemplateModel) {
			m.Args, _ = types.ListValueFrom(context.Background(), types.StringType, []string{"--x={{inputs.parameters.x}}"})
		}, path.Root("args").AtListIndex(0), `failed to resolve {{inputs.parameters.x}}`},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			m := sentimentModel()
			tc.change(m)
			d := lintModel(context.Background(), nil, m)
			checkRefusal(t, d, tc.path, tc.argo)
		})
	}
}

// checkRefusal checks that d is one error on p (or on the resource for an empty p) quoting
// upstream's message: Argo's validator's, or the CRD's, which is a field error as the apiserver
// prints it.
func checkRefusal(t *testing.T, d diag.Diagnostics, p path.Path, argo string) {
	t.Helper()
	if d.ErrorsCount() != 1 {
		t.Fatalf("diagnostics %v; want one error", d)
	}
	e := d.Errors()[0]
	summary := lintSummary
	if strings.Contains(argo, ": Duplicate value: ") {
		summary = crdSummary
	}
	if e.Summary() != summary || !strings.Contains(e.Detail(), argo) {
		t.Errorf("error %q: %q; want Argo's %q", e.Summary(), e.Detail(), argo)
	}
	withPath, ok := e.(diag.DiagnosticWithPath)
	if p.Equal(path.Empty()) {
		if ok {
			t.Errorf("error on %s; want on the resource", withPath.Path())
		}
		return
	}
	if !ok || !withPath.Path().Equal(p) {
		t.Errorf("error %q not on %s", e.Detail(), p)
	} else if !strings.HasPrefix(e.Detail(), "Attribute "+p.String()+": ") {
		t.Errorf("detail %q does not name %s", e.Detail(), p)
	}
}

// Templates broken by hand (nothing a user can write produces them) go through the same
// validator and mapping.
func TestLintBrokenTemplates(t *testing.T) {
	cases := map[string]struct {
		change func(wt *wfv1.WorkflowTemplate)
		path   path.Path
		argo   string
	}{
		"invalid parameter name": {func(wt *wfv1.WorkflowTemplate) { wt.Spec.Arguments.Parameters[1].Name = "batch.size" },
			path.Root("hyperparameters").AtMapKey("batch.size"), `spec.arguments.parameters[1].name: 'batch.size' is invalid`},
		"duplicate dataset parameter": {func(wt *wfv1.WorkflowTemplate) { wt.Spec.Arguments.Parameters[2].Name = datasetParam },
			path.Root("dataset_version"), `spec.arguments.parameters[2].name 'dataset_version' is not unique`},
		"empty image": {func(wt *wfv1.WorkflowTemplate) { wt.Spec.Templates[0].Container.Image = "" },
			path.Root("image"), `templates.train.container.image may not be empty`},
		"shm mount collides": {func(wt *wfv1.WorkflowTemplate) {
			c := wt.Spec.Templates[0].Container
			c.VolumeMounts = append(c.VolumeMounts[1:], c.VolumeMounts[0])
			c.VolumeMounts[0].MountPath = "/dev/shm"
		}, path.Root("hardware").AtName("shm_size_gb"), `spec.templates[0].container.volumeMounts[1]: Duplicate value: {"mountPath":"/dev/shm"}`},
		"bad pod GC": {func(wt *wfv1.WorkflowTemplate) { wt.Spec.PodGC.Strategy = "Never" },
			path.Root("pod_gc"), `podGC.strategy unknown strategy 'Never'`},
		"bad retry policy": {func(wt *wfv1.WorkflowTemplate) { wt.Spec.Templates[0].RetryStrategy.RetryPolicy = "Sometimes" },
			path.Root("retry"), `Sometimes is not a valid RetryPolicy`},
		"no entrypoint template": {func(wt *wfv1.WorkflowTemplate) { wt.Spec.Templates[0].Name = "other"; wt.Spec.PodMetadata = nil },
			path.Empty(), `template name 'train' undefined`},
		// argoproj/argo-workflows#14968: with spec.podMetadata set, v3.7.3 panicked here.
		"no entrypoint template, podMetadata set": {func(wt *wfv1.WorkflowTemplate) { wt.Spec.Templates[0].Name = "other" },
			path.Empty(), `template name 'train' undefined`},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			m := sentimentModel()
			_, wt := expand(t, m)
			tc.change(&wt)
			checkRefusal(t, refusals(t, m, &wt), tc.path, tc.argo)
		})
	}
}

// A template referring to itself resolves; a reference to another template needs the cluster, so
// Argo's check gives no verdict (it used to refuse it as not found, which the cluster may deny).
func TestLintOfflineGetters(t *testing.T) {
	_, wt := expand(t, sentimentModel())
	train := wt.Spec.Templates[0]
	steps := func(ref string) wfv1.Template {
		return wfv1.Template{Name: "main", Steps: []wfv1.ParallelSteps{{Steps: []wfv1.WorkflowStep{{Name: "run",
			TemplateRef: &wfv1.TemplateRef{Name: ref, Template: train.Name}}}}}}
	}
	wt.Spec.Entrypoint = "main"
	wt.Spec.Templates = []wfv1.Template{steps(wt.Name), train}
	if err := lintWorkflowTemplate(&wt); err != nil {
		t.Errorf("self reference: %v", err)
	}
	wt.Spec.Templates[0] = steps("elsewhere")
	if err := lintWorkflowTemplate(&wt); err != nil {
		t.Errorf("reference to another template: %v", err)
	}
}

// lintModel is what the framework does with a known model: expand it as apply would, run the
// validate engine, and word Argo's refusals as the resource does.
func lintModel(ctx context.Context, p *framework.ProviderData, m *trainingJobTemplateModel) diag.Diagnostics {
	var diags diag.Diagnostics
	meta := framework.ObjectMetaFor(ctx, p, &m.Metadata, m.Namespace.ValueString(), &diags)
	body, d := trainingJobTemplate{}.Expand(ctx, m, meta)
	if diags.Append(d...); diags.HasError() {
		return diags
	}
	errs, err := validate.Object(ctx, body)
	if err != nil {
		diags.AddError("validate", err.Error())
	}
	for _, e := range errs {
		if d, ok := (trainingJobTemplate{}).UpstreamRefusal(m, framework.Object{Body: body}, e); ok {
			diags.Append(d)
		} else {
			diags.AddError("refused upstream", validate.Text(e))
		}
	}
	return diags
}

// refusals are the validate engine's errors of wt, written for m, as the resource words them.
func refusals(t *testing.T, m *trainingJobTemplateModel, wt *wfv1.WorkflowTemplate) diag.Diagnostics {
	t.Helper()
	u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(wt)
	if err != nil {
		t.Fatal(err)
	}
	errs, err := validate.Object(context.Background(), u)
	if err != nil {
		t.Fatal(err)
	}
	var d diag.Diagnostics
	for _, e := range errs {
		if w, ok := (trainingJobTemplate{}).UpstreamRefusal(m, framework.Object{Body: u}, e); ok {
			d.Append(w)
		} else {
			d.AddError("refused upstream", validate.Text(e))
		}
	}
	return d
}

// lintWorkflowTemplate is the validate engine's first refusal of wt.
func lintWorkflowTemplate(wt *wfv1.WorkflowTemplate) error {
	u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(wt)
	if err != nil {
		return err
	}
	errs, err := validate.Object(context.Background(), u)
	if err != nil || len(errs) == 0 {
		return err
	}
	return errors.New(validate.Text(errs[0]))
}
