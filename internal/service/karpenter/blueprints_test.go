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

// blueprints are the HCL files in examples/blueprints and what each must reproduce. The migration
// guide (docs/guides/migrating-from-a-blueprint.md) includes the same files and lists the
// differences.
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
	// awslabs/ai-on-eks@41a979ee infra/base/terraform/addons.tf, karpenter_resources_helm_config
	// "g6-gpu-karpenter", as the karpenter-resources chart of aws-ia/terraform-aws-eks-data-addons
	// @v1.36.0 renders it (templates/node-class.yaml and node-pool.yaml, defaults from values.yaml).
	"ai-on-eks-g6-gpu-karpenter.tf": {
		object(karpenter.EC2NodeClassKind, "g6-gpu-karpenter", map[string]any{"spec": map[string]any{
			"amiFamily":                  "Bottlerocket",
			"amiSelectorTerms":           []any{map[string]any{"alias": "bottlerocket@latest"}},
			"subnetSelectorTerms":        []any{map[string]any{"id": "subnet-0123456789abcdef0"}},
			"securityGroupSelectorTerms": []any{map[string]any{"tags": map[string]any{"Name": "demo-node"}}},
			"role":                       "KarpenterNodeRole-demo",
			"tags":                       map[string]any{"Name": "karpenter-g6-gpu-karpenter"},
			"metadataOptions": map[string]any{
				"httpEndpoint": "enabled", "httpProtocolIPv6": "disabled", "httpPutResponseHopLimit": 2, "httpTokens": "required",
			},
			"blockDeviceMappings": []any{map[string]any{"deviceName": "/dev/xvda", "ebs": map[string]any{
				"volumeSize": "50Gi", "volumeType": "gp3", "encrypted": true,
			}}},
			"detailedMonitoring":  true,
			"instanceStorePolicy": "RAID0",
		}}),
		// The blueprint's one NodePool for spot and on-demand, as one NodePool each.
		g6GPUKarpenter("spot"),
		g6GPUKarpenter("on-demand"),
	},
	// aws/aws-eks-best-practices@dc0243ad latest/bpg/aiml/aiml_compute.adoc, the NodePools
	// gpu-inference and gpu-inference-spot.
	"eks-best-practices-gpu-inference.tf": {
		object(capacity.NodePoolKind, "gpu-inference-on-demand", map[string]any{"spec": map[string]any{
			"template": map[string]any{"spec": map[string]any{
				"nodeClassRef": map[string]any{"group": "karpenter.k8s.aws", "kind": "EC2NodeClass", "name": "default"},
				"requirements": []any{
					map[string]any{"key": "karpenter.sh/capacity-type", "operator": "In", "values": []any{"on-demand"}},
				},
				"taints":      []any{map[string]any{"key": "nvidia.com/gpu", "effect": "NoSchedule"}},
				"expireAfter": "720h", // under disruption in the guide
			}},
			"limits":     map[string]any{"cpu": "1000", "memory": "4000Gi", "nvidia.com/gpu": "10"},
			"disruption": map[string]any{"consolidationPolicy": "WhenEmpty", "consolidateAfter": "60m"},
		}}),
		object(capacity.NodePoolKind, "gpu-inference-spot-spot", map[string]any{"spec": map[string]any{
			"template": map[string]any{
				"metadata": map[string]any{"labels": map[string]any{"role": "gpu-spot-worker"}},
				"spec": map[string]any{
					"nodeClassRef": map[string]any{"group": "karpenter.k8s.aws", "kind": "EC2NodeClass", "name": "gpu-inference-ec2"},
					"requirements": []any{
						map[string]any{"key": "karpenter.sh/capacity-type", "operator": "In", "values": []any{"spot"}},
					},
					"taints":      []any{map[string]any{"key": "nvidia.com/gpu", "effect": "NoSchedule"}},
					"expireAfter": "720h",
				},
			},
			"limits":     map[string]any{"cpu": "100", "memory": "100Gi"},
			"disruption": map[string]any{"consolidationPolicy": "WhenEmptyOrUnderutilized", "consolidateAfter": "5m"},
		}}),
	},
}

// g6GPUKarpenter is ai-on-eks's NodePool g6-gpu-karpenter for one of its capacity types: its
// instance-family g6 and instance-size requirements as the instance types they admit.
func g6GPUKarpenter(capacityType string) acctest.BlueprintObject {
	return object(capacity.NodePoolKind, "g6-gpu-karpenter-"+capacityType, map[string]any{"spec": map[string]any{
		"template": map[string]any{
			"metadata": map[string]any{"labels": map[string]any{
				"NodePool": "g6-gpu-karpenter", "NodeGroupType": "g6-gpu-karpenter",
				"instanceType": "g6-gpu-karpenter", "type": "karpenter", "gpuType": "l4",
			}},
			"spec": map[string]any{
				"nodeClassRef": map[string]any{"group": "karpenter.k8s.aws", "kind": "EC2NodeClass", "name": "g6-gpu-karpenter"},
				"taints":       []any{map[string]any{"key": "nvidia.com/gpu", "value": "Exists", "effect": "NoSchedule"}},
				"requirements": []any{
					map[string]any{"key": "node.kubernetes.io/instance-type", "operator": "In", "values": []any{
						"g6.2xlarge", "g6.4xlarge", "g6.8xlarge", "g6.12xlarge", "g6.16xlarge", "g6.24xlarge", "g6.48xlarge",
					}},
					map[string]any{"key": "karpenter.sh/capacity-type", "operator": "In", "values": []any{capacityType}},
				},
				"expireAfter":            "720h",
				"terminationGracePeriod": "48h",
			},
		},
		"disruption": map[string]any{
			"consolidationPolicy": "WhenEmpty", "consolidateAfter": "300s",
			"budgets": []any{map[string]any{"nodes": "10%"}},
		},
		"limits": map[string]any{"cpu": "1000", "memory": "1000Gi"},
		"weight": 100,
	}})
}

// Each blueprint's HCL applies, and the objects it writes carry the blueprint's field values. The
// Kueue blueprints (kueue-*.tf) are the kueue package's TestAccBlueprints.
func TestAccBlueprints(t *testing.T) {
	acctest.Blueprints(t, func(file string) bool { return !strings.HasPrefix(file, "kueue-") }, blueprints,
		acctest.ProviderBlock(""), acctest.RequireOwnCluster) // fixed names
}
