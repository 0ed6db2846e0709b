package testcluster

import (
	"encoding/json"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	karpv1alpha1 "sigs.k8s.io/karpenter/pkg/apis/v1alpha1"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/pricing"
)

// The KWOK instance types: every priced EC2 GPU type of the catalog with its capacity, offered
// spot and on-demand with Karpenter's GPU labels; an overlay's MIG devices only on the instance
// types that it and one of its NodePools select.
func TestKarpenterInstanceTypes(t *testing.T) {
	pool := func(name, instanceType string) karpv1.NodePool {
		return karpv1.NodePool{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: karpv1.NodePoolSpec{Template: karpv1.NodeClaimTemplate{Spec: karpv1.NodeClaimTemplateSpec{
			Requirements: []karpv1.NodeSelectorRequirementWithMinValues{{Key: corev1.LabelInstanceTypeStable, Operator: corev1.NodeSelectorOpIn, Values: []string{instanceType}}},
		}}}}
	}
	overlay := karpv1alpha1.NodeOverlay{ObjectMeta: metav1.ObjectMeta{Name: "mig"}, Spec: karpv1alpha1.NodeOverlaySpec{
		Requirements: []karpv1alpha1.NodeSelectorRequirement{
			{Key: "karpenter.sh/nodepool", Operator: corev1.NodeSelectorOpIn, Values: []string{"a100-mig"}},
			{Key: "karpenter.k8s.aws/instance-gpu-count", Operator: corev1.NodeSelectorOpIn, Values: []string{"8"}},
		},
		Capacity: corev1.ResourceList{"nvidia.com/mig-1g.10gb": resource.MustParse("56")},
	}}
	data, err := KarpenterInstanceTypes(pricing.DefaultRegion, []karpv1.NodePool{pool("a100-mig", "p4de.24xlarge"), pool("h100", "p5.48xlarge")}, []karpv1alpha1.NodeOverlay{overlay})
	if err != nil {
		t.Fatal(err)
	}
	var types []kwokInstanceType
	if err := json.Unmarshal(data, &types); err != nil {
		t.Fatal(err)
	}
	byName := map[string]kwokInstanceType{}
	for _, it := range types {
		byName[it.Name] = it
	}
	p4de, ok := byName["p4de.24xlarge"]
	if !ok {
		t.Fatalf("no p4de.24xlarge among %d instance types", len(types))
	}
	for r, want := range map[corev1.ResourceName]string{"cpu": "96", "nvidia.com/gpu": "8", "nvidia.com/mig-1g.10gb": "56", "vpc.amazonaws.com/efa": "4"} {
		if q := p4de.Resources[r]; q.String() != want {
			t.Errorf("p4de.24xlarge %s = %s; want %s", r, q.String(), want)
		}
	}
	// p5.48xlarge has 8 GPUs too, but the overlay's NodePool does not allow it.
	if q, ok := byName["p5.48xlarge"].Resources["nvidia.com/mig-1g.10gb"]; ok {
		t.Errorf("p5.48xlarge got the a100-mig pool's MIG devices: %s", q.String())
	}
	onDemand, err := pricing.OnDemand(pricing.DefaultRegion, "p4de.24xlarge")
	if err != nil {
		t.Fatal(err)
	}
	offered := map[string]float64{}
	for _, o := range p4de.Offerings {
		labels := map[string]string{}
		for _, r := range o.Requirements {
			labels[r.Key] = r.Values[0]
		}
		if labels["karpenter.k8s.aws/instance-gpu-name"] != "a100" || labels["karpenter.k8s.aws/instance-gpu-count"] != "8" {
			t.Errorf("offering %v lacks Karpenter's GPU labels", labels)
		}
		offered[labels[karpv1.CapacityTypeLabelKey]] = o.Price
	}
	if offered["on-demand"] != onDemand || offered["spot"] != onDemand*KWOKSpotPriceRatio {
		t.Errorf("p4de.24xlarge prices %v; want on-demand %v and spot %v", offered, onDemand, onDemand*KWOKSpotPriceRatio)
	}
	if it, ok := byName["g5g.xlarge"]; ok && it.Architecture != "arm64" {
		t.Errorf("g5g.xlarge is %s; want arm64 (Graviton)", it.Architecture)
	}
}
