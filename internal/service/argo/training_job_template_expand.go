package argo

import (
	"context"
	"fmt"
	"maps"
	"strings"

	wfv1 "github.com/argoproj/argo-workflows/v3/pkg/apis/workflow/v1alpha1"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	corev1 "k8s.io/api/core/v1"
	apiresource "k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/capacity"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
)

func (trainingJobTemplate) Expand(ctx context.Context, m *trainingJobTemplateModel, meta framework.ObjectMeta) (any, diag.Diagnostics) {
	p, diags := resolve(ctx, m)
	if diags.HasError() {
		return nil, diags
	}
	podMeta := wfv1.Metadata{Labels: podLabels(ctx, m, meta, &diags)}
	tmpl := wfv1.Template{
		Name:          entrypoint,
		Metadata:      podMeta,
		Container:     container(ctx, m, meta.Namespace, p, &diags),
		NodeSelector:  nodeSelector(m, p),
		Tolerations:   tolerations(p),
		RetryStrategy: retryStrategy(m),
	}
	if shm := m.Hardware.ShmSizeGB; !shm.IsNull() {
		size := apiresource.MustParse(fmt.Sprintf("%dGi", shm.ValueInt64()))
		tmpl.Volumes = []corev1.Volume{{Name: shmVolume, VolumeSource: corev1.VolumeSource{
			EmptyDir: &corev1.EmptyDirVolumeSource{Medium: corev1.StorageMediumMemory, SizeLimit: &size}}}}
	}
	if m.Checkpoint != nil {
		tmpl.PodSpecPatch = fmt.Sprintf(`{"terminationGracePeriodSeconds":%d}`, graceSeconds(m.Checkpoint.TerminationGracePeriod))
	}
	var params []wfv1.Parameter
	for _, pr := range p.Params {
		params = append(params, wfv1.Parameter{Name: pr.Name, Value: wfv1.AnyStringPtr(pr.Value)})
	}
	wt := &wfv1.WorkflowTemplate{
		ObjectMeta: metav1.ObjectMeta{Name: meta.Name, Namespace: meta.Namespace, Labels: meta.Labels, Annotations: meta.Annotations},
		Spec: wfv1.WorkflowSpec{
			Entrypoint:         entrypoint,
			Arguments:          wfv1.Arguments{Parameters: params},
			PodMetadata:        &podMeta,
			Templates:          []wfv1.Template{tmpl},
			ServiceAccountName: m.ServiceAccount.ValueString(),
		},
	}
	expandRuntime(m, &wt.Spec, &wt.Spec.Templates[0])
	if diags.HasError() {
		return nil, diags
	}
	body, err := framework.ApplyObject(wt, workflowTemplateGVK())
	if err != nil {
		diags.AddError("Building the WorkflowTemplate", err.Error())
	}
	return body, diags
}

// podLabels go on the pods of every run: the template's labels, billing, and Kueue's queue and
// priority labels, which Kueue's pod integration reads from the pod.
func podLabels(ctx context.Context, m *trainingJobTemplateModel, meta framework.ObjectMeta, diags *diag.Diagnostics) map[string]string {
	out := maps.Clone(meta.Labels)
	if out == nil {
		out = map[string]string{}
	}
	maps.Copy(out, framework.StringMap(ctx, m.Billing, diags))
	if !m.Queue.IsNull() {
		out[labelQueue] = m.Queue.ValueString()
	}
	if !m.PriorityClass.IsNull() {
		out[labelPriority] = m.PriorityClass.ValueString()
	}
	return out
}

func container(ctx context.Context, m *trainingJobTemplateModel, namespace string, p *jobPlan, diags *diag.Diagnostics) *corev1.Container {
	c := &corev1.Container{Name: mainContainer, Image: m.Image.ValueString(), Args: stringList(ctx, m.Args, diags)}
	if m.TrainingScript.IsNull() {
		c.Command = stringList(ctx, m.Command, diags)
	} else {
		c.Command = []string{"python", m.TrainingScript.ValueString()}
	}
	for _, pr := range p.Params {
		c.Args = append(c.Args, fmt.Sprintf("--%s={{workflow.parameters.%s}}", pr.Name, pr.Name))
	}
	env := framework.StringMap(ctx, m.Env, diags)
	for _, k := range sortedKeys(env) {
		c.Env = append(c.Env, corev1.EnvVar{Name: k, Value: env[k]})
	}
	if m.Checkpoint != nil {
		c.Env = append(c.Env, corev1.EnvVar{Name: m.Checkpoint.EnvName.ValueString(),
			Value: checkpointPath(m.Checkpoint.URI.ValueString(), namespace)})
	}
	list := podRequests(p)
	c.Resources = corev1.ResourceRequirements{Requests: list, Limits: list.DeepCopy()}
	if !m.Hardware.ShmSizeGB.IsNull() {
		c.VolumeMounts = []corev1.VolumeMount{{Name: shmVolume, MountPath: "/dev/shm"}}
	}
	return c
}

// podRequests are the trainer's requests (and limits): the plan's resources as quantities.
func podRequests(p *jobPlan) corev1.ResourceList {
	list := corev1.ResourceList{}
	for name, q := range p.Resources {
		list[corev1.ResourceName(name)] = apiresource.MustParse(q)
	}
	return list
}

// checkpointPath is the same for every retry of a run and different for each run.
func checkpointPath(uri, namespace string) string {
	return strings.TrimRight(uri, "/") + "/" + namespace + checkpointSuffix
}

const checkpointSuffix = "/{{workflow.name}}"

func nodeSelector(m *trainingJobTemplateModel, p *jobPlan) map[string]string {
	out := map[string]string{}
	if p.GPU != nil {
		out[capacity.LabelGPU] = capacity.GPULabel(p.GPU.Model)
	}
	if c := m.Capacity.ValueString(); c != capacityAny && c != "" {
		out[capacity.LabelCapacityType] = c
	}
	return out
}

// tolerations let a GPU pod onto the GPU pools' nodes.
func tolerations(p *jobPlan) []corev1.Toleration {
	if p.GPU == nil {
		return nil
	}
	return []corev1.Toleration{{Key: capacity.TaintGPU, Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule}}
}

func retryStrategy(m *trainingJobTemplateModel) *wfv1.RetryStrategy {
	limit := intstr.FromInt(10)
	rs := &wfv1.RetryStrategy{Limit: &limit, RetryPolicy: wfv1.RetryPolicyAlways, Expression: retryExpression}
	if m.Retry != nil {
		limit = intstr.FromInt(int(m.Retry.Limit.ValueInt64()))
		if !m.Retry.Backoff.IsNull() {
			two := intstr.FromInt32(2)
			rs.Backoff = &wfv1.Backoff{Duration: m.Retry.Backoff.ValueString(), Factor: &two}
		}
	}
	return rs
}
