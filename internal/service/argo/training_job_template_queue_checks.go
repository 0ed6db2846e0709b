package argo

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	corev1 "k8s.io/api/core/v1"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/capacity"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/queue"
)

// CheckBeforeApply checks, before the WorkflowTemplate is written, that Kueue could ever admit one
// of its pods through the named LocalQueue: otherwise every run would stay pending, and the ML
// engineer who submits it, not the platform team, would find out. A cluster without Kueue is a
// warning (the queue label then does nothing).
func (trainingJobTemplate) CheckBeforeApply(ctx context.Context, pd *framework.ProviderData, m *trainingJobTemplateModel) diag.Diagnostics {
	c := pd.Client
	var diags diag.Diagnostics
	if m.Queue.IsNull() {
		return diags
	}
	ns, name := m.Namespace.ValueString(), m.Queue.ValueString()
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	target, err := queue.Read(ctx, c, ns, name)
	var notInstalled *kube.NotInstalledError
	switch {
	case errors.As(err, &notInstalled):
		diags.AddAttributeWarning(path.Root("queue"), "Queue not checked", fmt.Sprintf(
			"Attribute queue: %v. Without Kueue the queue label does nothing and runs start at once.", err))
		return diags
	case kube.IsNotFound(err):
		diags.AddAttributeError(path.Root("queue"), "Queue not found", fmt.Sprintf(
			"Attribute queue: %v, so no run of this template could be admitted. Create the LocalQueue in namespace %s "+
				"first; one of the same configuration is created first when `queue` refers to its name "+
				"(e.g. mlplatform_local_queue.x.name).", err, ns))
		return diags
	case err != nil:
		diags.AddAttributeError(path.Root("queue"), "Queue not readable", fmt.Sprintf("Attribute queue: %v", err))
		return diags
	}
	p, d := resolve(ctx, m)
	if diags.Append(d...); diags.HasError() {
		return diags
	}
	for _, r := range queue.Check(admissionPod(m, p), target.ClusterQueue, target.Flavors) {
		at := attributeFor(m, r, func() bool { return capacityAloneExcludes(m, p, target, r) })
		diags.AddAttributeError(at, "Kueue could never admit this template", fmt.Sprintf(
			"Attribute %s: through LocalQueue %s/%s, %s.", at, ns, name, r.Detail))
	}
	return diags
}

// admissionPod is what Kueue sees of a run's training pod.
func admissionPod(m *trainingJobTemplateModel, p *jobPlan) queue.Pod {
	return queue.Pod{NodeSelector: nodeSelector(m, p), Tolerations: tolerations(p), Requests: podRequests(p)}
}

// attributeFor is the attribute a refusal is about: when no flavor's nodes match, the capacity
// type if that alone excludes them (onlyCapacity), else the GPU model; otherwise the hardware
// figure that asks too much or that nothing covers.
func attributeFor(m *trainingJobTemplateModel, r queue.Refusal, onlyCapacity func() bool) path.Path {
	hw := path.Root("hardware")
	if r.Cause == queue.NoFlavorMatches {
		if c := m.Capacity.ValueString(); c != "" && c != capacityAny && onlyCapacity() {
			return path.Root("capacity")
		}
		return hw.AtName("gpu_type")
	}
	switch r.Resource {
	case corev1.ResourceCPU:
		return hw.AtName("cpu_cores")
	case corev1.ResourceMemory:
		return hw.AtName("memory_gb")
	}
	if r.Cause == queue.NotCovered {
		return hw.AtName("gpu_type")
	}
	return hw.AtName("gpu_count")
}

// capacityAloneExcludes reports whether the pod's capacity type is what keeps every flavor of r's
// group from matching: the same pod with any capacity type would match one.
func capacityAloneExcludes(m *trainingJobTemplateModel, p *jobPlan, target *queue.Target, r queue.Refusal) bool {
	pod := admissionPod(m, p)
	delete(pod.NodeSelector, capacity.LabelCapacityType)
	for _, again := range queue.Check(pod, target.ClusterQueue, target.Flavors) {
		if again.Resource == r.Resource && again.Cause == queue.NoFlavorMatches {
			return false
		}
	}
	return true
}
