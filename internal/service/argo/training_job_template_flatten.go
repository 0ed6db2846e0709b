package argo

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	wfv1 "github.com/argoproj/argo-workflows/v3/pkg/apis/workflow/v1alpha1"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/capacity"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/gpu"
)

// Flatten reads the model back from the WorkflowTemplate it wrote: every attribute has one place
// in the object, so a change made there outside Terraform shows as drift, and import works.
func (trainingJobTemplate) Flatten(ctx context.Context, obj *unstructured.Unstructured, m *trainingJobTemplateModel, importing bool) diag.Diagnostics {
	var diags diag.Diagnostics
	var wt wfv1.WorkflowTemplate
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(obj.Object, &wt); err != nil {
		diags.AddError("Decoding WorkflowTemplate "+obj.GetNamespace()+"/"+obj.GetName(), err.Error())
		return diags
	}
	m.Namespace = types.StringValue(wt.Namespace)
	tmpl := wt.GetTemplateByName(entrypoint)
	if tmpl == nil || tmpl.Container == nil {
		diags.AddError("WorkflowTemplate "+wt.Namespace+"/"+wt.Name+" has no template "+entrypoint,
			"It was changed outside Terraform; apply to restore it.")
		return diags
	}
	c := tmpl.Container
	flattenLabels(ctx, tmpl.Metadata.Labels, obj.GetLabels(), m, importing, &diags)
	m.Image = types.StringValue(c.Image)
	if m.Command.IsNull() && len(c.Command) == 2 && c.Command[0] == "python" {
		m.TrainingScript = types.StringValue(c.Command[1])
	} else {
		m.TrainingScript, m.Command = types.StringNull(), listValue(c.Command, m.Command)
	}
	m.ServiceAccount = framework.OptionalString(wt.Spec.ServiceAccountName)
	params := flattenParams(wt.Spec.Arguments.Parameters, m)
	userArgs := c.Args
	if n := len(c.Args) - len(params); n >= 0 {
		userArgs = c.Args[:n]
	}
	m.Args = listValue(userArgs, m.Args)
	flattenEnv(c.Env, wt.Namespace, m)
	flattenHardware(tmpl, m)
	m.Capacity = types.StringValue(capacityAny)
	if v, ok := tmpl.NodeSelector[capacity.LabelCapacityType]; ok {
		m.Capacity = types.StringValue(v)
	}
	flattenRetry(tmpl.RetryStrategy, m)
	flattenRuntime(&wt, tmpl, m)
	if m.Checkpoint != nil {
		m.Checkpoint.TerminationGracePeriod = graceValue(tmpl.PodSpecPatch, m.Checkpoint.TerminationGracePeriod)
	}
	setComputed(ctx, m, &diags)
	return diags
}

// flattenLabels reads queue, priority and billing from the pod labels of the train template.
// Billing is what the pods carry beyond the WorkflowTemplate's own labels and Kueue's.
func flattenLabels(ctx context.Context, pod, object map[string]string, m *trainingJobTemplateModel, importing bool, diags *diag.Diagnostics) {
	m.Queue = framework.OptionalString(pod[labelQueue])
	m.PriorityClass = framework.OptionalString(pod[labelPriority])
	billing := map[string]string{}
	for k, v := range pod {
		if k != labelQueue && k != labelPriority && object[k] != v {
			billing[k] = v
		}
	}
	if !importing {
		billing = map[string]string{}
		for k := range framework.StringMap(ctx, m.Billing, diags) {
			if v, ok := pod[k]; ok {
				billing[k] = v
			}
		}
	}
	m.Billing = framework.AtomicMap(billing, m.Billing)
}

func flattenParams(ps []wfv1.Parameter, m *trainingJobTemplateModel) []wfv1.Parameter {
	hp := map[string]string{}
	m.DatasetVersion = types.StringNull()
	for _, p := range ps {
		v := ""
		if p.Value != nil {
			v = p.Value.String()
		}
		if p.Name == datasetParam {
			m.DatasetVersion = types.StringValue(v)
		} else {
			hp[p.Name] = v
		}
	}
	m.Hyperparameters = framework.AtomicMap(hp, m.Hyperparameters)
	return ps
}

// flattenEnv separates the checkpoint variable (its value ends in /<namespace>/{{workflow.name}})
// from the user's.
func flattenEnv(env []corev1.EnvVar, namespace string, m *trainingJobTemplateModel) {
	user := map[string]string{}
	var ckpt *checkpointModel
	for _, e := range env {
		suffix := "/" + namespace + checkpointSuffix
		if ckpt == nil && strings.HasSuffix(e.Value, suffix) {
			ckpt = &checkpointModel{URI: types.StringValue(strings.TrimSuffix(e.Value, suffix)),
				EnvName: types.StringValue(e.Name), TerminationGracePeriod: types.StringValue(defaultGraceTime)}
			if m.Checkpoint != nil {
				ckpt.TerminationGracePeriod = m.Checkpoint.TerminationGracePeriod
				if strings.TrimRight(m.Checkpoint.URI.ValueString(), "/") == ckpt.URI.ValueString() {
					ckpt.URI = m.Checkpoint.URI
				}
			}
			continue
		}
		if e.Name != envTrackingURI && e.Name != envExperiment && e.Name != envRunName {
			user[e.Name] = e.Value
		}
	}
	m.Checkpoint = ckpt
	m.Env = framework.AtomicMap(user, m.Env)
}

func flattenHardware(tmpl *wfv1.Template, m *trainingJobTemplateModel) {
	prior := m.Hardware
	out := &hardwareModel{GPUType: types.StringNull(), GPUCount: types.Int64Value(1), ShmSizeGB: types.Int64Null()}
	limits := tmpl.Container.Resources.Limits
	out.CPUCores = types.Int64Value(limits.Cpu().Value())
	out.MemoryGB = types.Int64Value(limits.Memory().Value() >> 30)
	model := tmpl.NodeSelector[capacity.LabelGPU]
	for name, q := range limits {
		r := string(name)
		if r != gpu.ResourceGPU && !strings.HasPrefix(r, "nvidia.com/mig-") {
			continue
		}
		out.GPUCount = types.Int64Value(q.Value())
		gpuType := model
		if r != gpu.ResourceGPU {
			gpuType += "-" + strings.TrimPrefix(r, "nvidia.com/mig-")
		}
		out.GPUType = types.StringValue(gpuType)
		// Keep the name the configuration uses when it resolves to the same model and resource.
		if prior != nil && !prior.GPUType.IsNull() {
			if g, _, err := resolveGPU(prior.GPUType.ValueString(), q.Value()); err == nil &&
				g.Resource == r && strings.EqualFold(g.Model.Name, model) {
				out.GPUType = prior.GPUType
			}
		}
	}
	for _, v := range tmpl.Volumes {
		if v.Name == shmVolume && v.EmptyDir != nil && v.EmptyDir.SizeLimit != nil {
			out.ShmSizeGB = types.Int64Value(v.EmptyDir.SizeLimit.Value() >> 30)
		}
	}
	m.Hardware = out
}

func flattenRetry(rs *wfv1.RetryStrategy, m *trainingJobTemplateModel) {
	// The expression only decides when the policy lets Argo retry both errors ("pod deleted")
	// and failures; under another policy the strategy is not the one written, which shows as drift.
	m.RetryExpression = types.StringValue("")
	if rs != nil && rs.RetryPolicy == wfv1.RetryPolicyAlways {
		m.RetryExpression = types.StringValue(rs.Expression)
	}
	out := &retryModel{Limit: types.Int64Value(10), Backoff: types.StringNull()}
	if rs != nil && rs.Limit != nil {
		out.Limit = types.Int64Value(int64(rs.Limit.IntValue()))
	}
	if rs != nil && rs.Backoff != nil && rs.Backoff.Duration != "" {
		out.Backoff = durationValue(rs.Backoff.Duration, priorBackoff(m))
	}
	m.Retry = out
}

func priorBackoff(m *trainingJobTemplateModel) types.String {
	if m.Retry == nil {
		return types.StringNull()
	}
	return m.Retry.Backoff
}

// durationValue keeps the prior spelling of a duration ("2m" for "120s") when both mean the same;
// without one (import) it spells whole hours in hours and the rest in seconds ("48h", "120s").
func durationValue(live string, prior types.String) types.String {
	l, err1 := time.ParseDuration(live)
	p, err2 := time.ParseDuration(prior.ValueString())
	if err1 == nil && err2 == nil && l == p {
		return prior
	}
	if err1 == nil && l > 0 && l%time.Hour == 0 {
		return types.StringValue(fmt.Sprintf("%dh", l/time.Hour))
	}
	if err1 == nil && l%time.Second == 0 {
		return types.StringValue(fmt.Sprintf("%ds", l/time.Second))
	}
	return types.StringValue(live)
}

func graceValue(patch string, prior types.String) types.String {
	var spec struct {
		TerminationGracePeriodSeconds *int64 `json:"terminationGracePeriodSeconds"`
	}
	if err := json.Unmarshal([]byte(patch), &spec); err != nil || spec.TerminationGracePeriodSeconds == nil {
		return types.StringValue("0s")
	}
	return durationValue(fmt.Sprintf("%ds", *spec.TerminationGracePeriodSeconds), prior)
}

func listValue(live []string, prior types.List) types.List {
	if len(live) == 0 && prior.IsNull() {
		return types.ListNull(types.StringType)
	}
	v, _ := types.ListValueFrom(context.Background(), types.StringType, live)
	if live == nil {
		v, _ = types.ListValueFrom(context.Background(), types.StringType, []string{})
	}
	return v
}
