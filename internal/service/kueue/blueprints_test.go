package kueue_test

import (
	"strings"
	"testing"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/service/kueue"
)

// blueprints are the Kueue files of examples/blueprints (kueue-*.tf) and what each must reproduce,
// written by hand from the YAML file each names. The README's "From blueprint to HCL" shows the
// same files and lists the differences.
var blueprints = map[string][]acctest.BlueprintObject{
	// kubernetes-sigs/kueue@v0.17.0 site/static/examples/tas/sample-gpu-queues.yaml.
	"kueue-tas-gpu-queues.tf": {
		{Kind: kueue.TopologyKind, Name: "default", Want: map[string]any{"spec": map[string]any{
			"levels": []any{
				map[string]any{"nodeLabel": "cloud.provider.com/topology-block"},
				map[string]any{"nodeLabel": "cloud.provider.com/topology-rack"},
				map[string]any{"nodeLabel": "kubernetes.io/hostname"},
			},
		}}},
		{Kind: kueue.ResourceFlavorKind, Name: "tas-flavor", Want: map[string]any{"spec": map[string]any{
			"nodeLabels":   map[string]any{"cloud.provider.com/node-group": "tas-group"},
			"topologyName": "default",
			"tolerations":  []any{map[string]any{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}},
		}}},
		{Kind: kueue.ClusterQueueKind, Name: "tas-cluster-queue", Want: map[string]any{
			"spec": map[string]any{
				"namespaceSelector": map[string]any{},
				"resourceGroups": []any{map[string]any{
					"coveredResources": []any{"cpu", "memory", "nvidia.com/gpu"},
					"flavors": []any{map[string]any{"name": "tas-flavor", "resources": []any{
						map[string]any{"name": "cpu", "nominalQuota": 100},
						map[string]any{"name": "memory", "nominalQuota": "100Gi"},
						map[string]any{"name": "nvidia.com/gpu", "nominalQuota": 16},
					}}},
				}},
			},
			// Not the blueprint's, but what it is for: Kueue's controller takes the queue.
			"status": map[string]any{"conditions": []any{map[string]any{"type": "Active", "status": "True"}}},
		}},
		{Kind: kueue.LocalQueueKind, Namespace: "default", Name: "tas-user-queue", Want: map[string]any{"spec": map[string]any{
			"clusterQueue": "tas-cluster-queue",
		}}},
	},
}

// Each Kueue blueprint's HCL applies against Kueue's controller and webhooks, and the objects it
// writes carry the blueprint's field values. The topology's levels are checked as a set here; their
// order is TestAccTopology_lifecycle's.
func TestAccBlueprints(t *testing.T) {
	acctest.Blueprints(t, func(file string) bool { return strings.HasPrefix(file, "kueue-") }, blueprints,
		providerBlock(""), func(t *testing.T) {
			requireKueue(t)
			acctest.RequireOwnCluster(t) // fixed names
		})
}
