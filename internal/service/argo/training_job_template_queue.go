package argo

import (
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/path"
	corev1 "k8s.io/api/core/v1"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/capacity"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/queue"
)

// What the template's runs meet in the queue it names, judged against the queue as planned
// (ModifyPlan, when the configuration plans the LocalQueue, its ClusterQueue and their flavors) and
// as the cluster has it (CheckBeforeApply): a pod Kueue could never admit is an error on the
// attribute to change; runs that can only land on spot capacity without a checkpoint, a warning.

// queueFindings judges the template's pod against target, the queue namespace/name leads to.
func queueFindings(m *trainingJobTemplateModel, p *jobPlan, namespace, name string, target *queue.Target) []framework.QueueFinding {
	var out []framework.QueueFinding
	pod := admissionPod(m, p)
	for _, r := range queue.Check(pod, target.ClusterQueue, target.Flavors) {
		at := attributeFor(m, r, func() bool { return capacityAloneExcludes(m, p, target, r) })
		out = append(out, framework.QueueFinding{Attribute: at, Summary: "Kueue could never admit this template",
			Detail: fmt.Sprintf("Attribute %s: through LocalQueue %s/%s, %s.", at, namespace, name, r.Detail)})
	}
	if len(out) > 0 || m.Checkpoint != nil || m.Capacity.ValueString() == capacity.CapacitySpot {
		return out // capacity = "spot" warns whatever the queue (checkSpotCheckpoint)
	}
	if spot := spotOnly(pod, target); len(spot) > 0 {
		out = append(out, framework.QueueFinding{Attribute: path.Root("queue"), Warning: true, Summary: spotWithoutCheckpoint,
			Detail: fmt.Sprintf("Attribute checkpoint: not set, and LocalQueue %s/%s admits this template's pods only on spot "+
				"capacity (ClusterQueue %s's flavors that can take them: %s, labelled %s=%s): each spot reclaim restarts a run "+
				"from zero. Set checkpoint = { uri = \"s3://<bucket>/<prefix>\" } so that a retried run resumes from its last "+
				"checkpoint, or give the ClusterQueue an on-demand or reserved flavor the template can use.",
				namespace, name, target.ClusterQueue.Name, strings.Join(spot, ", "), capacity.LabelCapacityType, capacity.CapacitySpot)})
	}
	return out
}

const spotWithoutCheckpoint = "Spot capacity without a checkpoint"

// spotOnly names the flavors that can take the pod, when in a resource group of the queue every
// one of them selects spot nodes; else nil.
func spotOnly(pod queue.Pod, target *queue.Target) []string {
	for _, group := range queue.Candidates(pod, target.ClusterQueue, target.Flavors) {
		var names []string
		for _, f := range group {
			if f.Spec.NodeLabels[capacity.LabelCapacityType] != capacity.CapacitySpot {
				names = nil
				break
			}
			names = append(names, f.Name)
		}
		if len(names) > 0 {
			return names
		}
	}
	return nil
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
