package capacity

import (
	"strconv"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	coreapis "sigs.k8s.io/karpenter/pkg/apis"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/gpu"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
)

// The contract between mlplatform_gpu_node_pool, which writes one NodePool per capacity type, and
// the resources that read pools back or select their nodes: the ClusterQueue capacity check, the
// training templates and the billing rules. Written here once, so that no service reads another.

// KarpenterRequires is what a cluster needs to serve the Karpenter kinds the provider writes.
const KarpenterRequires = "Karpenter v1 with the AWS provider (karpenter.sh/v1, karpenter.k8s.aws/v1)"

// NodePoolKind is Karpenter's NodePool (karpenter.sh/v1).
var NodePoolKind = kube.Kind{GVR: schema.GroupVersionResource{Group: coreapis.Group, Version: "v1", Resource: "nodepools"},
	Kind: "NodePool", Requires: KarpenterRequires}

// Capacity types, as the node label karpenter.sh/capacity-type spells them. A pool writes the
// NodePool <pool>-<capacity type> for each it runs.
const (
	CapacitySpot     = "spot"
	CapacityOnDemand = "on-demand"
	CapacityReserved = "reserved"
)

// CapacityTypes are all of them, in the order pools write them.
var CapacityTypes = []string{CapacityOnDemand, CapacitySpot, CapacityReserved}

// Node labels of a pool's nodes. Karpenter writes the first two on every node it launches
// (sigs.k8s.io/karpenter pkg/apis/v1 labels.go); the pool writes LabelGPU through the template.
const (
	LabelNodePool     = coreapis.Group + "/nodepool"      // <pool>-<capacity type>
	LabelCapacityType = coreapis.Group + "/capacity-type" // one of CapacityTypes
	LabelGPU          = "mlplatform.io/gpu"               // the model's canonical name, lower case
	LabelInstanceType = "node.kubernetes.io/instance-type"
)

// TaintGPU is the key of the taint a pool's nodes carry by default (nvidia.com/gpu=true:NoSchedule),
// which training pods tolerate.
const TaintGPU = "nvidia.com/gpu"

// Annotations on each NodePool that record what the pool was declared with.
const (
	AnnotationGPUModel    = "mlplatform.io/gpu-model"
	AnnotationMIGStrategy = "mlplatform.io/mig-strategy"
	AnnotationMIGLayout   = "mlplatform.io/mig-layout"
	AnnotationReplicas    = "mlplatform.io/time-slicing-replicas"
	AnnotationEFA         = "mlplatform.io/efa"
)

// Declared is what a pool records on its NodePools: enough, with the NodePool's labels and
// limits, to know what its nodes supply.
type Declared struct {
	Model    string       // the model as configured: any alias gpu.Lookup knows
	Strategy gpu.Strategy // "" when MIG is off
	// Layout is the canonical MIG layout when the pool gave MIG profiles, or its parts in
	// gpu.FormatParts's form when it split the GPUs (nil otherwise: a named config, which the
	// node label nvidia.com/mig.config carries). "" is all-enabled.
	Layout   *string
	Replicas int  // time-slicing replicas; 0 when off
	EFA      bool // the nodes carry EFA interfaces
}

// Annotate writes d into ann.
func (d Declared) Annotate(ann map[string]string) {
	ann[AnnotationGPUModel] = d.Model
	if d.Strategy != "" {
		ann[AnnotationMIGStrategy] = string(d.Strategy)
	}
	if d.Layout != nil {
		ann[AnnotationMIGLayout] = *d.Layout
	}
	if d.Replicas > 0 {
		ann[AnnotationReplicas] = strconv.Itoa(d.Replicas)
	}
	if d.EFA {
		ann[AnnotationEFA] = "true"
	}
}

// ReadDeclared reads what Annotate wrote; ok is false when ann lacks the model (not a GPU pool's).
func ReadDeclared(ann map[string]string) (d Declared, ok bool) {
	d.Model, ok = ann[AnnotationGPUModel]
	d.Strategy = gpu.Strategy(ann[AnnotationMIGStrategy])
	if l, has := ann[AnnotationMIGLayout]; has {
		d.Layout = &l
	}
	if n, err := strconv.Atoi(ann[AnnotationReplicas]); err == nil && n > 0 {
		d.Replicas = n
	}
	d.EFA = ann[AnnotationEFA] == "true"
	return d, ok
}

// WithoutDeclared returns the annotations other than Declared's.
func WithoutDeclared(ann map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range ann {
		switch k {
		case AnnotationGPUModel, AnnotationMIGStrategy, AnnotationMIGLayout, AnnotationReplicas, AnnotationEFA:
		default:
			out[k] = v
		}
	}
	return out
}

// NodeSpec is what one node of a pool declared as d is, for gpu.Expose; migConfig is the node
// label nvidia.com/mig.config the pool writes (used when d has no layout).
func (d Declared) NodeSpec(m *gpu.Model, migConfig string) gpu.NodeSpec {
	spec := gpu.NodeSpec{Model: m, Strategy: d.Strategy}
	if d.Strategy != "" {
		spec.MIG = migConfig
		if d.Layout != nil {
			spec.MIG = *d.Layout
			if spec.MIG == "" {
				spec.MIG = gpu.ConfigAllEnabled
			}
		}
	}
	if d.Replicas > 0 {
		spec.TimeSlicing = &gpu.TimeSlicing{Replicas: d.Replicas}
	}
	return spec
}

// PoolFromNodePool reads a NodePool written by a GPU node pool; ok is false for other NodePools.
// Its node labels are the template's and the requirements with one value.
func PoolFromNodePool(np *unstructured.Unstructured) (Pool, bool) {
	d, ok := ReadDeclared(np.GetAnnotations())
	m, err := gpu.Lookup(d.Model)
	if !ok || err != nil {
		return Pool{}, false
	}
	labels, _, _ := unstructured.NestedStringMap(np.Object, "spec", "template", "metadata", "labels")
	if labels == nil {
		labels = map[string]string{}
	}
	reqs := requirements(np)
	for _, r := range reqs {
		if r.Operator == corev1.NodeSelectorOpIn && len(r.Values) == 1 {
			labels[r.Key] = r.Values[0]
		}
	}
	labels[LabelNodePool] = np.GetName()
	p := Pool{Name: np.GetName(), CapacityType: labels[LabelCapacityType], NodeLabels: labels,
		Node:    d.NodeSpec(m, labels[gpu.LabelMIGConfig]),
		MaxGPUs: limit(np, gpu.ResourceGPU), MaxNodes: limit(np, "nodes")}
	p.Node.InstanceType = oneGPUCount(ReadSelection(reqs).Allowed(m))
	if n, ok, _ := unstructured.NestedInt64(np.Object, "spec", "replicas"); ok {
		p.MaxNodes, p.Static = n, true
	}
	return p, true
}

// oneGPUCount returns the first of the instance types when they all carry one GPU count, so that
// a node's resources are known; else "".
func oneGPUCount(its []gpu.InstanceType) string {
	if len(its) == 0 {
		return ""
	}
	for _, it := range its[1:] {
		if it.GPUs != its[0].GPUs {
			return ""
		}
	}
	return its[0].Name
}

// requirements are the NodePool's template requirements, typed; only they are decoded, so that
// another field Karpenter adds cannot hide them.
func requirements(np *unstructured.Unstructured) []karpv1.NodeSelectorRequirementWithMinValues {
	raw, _, _ := unstructured.NestedSlice(np.Object, "spec", "template", "spec", "requirements")
	var spec struct {
		Requirements []karpv1.NodeSelectorRequirementWithMinValues `json:"requirements"`
	}
	if runtime.DefaultUnstructuredConverter.FromUnstructured(map[string]any{"requirements": raw}, &spec) != nil {
		return nil
	}
	return spec.Requirements
}

func limit(np *unstructured.Unstructured, name string) int64 {
	s, _, _ := unstructured.NestedString(np.Object, "spec", "limits", name)
	q, err := resource.ParseQuantity(s)
	if err != nil {
		return 0
	}
	return q.Value()
}
