package testcluster

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	karpv1alpha1 "sigs.k8s.io/karpenter/pkg/apis/v1alpha1"
	"sigs.k8s.io/karpenter/pkg/scheduling"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/capacity"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/gpu"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/pricing"
)

// KWOKSpotPriceRatio is the price of a KWOK spot offering as a share of the on-demand price (the
// seed platform's spot discount of 0.6): Karpenter launches the cheapest offering a NodePool
// allows, so only the order matters.
const KWOKSpotPriceRatio = 0.4

// kwokZoneSuffixes are the zones of the region every KWOK instance type is offered in.
var kwokZoneSuffixes = []string{"a", "b", "c"}

// armFamilies are the catalog's instance families with Arm (Graviton, Grace) CPUs.
var armFamilies = []string{"g5g", "p6e-gb200"}

// kwokInstanceType is one entry of the KWOK cloud provider's instance types file
// (sigs.k8s.io/karpenter kwok/cloudprovider InstanceTypeOptions, whose JSON it reads).
type kwokInstanceType struct {
	Name             string              `json:"name"`
	Offerings        []kwokOffering      `json:"offerings"`
	Architecture     string              `json:"architecture"`
	OperatingSystems []corev1.OSName     `json:"operatingSystems"`
	Resources        corev1.ResourceList `json:"resources"`
}

type kwokOffering struct {
	Price        float64                          `json:"Price"`
	Available    bool                             `json:"Available"`
	Requirements []corev1.NodeSelectorRequirement `json:"Requirements"`
}

// KarpenterInstanceTypes is the KWOK cloud provider's instance types file for the EC2 GPU
// instance types of the provider's catalog priced in region: each with its vCPUs, memory, GPUs
// and EFA interfaces, spot and on-demand in three zones, and as offering requirements (which
// Karpenter matches against NodePools and writes onto the node as labels) Karpenter's AWS labels
// for the GPUs, family and generation. KWOK gives a node its instance type's capacity and ignores
// NodeOverlays, so the MIG devices that overlays give the nodes of a NodePool are added to the
// instance types those NodePools allow: the most of each resource over the overlays, as one node
// cannot tell two pools' layouts apart.
func KarpenterInstanceTypes(region string, pools []karpv1.NodePool, overlays []karpv1alpha1.NodeOverlay) ([]byte, error) {
	var out []kwokInstanceType
	seen := map[string]bool{}
	for _, m := range gpu.Models() {
		for _, t := range m.InstanceTypes {
			if seen[t.Name] || m.KarpenterGPUName == "" {
				continue
			}
			seen[t.Name] = true
			price, err := pricing.OnDemand(region, t.Name)
			if err != nil {
				continue // unpriced (e.g. p6e-gb200): Karpenter needs a price to choose
			}
			labels := map[string]string{
				corev1.LabelInstanceTypeStable:                t.Name,
				gpu.LabelKarpenterGPUName:                     m.KarpenterGPUName,
				gpu.LabelKarpenterGPUCount:                    strconv.Itoa(t.GPUs),
				gpu.LabelKarpenterGPUMemory:                   strconv.FormatInt(t.GPUMemoryMiB, 10),
				"karpenter.k8s.aws/instance-gpu-manufacturer": "nvidia",
				gpu.LabelKarpenterInstanceFamily:              t.Family(),
				gpu.LabelKarpenterInstanceGeneration:          strconv.Itoa(t.Generation()),
			}
			it := kwokInstanceType{
				Name: t.Name, Architecture: "amd64", OperatingSystems: []corev1.OSName{corev1.Linux},
				Resources: corev1.ResourceList{
					corev1.ResourceCPU:    *resource.NewQuantity(int64(t.VCPUs), resource.DecimalSI),
					corev1.ResourceMemory: resource.MustParse(fmt.Sprintf("%dMi", t.MemoryMiB)),
					gpu.ResourceGPU:       *resource.NewQuantity(int64(t.GPUs), resource.DecimalSI),
				},
			}
			if slices.Contains(armFamilies, t.Family()) {
				it.Architecture = "arm64"
			}
			if t.EFA > 0 {
				it.Resources["vpc.amazonaws.com/efa"] = *resource.NewQuantity(int64(t.EFA), resource.DecimalSI)
			}
			addOverlayCapacity(it.Resources, labels, pools, overlays)
			for _, ct := range []string{karpv1.CapacityTypeSpot, karpv1.CapacityTypeOnDemand} {
				p := price
				if ct == karpv1.CapacityTypeSpot {
					p *= KWOKSpotPriceRatio
				}
				for _, z := range kwokZoneSuffixes {
					it.Offerings = append(it.Offerings, kwokOffering{Price: p, Available: true, Requirements: offeringRequirements(labels, ct, region+z)})
				}
			}
			out = append(out, it)
		}
	}
	return json.MarshalIndent(out, "", "  ")
}

// offeringRequirements are one offering's requirements: its capacity type and zone, and the
// instance type's labels other than its name (which KWOK adds itself).
func offeringRequirements(labels map[string]string, capacityType, zone string) []corev1.NodeSelectorRequirement {
	out := []corev1.NodeSelectorRequirement{
		{Key: karpv1.CapacityTypeLabelKey, Operator: corev1.NodeSelectorOpIn, Values: []string{capacityType}},
		{Key: corev1.LabelTopologyZone, Operator: corev1.NodeSelectorOpIn, Values: []string{zone}},
	}
	for _, k := range slices.Sorted(maps.Keys(labels)) {
		if k != corev1.LabelInstanceTypeStable {
			out = append(out, corev1.NodeSelectorRequirement{Key: k, Operator: corev1.NodeSelectorOpIn, Values: []string{labels[k]}})
		}
	}
	return out
}

// addOverlayCapacity adds to res the capacity of every overlay that selects the instance type
// (labels) on a NodePool that allows it, keeping the most of each resource.
func addOverlayCapacity(res corev1.ResourceList, labels map[string]string, pools []karpv1.NodePool, overlays []karpv1alpha1.NodeOverlay) {
	it := scheduling.NewLabelRequirements(labels)
	for _, o := range overlays {
		var own []corev1.NodeSelectorRequirement
		var poolNames []string
		for _, r := range o.Spec.Requirements {
			if r.Key == capacity.LabelNodePool && r.Operator == corev1.NodeSelectorOpIn {
				poolNames = r.Values
				continue
			}
			own = append(own, corev1.NodeSelectorRequirement{Key: r.Key, Operator: r.Operator, Values: r.Values})
		}
		if scheduling.NewNodeSelectorRequirements(own...).Intersects(it) != nil || !anyPoolAllows(pools, poolNames, it) {
			continue
		}
		for r, q := range o.Spec.Capacity {
			if old, ok := res[r]; !ok || q.Cmp(old) > 0 {
				res[r] = q
			}
		}
	}
}

// anyPoolAllows reports whether one of the named NodePools (all, when names is nil) allows the
// instance type.
func anyPoolAllows(pools []karpv1.NodePool, names []string, it scheduling.Requirements) bool {
	for _, np := range pools {
		if names != nil && !slices.Contains(names, np.Name) {
			continue
		}
		if scheduling.NewNodeSelectorRequirementsWithMinValues(np.Spec.Template.Spec.Requirements...).Intersects(it) == nil {
			return true
		}
	}
	return false
}
