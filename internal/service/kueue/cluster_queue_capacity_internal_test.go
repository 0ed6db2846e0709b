package kueue

import (
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/gpu"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/service/karpenter"
)

// poolFromNodePool reads back what mlplatform_gpu_node_pool writes.
func TestPoolFromNodePool(t *testing.T) {
	np := &unstructured.Unstructured{Object: map[string]any{
		"metadata": map[string]any{"name": "a100-spot", "annotations": map[string]any{
			karpenter.AnnotationGPUModel: "a100-80gb", karpenter.AnnotationMIGStrategy: "mixed", karpenter.AnnotationMIGLayout: "1g.10gb=7"}},
		"spec": map[string]any{
			"limits": map[string]any{"nvidia.com/gpu": "32"},
			"template": map[string]any{
				"metadata": map[string]any{"labels": map[string]any{"mlplatform.io/gpu": "a100-sxm4-80gb", "team": "research"}},
				"spec": map[string]any{"requirements": []any{
					map[string]any{"key": "karpenter.sh/capacity-type", "operator": "In", "values": []any{"spot"}},
					map[string]any{"key": "node.kubernetes.io/instance-type", "operator": "In", "values": []any{"p4de.24xlarge", "p4d.24xlarge"}},
				}},
			},
		},
	}}
	p, ok := poolFromNodePool(np)
	if !ok {
		t.Fatal("not read")
	}
	if p.MaxGPUs != 32 || p.CapacityType != "spot" || p.Node.MIG != "1g.10gb=7" || p.Node.Strategy != gpu.StrategyMixed ||
		p.NodeLabels["karpenter.sh/nodepool"] != "a100-spot" || p.NodeLabels["team"] != "research" ||
		p.NodeLabels["node.kubernetes.io/instance-type"] != "" {
		t.Fatalf("pool = %+v", p)
	}
	np.SetAnnotations(map[string]string{})
	if _, ok := poolFromNodePool(np); ok {
		t.Fatal("a NodePool without the model annotation is not a GPU node pool")
	}
}
