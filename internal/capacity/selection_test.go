package capacity_test

import (
	"reflect"
	"slices"
	"testing"

	awsv1 "github.com/aws/karpenter-provider-aws/pkg/apis/v1"
	corev1 "k8s.io/api/core/v1"
	apiresource "k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/capacity"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/gpu"
)

// The label keys a pool selects by are Karpenter's.
func TestSelection_labelsAreKarpenters(t *testing.T) {
	for ours, theirs := range map[string]string{
		gpu.LabelKarpenterGPUName:            awsv1.LabelInstanceGPUName,
		gpu.LabelKarpenterGPUMemory:          awsv1.LabelInstanceGPUMemory,
		gpu.LabelKarpenterGPUCount:           awsv1.LabelInstanceGPUCount,
		gpu.LabelKarpenterInstanceFamily:     awsv1.LabelInstanceFamily,
		gpu.LabelKarpenterInstanceGeneration: awsv1.LabelInstanceGeneration,
		capacity.LabelInstanceType:           corev1.LabelInstanceTypeStable,
	} {
		if ours != theirs {
			t.Errorf("%s is %s upstream", ours, theirs)
		}
	}
}

func TestSelection_roundTrip(t *testing.T) {
	h100, _ := gpu.Lookup("h100")
	for name, tc := range map[string]struct {
		s    capacity.Selection
		want []karpv1.NodeSelectorRequirementWithMinValues
	}{
		"by name": {capacity.Selection{InstanceTypes: []string{"p5.48xlarge", "p5.4xlarge"}, MinValues: 2},
			[]karpv1.NodeSelectorRequirementWithMinValues{{Key: capacity.LabelInstanceType, Operator: corev1.NodeSelectorOpIn,
				Values: []string{"p5.48xlarge", "p5.4xlarge"}, MinValues: ptr(2)}}},
		"every size of the model": {capacity.Selection{Requirements: &gpu.InstanceRequirements{}},
			[]karpv1.NodeSelectorRequirementWithMinValues{
				{Key: awsv1.LabelInstanceGPUName, Operator: corev1.NodeSelectorOpIn, Values: []string{"h100"}},
				{Key: awsv1.LabelInstanceGPUMemory, Operator: corev1.NodeSelectorOpIn, Values: []string{"81920"}},
			}},
		"every requirement": {capacity.Selection{Requirements: &gpu.InstanceRequirements{Families: []string{"p5"}, MinGeneration: 5,
			GPUCounts: []int{8, 1}}, MinValues: 1},
			[]karpv1.NodeSelectorRequirementWithMinValues{
				{Key: awsv1.LabelInstanceGPUName, Operator: corev1.NodeSelectorOpIn, Values: []string{"h100"}},
				{Key: awsv1.LabelInstanceGPUMemory, Operator: corev1.NodeSelectorOpIn, Values: []string{"81920"}},
				{Key: awsv1.LabelInstanceFamily, Operator: corev1.NodeSelectorOpIn, Values: []string{"p5"}},
				{Key: awsv1.LabelInstanceGeneration, Operator: corev1.NodeSelectorOpGt, Values: []string{"4"}},
				{Key: awsv1.LabelInstanceGPUCount, Operator: corev1.NodeSelectorOpIn, Values: []string{"1", "8"}},
				{Key: capacity.LabelInstanceType, Operator: corev1.NodeSelectorOpExists, MinValues: ptr(1)},
			}},
	} {
		got := tc.s.NodePoolRequirements(h100)
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: requirements %+v, want %+v", name, got, tc.want)
		}
		read := capacity.ReadSelection(got)
		if tc.s.Requirements != nil {
			tc.s.Requirements.GPUCounts = slices.Sorted(slices.Values(tc.s.Requirements.GPUCounts))
		} else {
			tc.s.InstanceTypes = []string{"p5.48xlarge", "p5.4xlarge"} // written sorted
		}
		if !reflect.DeepEqual(read, tc.s) {
			t.Errorf("%s: read back %+v, want %+v", name, read, tc.s)
		}
	}
	// Karpenter's newer Gte reads as the same least generation.
	if got := capacity.ReadSelection([]karpv1.NodeSelectorRequirementWithMinValues{
		{Key: awsv1.LabelInstanceGPUName, Operator: corev1.NodeSelectorOpIn, Values: []string{"h100"}},
		{Key: awsv1.LabelInstanceGeneration, Operator: karpv1.NodeSelectorOpGte, Values: []string{"5"}},
	}); got.Requirements == nil || got.Requirements.MinGeneration != 5 {
		t.Errorf("Gte 5 read as %+v", got.Requirements)
	}
}

func ptr(n int) *int { return &n }

// A NodePool that selects by requirements reads back as the catalog's instance types they allow:
// of one GPU count, a node's resources are known, so its nodes bound what it supplies.
func TestPoolFromNodePoolByRequirements(t *testing.T) {
	h100, _ := gpu.Lookup("h100")
	nodePool := func(r gpu.InstanceRequirements, spec karpv1.NodePoolSpec) *unstructured.Unstructured {
		spec.Template.Spec.Requirements = append(capacity.Selection{Requirements: &r}.NodePoolRequirements(h100),
			karpv1.NodeSelectorRequirementWithMinValues{Key: capacity.LabelCapacityType, Operator: corev1.NodeSelectorOpIn,
				Values: []string{capacity.CapacityOnDemand}})
		ann := map[string]string{}
		capacity.Declared{Model: "h100"}.Annotate(ann)
		obj, err := runtime.DefaultUnstructuredConverter.ToUnstructured(&karpv1.NodePool{
			ObjectMeta: metav1.ObjectMeta{Name: "h100-on-demand", Annotations: ann}, Spec: spec})
		if err != nil {
			t.Fatal(err)
		}
		return &unstructured.Unstructured{Object: obj}
	}
	two, three := int64(2), apiresource.MustParse("3")
	for name, tc := range map[string]struct {
		r        gpu.InstanceRequirements
		spec     karpv1.NodePoolSpec
		instance string
		want     int64
	}{
		"static, 8 GPUs":        {gpu.InstanceRequirements{GPUCounts: []int{8}}, karpv1.NodePoolSpec{Replicas: &two}, "p5.48xlarge", 16},
		"limits.nodes, 1 GPU":   {gpu.InstanceRequirements{GPUCounts: []int{1}}, karpv1.NodePoolSpec{Limits: karpv1.Limits{"nodes": three}}, "p5.4xlarge", 3},
		"limits.nodes, 1 and 8": {gpu.InstanceRequirements{}, karpv1.NodePoolSpec{Limits: karpv1.Limits{"nodes": three}}, "", -1},
		"limits.nvidia.com/gpu": {gpu.InstanceRequirements{Families: []string{"p5"}}, karpv1.NodePoolSpec{Limits: karpv1.Limits{gpu.ResourceGPU: three}}, "", 3},
		// Unknown nodes: no bound can be read, so none is claimed.
		"no catalog type matches": {gpu.InstanceRequirements{Families: []string{"p9"}}, karpv1.NodePoolSpec{Replicas: &two}, "", -1},
	} {
		p, ok := capacity.PoolFromNodePool(nodePool(tc.r, tc.spec))
		if !ok {
			t.Fatalf("%s: not read", name)
		}
		if p.Node.InstanceType != tc.instance {
			t.Errorf("%s: instance type %q, want %q", name, p.Node.InstanceType, tc.instance)
		}
		if p.NodeLabels[awsv1.LabelInstanceGPUName] != "h100" || p.NodeLabels[capacity.LabelCapacityType] != capacity.CapacityOnDemand {
			t.Errorf("%s: node labels %v", name, p.NodeLabels)
		}
		s, err := p.Supply()
		if err != nil || s.Most[gpu.ResourceGPU] != tc.want {
			t.Errorf("%s: most %v (%v), want %d", name, s.Most, err, tc.want)
		}
	}
}
