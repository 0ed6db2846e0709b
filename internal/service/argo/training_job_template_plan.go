package argo

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"sigs.k8s.io/yaml"

	"github.com/argoproj/argo-workflows/v3/pkg/apis/workflow"
	wfv1 "github.com/argoproj/argo-workflows/v3/pkg/apis/workflow/v1alpha1"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/capacity"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/queue"
)

// jobPlan is what the model resolves to before anything is built: the workflow parameters in
// argv order, the GPU request and the pod's resources.
type jobPlan struct {
	Params    []param
	GPU       *gpuRequest // nil for a CPU-only job
	Resources map[string]string
}

type param struct{ Name, Value string }

// resolve turns a fully known model into a jobPlan; errors name the attribute at fault.
func resolve(ctx context.Context, m *trainingJobTemplateModel) (*jobPlan, diag.Diagnostics) {
	var diags diag.Diagnostics
	p := &jobPlan{}
	if !m.DatasetVersion.IsNull() {
		p.Params = append(p.Params, param{datasetParam, m.DatasetVersion.ValueString()})
	}
	hp := framework.StringMap(ctx, m.Hyperparameters, &diags)
	for _, k := range sortedKeys(hp) {
		p.Params = append(p.Params, param{k, hp[k]})
	}
	hw := m.Hardware
	if hw == nil {
		diags.AddAttributeError(path.Root("hardware"), "Missing hardware", "hardware is required")
		return nil, diags
	}
	if !hw.GPUType.IsNull() {
		g, attr, err := resolveGPU(hw.GPUType.ValueString(), hw.GPUCount.ValueInt64())
		if err != nil {
			diags.AddAttributeError(path.Root("hardware").AtName(attr), "Invalid hardware",
				fmt.Sprintf("Attribute hardware.%s: %v", attr, err))
			return nil, diags
		}
		p.GPU = g
	}
	p.Resources = podResources(p.GPU, hw.CPUCores.ValueInt64(), hw.MemoryGB.ValueInt64())
	if err := compileRetryExpression(); err != nil {
		diags.AddAttributeError(path.Root("retry"), "Invalid retry expression", err.Error())
	}
	return p, diags
}

// submitCommand is the `argo submit` line for a run with the template's default parameters.
func submitCommand(namespace, name string, params []param) string {
	parts := []string{"argo submit --from", "workflowtemplate/" + name, "-n", namespace}
	for _, p := range params {
		parts = append(parts, "-p", shellQuote(p.Name+"="+p.Value))
	}
	return strings.Join(parts, " ")
}

// submitManifest is the Workflow that submitCommand would create, for `kubectl create -f`: named
// by the API server from generateName, as the argo CLI's are.
func submitManifest(namespace, name string, params []param) (string, error) {
	spec := map[string]any{"workflowTemplateRef": map[string]any{"name": name}}
	if len(params) > 0 {
		ps := make([]any, 0, len(params))
		for _, p := range params {
			ps = append(ps, map[string]any{"name": p.Name, "value": p.Value})
		}
		spec["arguments"] = map[string]any{"parameters": ps}
	}
	b, err := yaml.Marshal(map[string]any{
		"apiVersion": wfv1.SchemeGroupVersion.String(), "kind": workflow.WorkflowKind,
		"metadata": map[string]any{"generateName": name + "-", "namespace": namespace},
		"spec":     spec,
	})
	return string(b), err
}

var shellSafe = regexp.MustCompile(`^[A-Za-z0-9_./:=@%+,-]+$`)

func shellQuote(s string) string {
	if shellSafe.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// graceSeconds parses a validated termination_grace_period.
func graceSeconds(v types.String) int64 {
	d, err := time.ParseDuration(v.ValueString())
	if err != nil {
		return 0
	}
	return int64(d / time.Second)
}

func stringList(ctx context.Context, v types.List, diags *diag.Diagnostics) []string {
	if v.IsNull() || v.IsUnknown() {
		return nil
	}
	var out []string
	diags.Append(v.ElementsAs(ctx, &out, false)...)
	return out
}

// ModifyPlan computes submit_command, submit_manifest and resources at plan and refuses an env variable that the
// template sets itself. Argo's validator runs after it, on the WorkflowTemplate apply would write,
// with the other checks of every object (package validate; UpstreamTextRefusal words its refusals).
func (trainingJobTemplate) ModifyPlan(ctx context.Context, p *framework.ProviderData, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	var m trainingJobTemplateModel
	if d := req.Plan.Get(ctx, &m); d.HasError() {
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("submit_command"), types.StringUnknown())...)
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("submit_manifest"), types.StringUnknown())...)
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("resources"), types.MapUnknown(types.StringType))...)
		return
	}
	if m.Checkpoint != nil && !m.Checkpoint.EnvName.IsUnknown() {
		if _, clash := m.Env.Elements()[m.Checkpoint.EnvName.ValueString()]; clash {
			resp.Diagnostics.AddAttributeError(path.Root("env").AtMapKey(m.Checkpoint.EnvName.ValueString()), "Reserved environment variable",
				fmt.Sprintf("Attribute env: %q carries the checkpoint path (checkpoint.env_name); remove it from env or rename checkpoint.env_name",
					m.Checkpoint.EnvName.ValueString()))
			return
		}
	}
	setComputed(ctx, &m, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("submit_command"), m.SubmitCommand)...)
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("submit_manifest"), m.SubmitManifest)...)
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("resources"), m.Resources)...)
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("retry_expression"), types.StringValue(retryExpression))...)
	checkRequiredPodLabel(ctx, p, &m, resp)
	checkQueueSpelling(p, &m, resp)
	checkSpotCheckpoint(&m, resp)
	useQueue(ctx, p, &m, resp)
}

// checkSpotCheckpoint warns about a template whose runs go to spot nodes only and that has no
// checkpoint: each spot reclaim then restarts a run from zero. A queue that admits the runs only
// on spot flavors warns the same, once it is planned (useQueue).
func checkSpotCheckpoint(m *trainingJobTemplateModel, resp *resource.ModifyPlanResponse) {
	if m.Checkpoint != nil || m.Capacity.ValueString() != capacity.CapacitySpot {
		return
	}
	resp.Diagnostics.AddAttributeWarning(path.Root("capacity"), spotWithoutCheckpoint, fmt.Sprintf(
		"Attribute capacity: %q runs the trainer on spot nodes only, and the template has no checkpoint: each spot reclaim "+
			"restarts a run from zero. Set checkpoint = { uri = \"s3://<bucket>/<prefix>\" } so that a retried run resumes "+
			"from its last checkpoint, or capacity = %q.", capacity.CapacitySpot, capacity.CapacityOnDemand))
}

// useQueue records the template's pod with the queue it names, so that it is judged against the
// queue as planned once the configuration plans the LocalQueue, its ClusterQueue and their flavors:
// here, or by whichever of them is planned last (framework/planned_queues.go).
func useQueue(ctx context.Context, pd *framework.ProviderData, m *trainingJobTemplateModel, resp *resource.ModifyPlanResponse) {
	if pd == nil || m.Queue.IsNull() || m.Queue.IsUnknown() || m.Capacity.IsUnknown() || !known(ctx, m) {
		return
	}
	p, d := resolve(ctx, m)
	if d.HasError() {
		return // setComputed said why
	}
	ns, name, tm := m.Namespace.ValueString(), m.Queue.ValueString(), *m
	u := framework.QueueUse{What: fmt.Sprintf("%straining_job_template %q", framework.ResourceTypePrefix, ns+"/"+m.Name.ValueString()),
		Namespace: ns, Queue: name,
		Judge: func(t *queue.Target) []framework.QueueFinding { return queueFindings(&tm, p, ns, name, t) }}
	for _, f := range pd.UseQueue(u) {
		f.AddTo(&resp.Diagnostics)
	}
}

// checkQueueSpelling refuses a queue that is not declared in the template's namespace by the
// configuration but one or two letters from one that is (framework/local_queues.go).
func checkQueueSpelling(p *framework.ProviderData, m *trainingJobTemplateModel, resp *resource.ModifyPlanResponse) {
	if p == nil || m.Queue.IsNull() || m.Queue.IsUnknown() || m.Namespace.IsUnknown() || m.Name.IsUnknown() {
		return
	}
	ns := m.Namespace.ValueString()
	what := fmt.Sprintf("%straining_job_template %q", framework.ResourceTypePrefix, ns+"/"+m.Name.ValueString())
	if nearest, ok := p.UseLocalQueue(ns, m.Queue.ValueString(), what); ok {
		resp.Diagnostics.AddAttributeError(path.Root("queue"), framework.MisspelledQueueSummary, framework.MisspelledQueueDetail(ns,
			framework.LocalQueueUse{What: what, Queue: m.Queue.ValueString(), Nearest: nearest}))
	}
}

// checkRequiredPodLabel refuses a template whose runs' pods lack the label a team of the same
// configuration requires of every pod in the template's namespace: its admission policy would
// refuse each pod, and the run would fail at once. When the team plans after the template, the
// team reports it (framework.RequirePodLabel).
func checkRequiredPodLabel(ctx context.Context, p *framework.ProviderData, m *trainingJobTemplateModel, resp *resource.ModifyPlanResponse) {
	var labelsAll types.Map
	resp.Diagnostics.Append(resp.Plan.GetAttribute(ctx, path.Root("labels_all"), &labelsAll)...)
	if !framework.FullyKnown(ctx, labelsAll) || !framework.FullyKnown(ctx, m.Billing) || m.Namespace.IsUnknown() || m.Name.IsUnknown() {
		return
	}
	ns := m.Namespace.ValueString()
	meta := framework.ObjectMeta{Labels: framework.StringMap(ctx, labelsAll, &resp.Diagnostics)}
	labels := podLabels(ctx, m, meta, &resp.Diagnostics)
	what := fmt.Sprintf("%straining_job_template %q", framework.ResourceTypePrefix, ns+"/"+m.Name.ValueString())
	if label, by, lacking := p.CarryPodLabels(ns, labels, what); lacking {
		resp.Diagnostics.AddAttributeError(path.Root("billing"), "Runs would be refused: a required pod label is missing",
			fmt.Sprintf("Attribute billing: %s requires every pod in namespace %s to carry the label %q, and this template's "+
				"pods would not (their labels are labels_all and billing): the API server would refuse each run's pod, "+
				"and the run would fail at once. Add %q to billing, e.g. billing = merge(<team>.pod_labels, { %q = \"<project>\" }).",
				by, ns, label, label, label))
	}
}

// setComputed sets submit_command, submit_manifest and resources from the model, or unknown where
// an input is.
func setComputed(ctx context.Context, m *trainingJobTemplateModel, diags *diag.Diagnostics) {
	m.SubmitCommand, m.SubmitManifest, m.Resources = types.StringUnknown(), types.StringUnknown(), types.MapUnknown(types.StringType)
	if !known(ctx, m) {
		return
	}
	p, d := resolve(ctx, m)
	if d.HasError() {
		diags.Append(d...)
		return
	}
	m.SubmitCommand = types.StringValue(submitCommand(m.Namespace.ValueString(), m.Name.ValueString(), p.Params))
	manifest, err := submitManifest(m.Namespace.ValueString(), m.Name.ValueString(), p.Params)
	if err != nil {
		diags.AddAttributeError(path.Root("submit_manifest"), "Building the submit manifest", err.Error())
		return
	}
	m.SubmitManifest = types.StringValue(manifest)
	m.Resources = framework.MapValue(p.Resources)
}

// known reports whether what resolve reads is known: a hyperparameter taken from another
// resource leaves submit_command unknown.
func known(ctx context.Context, m *trainingJobTemplateModel) bool {
	if m.Hardware == nil {
		return false
	}
	for _, v := range []attr.Value{m.Namespace, m.Name, m.DatasetVersion, m.Hyperparameters,
		m.Hardware.GPUType, m.Hardware.GPUCount, m.Hardware.CPUCores, m.Hardware.MemoryGB} {
		if !framework.FullyKnown(ctx, v) {
			return false
		}
	}
	return true
}
