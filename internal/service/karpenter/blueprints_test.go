package karpenter_test

import (
	"strings"
	"testing"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/capacity"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/service/karpenter"
)

// object is a cluster-scoped object of a blueprint and the blueprint's values for it.
func object(k kube.Kind, name string, want map[string]any) acctest.BlueprintObject {
	return acctest.BlueprintObject{Kind: k, Name: name, Want: want}
}

// blueprints are the HCL files in examples/blueprints and what each must reproduce. The README's
// "From blueprint to HCL" shows the same files and lists the differences.
var blueprints = map[string][]acctest.BlueprintObject{
	// aws-samples/karpenter-blueprints@529b88cf blueprints/static-nodepool/static-nodeclass.yaml
	// and static-nodepool.yaml.
	"karpenter-blueprints-static-nodepool.tf": {
		object(karpenter.EC2NodeClassKind, "gpu-static", map[string]any{"spec": map[string]any{
			"amiSelectorTerms": []any{map[string]any{"alias": "bottlerocket@latest"}},
			"role":             "KarpenterNodeRole-demo",
			"networkInterfaces": []any{
				map[string]any{"networkCardIndex": 0, "deviceIndex": 0, "interfaceType": "interface"},
				map[string]any{"networkCardIndex": 0, "deviceIndex": 1, "interfaceType": "efa-only"},
			},
			"securityGroupSelectorTerms": []any{map[string]any{"tags": map[string]any{"karpenter.sh/discovery": "demo"}}},
			"subnetSelectorTerms":        []any{map[string]any{"tags": map[string]any{"karpenter.sh/discovery": "demo"}}},
			"instanceStorePolicy":        "RAID0",
		}}),
		// The blueprint's NodePool gpu-static, as the pool's on-demand NodePool.
		object(capacity.NodePoolKind, "gpu-static-on-demand", map[string]any{"spec": map[string]any{
			"replicas": 1,
			"template": map[string]any{
				"metadata": map[string]any{"labels": map[string]any{
					"capacity-type": "gpu-static", "nvidia.com/gpu.present": "true", "vpc.amazonaws.com/efa.present": "true",
				}},
				"spec": map[string]any{
					"nodeClassRef": map[string]any{"group": "karpenter.k8s.aws", "name": "gpu-static", "kind": "EC2NodeClass"},
					"requirements": []any{
						map[string]any{"key": "node.kubernetes.io/instance-type", "operator": "In", "values": []any{"g6e.8xlarge"}},
					},
					"expireAfter": "Never",
					"taints":      []any{map[string]any{"key": "nvidia.com/gpu", "effect": "NoSchedule"}},
				},
			},
		}}),
	},
	// aws-samples/karpenter-blueprints@529b88cf blueprints/reserved-capacity/odcr.yaml, the EC2NodeClass.
	"karpenter-blueprints-reserved-capacity.tf": {
		object(karpenter.EC2NodeClassKind, "odcr-nodeclass", map[string]any{"spec": map[string]any{
			"amiSelectorTerms":           []any{map[string]any{"alias": "al2023@latest"}},
			"role":                       "KarpenterNodeRole-demo",
			"securityGroupSelectorTerms": []any{map[string]any{"tags": map[string]any{"karpenter.sh/discovery": "demo"}}},
			"subnetSelectorTerms":        []any{map[string]any{"tags": map[string]any{"karpenter.sh/discovery": "demo"}}},
			"capacityReservationSelectorTerms": []any{
				map[string]any{"tags": map[string]any{"intent": "apps", "project": "demo"}},
			},
		}}),
	},
}

// Each blueprint's HCL applies, and the objects it writes carry the blueprint's field values. The
// Kueue blueprints (kueue-*.tf) are the kueue package's TestAccBlueprints.
func TestAccBlueprints(t *testing.T) {
	acctest.Blueprints(t, func(file string) bool { return !strings.HasPrefix(file, "kueue-") }, blueprints,
		providerBlock(""), acctest.RequireOwnCluster) // fixed names
}
