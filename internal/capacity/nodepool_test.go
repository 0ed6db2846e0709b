package capacity_test

import (
	"reflect"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/capacity"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/gpu"
)

func TestDeclaredRoundTrip(t *testing.T) {
	empty, layout := "", "1g.10gb=3,3g.40gb=1"
	for _, d := range []capacity.Declared{
		{Model: "a100-80gb"},
		{Model: "A100", Strategy: gpu.StrategyMixed, Layout: &layout},
		{Model: "h100", Strategy: gpu.StrategyMixed, Layout: &empty},
		{Model: "h100", Strategy: gpu.StrategySingle},
		{Model: "l4", Replicas: 4},
		{Model: "h100", EFA: true},
	} {
		ann := map[string]string{"other": "kept"}
		d.Annotate(ann)
		got, ok := capacity.ReadDeclared(ann)
		if !ok || !reflect.DeepEqual(got, d) {
			t.Errorf("ReadDeclared(%v) = %+v, %v; want %+v", ann, got, ok, d)
		}
		if rest := capacity.WithoutDeclared(ann); !reflect.DeepEqual(rest, map[string]string{"other": "kept"}) {
			t.Errorf("WithoutDeclared(%v) = %v", ann, rest)
		}
	}
	if _, ok := capacity.ReadDeclared(map[string]string{"other": "x"}); ok {
		t.Error("annotations without the model read as a GPU pool's")
	}
}

// A NodePool as a GPU node pool writes it, and the pool the capacity check reads from it.
func TestPoolFromNodePool(t *testing.T) {
	layout := "1g.10gb=7"
	ann := map[string]string{}
	capacity.Declared{Model: "a100-80gb", Strategy: gpu.StrategyMixed, Layout: &layout}.Annotate(ann)
	np := &unstructured.Unstructured{Object: map[string]any{
		"metadata": map[string]any{"name": "a100-spot"},
		"spec": map[string]any{
			"limits": map[string]any{"nvidia.com/gpu": "32", "cpu": "1000"},
			"template": map[string]any{
				"metadata": map[string]any{"labels": map[string]any{capacity.LabelGPU: "a100-sxm4-80gb", "team": "research"}},
				"spec": map[string]any{"requirements": []any{
					map[string]any{"key": capacity.LabelCapacityType, "operator": "In", "values": []any{"spot"}},
					map[string]any{"key": capacity.LabelInstanceType, "operator": "In", "values": []any{"p4de.24xlarge", "p4d.24xlarge"}},
				}},
			},
		},
	}}
	np.SetAnnotations(ann)
	p, ok := capacity.PoolFromNodePool(np)
	if !ok {
		t.Fatal("not read")
	}
	if p.MaxGPUs != 32 || p.MaxNodes != 0 || p.CapacityType != "spot" || p.Node.MIG != "1g.10gb=7" || p.Node.Strategy != gpu.StrategyMixed ||
		p.NodeLabels[capacity.LabelNodePool] != "a100-spot" || p.NodeLabels["team"] != "research" ||
		p.NodeLabels[capacity.LabelInstanceType] != "" {
		t.Fatalf("pool = %+v", p)
	}
	s, err := p.Supply()
	if err != nil || s.Most["nvidia.com/mig-1g.10gb"] != 224 || s.PerGPU["nvidia.com/mig-1g.10gb"] != 7 {
		t.Fatalf("supply = %+v, %v", s, err)
	}
	np.SetAnnotations(map[string]string{})
	if _, ok := capacity.PoolFromNodePool(np); ok {
		t.Fatal("a NodePool without the model annotation is not a GPU node pool")
	}
}

// A static NodePool (replicas) supplies exactly its nodes, even none; so does a dynamic one bounded
// by limits.nodes, once its instance types carry one GPU count.
func TestPoolFromNodePoolByNodes(t *testing.T) {
	ann := map[string]string{}
	capacity.Declared{Model: "a100-80gb"}.Annotate(ann)
	nodePool := func(spec map[string]any) *unstructured.Unstructured {
		spec["template"] = map[string]any{"spec": map[string]any{"requirements": []any{
			map[string]any{"key": capacity.LabelInstanceType, "operator": "In", "values": []any{"p4de.24xlarge", "p4d.24xlarge"}},
		}}}
		np := &unstructured.Unstructured{Object: map[string]any{"metadata": map[string]any{"name": "p"}, "spec": spec}}
		np.SetAnnotations(ann)
		return np
	}
	for name, tc := range map[string]struct {
		spec map[string]any
		want int64
	}{
		"static":          {map[string]any{"replicas": int64(2)}, 16},
		"static, no node": {map[string]any{"replicas": int64(0)}, 0},
		"limits.nodes":    {map[string]any{"limits": map[string]any{"nodes": "3"}}, 24},
		"unbounded":       {map[string]any{}, -1},
	} {
		p, ok := capacity.PoolFromNodePool(nodePool(tc.spec))
		s, err := p.Supply()
		if !ok || err != nil || s.Most["nvidia.com/gpu"] != tc.want {
			t.Errorf("%s: most = %v (%v, %v), want %d", name, s.Most, ok, err, tc.want)
		}
	}
}
