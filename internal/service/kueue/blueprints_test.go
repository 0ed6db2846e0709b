package kueue_test

import (
	"strings"
	"testing"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/service/kueue"
)

// blueprints are the Kueue files of examples/blueprints (kueue-*.tf) and what each must reproduce,
// written by hand from the YAML file each names. The migration guide
// (docs/guides/migrating-from-a-blueprint.md) includes the same files and lists the differences.
var blueprints = map[string][]acctest.BlueprintObject{
	// GoogleCloudPlatform/ai-on-gke@b9c1472a tutorials-and-examples/workflow-orchestration/dws-examples/dws-queues.yaml.
	"kueue-dws-queues.tf": {
		{Kind: kueue.ResourceFlavorKind, Name: "default-flavor", Want: map[string]any{}},
		dwsCheck, dwsConfig,
		{Kind: kueue.ClusterQueueKind, Name: "dws-cluster-queue", Want: map[string]any{
			"spec": map[string]any{
				"namespaceSelector": map[string]any{},
				"resourceGroups": []any{map[string]any{
					"coveredResources": []any{"cpu", "memory", "nvidia.com/gpu", "ephemeral-storage"},
					"flavors": []any{map[string]any{"name": "default-flavor", "resources": []any{
						map[string]any{"name": "cpu", "nominalQuota": "1000000000"},
						map[string]any{"name": "memory", "nominalQuota": "1000000000Gi"},
						map[string]any{"name": "nvidia.com/gpu", "nominalQuota": "1000000000"},
						map[string]any{"name": "ephemeral-storage", "nominalQuota": "1000000000Ti"},
					}}},
				}},
				// v1beta1's admissionChecks: [dws-prov], as Kueue converts it.
				"admissionChecksStrategy": map[string]any{"admissionChecks": []any{map[string]any{"name": "dws-prov"}}},
			},
			"status": active,
		}},
		{Kind: kueue.LocalQueueKind, Namespace: "default", Name: "dws-local-queue", Want: map[string]any{"spec": map[string]any{
			"clusterQueue": "dws-cluster-queue",
		}}},
	},
	// GoogleCloudPlatform/ai-on-gke@b9c1472a tutorials-and-examples/workflow-orchestration/dws-examples/dws_and_reservation.yaml.
	"kueue-dws-and-reservation.tf": {
		{Kind: kueue.ResourceFlavorKind, Name: "reservation", Want: map[string]any{"spec": map[string]any{
			"nodeLabels": map[string]any{"cloud.google.com/gke-nodepool": "reservation-nodepool"}}}},
		{Kind: kueue.ResourceFlavorKind, Name: "dws", Want: map[string]any{"spec": map[string]any{
			"nodeLabels": map[string]any{"cloud.google.com/gke-nodepool": "dws-nodepool"}}}},
		{Kind: kueue.ClusterQueueKind, Name: "cluster-queue", Want: map[string]any{
			"spec": map[string]any{
				"namespaceSelector": map[string]any{},
				"resourceGroups": []any{map[string]any{
					"coveredResources": []any{"cpu", "memory", "nvidia.com/gpu"},
					"flavors": []any{
						map[string]any{"name": "reservation", "resources": []any{
							map[string]any{"name": "cpu", "nominalQuota": "9"},
							map[string]any{"name": "memory", "nominalQuota": "36Gi"},
							map[string]any{"name": "nvidia.com/gpu", "nominalQuota": "9"},
						}},
						map[string]any{"name": "dws", "resources": []any{
							map[string]any{"name": "cpu", "nominalQuota": "1000000000"},
							map[string]any{"name": "memory", "nominalQuota": "1000000000Gi"},
							map[string]any{"name": "nvidia.com/gpu", "nominalQuota": "1000000000"},
						}},
					},
				}},
				"admissionChecksStrategy": map[string]any{"admissionChecks": []any{
					map[string]any{"name": "dws-prov", "onFlavors": []any{"dws"}}}},
			},
			"status": active,
		}},
		{Kind: kueue.LocalQueueKind, Namespace: "default", Name: "user-queue", Want: map[string]any{"spec": map[string]any{
			"clusterQueue": "cluster-queue",
		}}},
		dwsCheck, dwsConfig,
	},
	// kubernetes-sigs/kueue@v0.19.2 site/static/examples/provisioning/provisioning-setup.yaml.
	"kueue-provisioning-setup.tf": {
		{Kind: kueue.ResourceFlavorKind, Name: "default-flavor", Want: map[string]any{}},
		{Kind: kueue.ClusterQueueKind, Name: "cluster-queue", Want: map[string]any{
			"spec": map[string]any{
				"namespaceSelector": map[string]any{},
				"resourceGroups": []any{map[string]any{
					"coveredResources": []any{"cpu", "memory", "nvidia.com/gpu"},
					"flavors": []any{map[string]any{"name": "default-flavor", "resources": []any{
						map[string]any{"name": "cpu", "nominalQuota": "9"},
						map[string]any{"name": "memory", "nominalQuota": "36Gi"},
						map[string]any{"name": "nvidia.com/gpu", "nominalQuota": "9"},
					}}},
				}},
				"admissionChecksStrategy": map[string]any{"admissionChecks": []any{
					map[string]any{"name": "sample-prov", "onFlavors": []any{"default-flavor"}}}},
			},
			"status": active,
		}},
		{Kind: kueue.LocalQueueKind, Namespace: "default", Name: "user-queue", Want: map[string]any{"spec": map[string]any{
			"clusterQueue": "cluster-queue",
		}}},
		{Kind: kueue.AdmissionCheckKind, Name: "sample-prov", Want: map[string]any{
			"spec": map[string]any{"controllerName": "kueue.x-k8s.io/provisioning-request", "parameters": map[string]any{
				"apiGroup": "kueue.x-k8s.io", "kind": "ProvisioningRequestConfig", "name": "prov-test-config"}},
			"status": active,
		}},
		{Kind: kueue.ProvisioningRequestConfigKind, Name: "prov-test-config", Want: map[string]any{"spec": map[string]any{
			"provisioningClassName": "check-capacity.autoscaling.x-k8s.io",
			"managedResources":      []any{"nvidia.com/gpu"},
			"retryStrategy":         map[string]any{"backoffLimitCount": 2, "backoffBaseSeconds": 0, "backoffMaxSeconds": 1800},
		}}},
	},
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
			"status": active,
		}},
		{Kind: kueue.LocalQueueKind, Namespace: "default", Name: "tas-user-queue", Want: map[string]any{"spec": map[string]any{
			"clusterQueue": "tas-cluster-queue",
		}}},
	},
}

// active is not the blueprints', but what they are for: Kueue's controllers take the queue and the
// admission check (the ProvisioningRequest one serves because the local control plane has the
// ProvisioningRequest API; no autoscaler acts on the requests there).
var active = map[string]any{"conditions": []any{map[string]any{"type": "Active", "status": "True"}}}

// The AdmissionCheck and ProvisioningRequestConfig both ai-on-gke files declare.
var (
	dwsCheck = acctest.BlueprintObject{Kind: kueue.AdmissionCheckKind, Name: "dws-prov", Want: map[string]any{
		"spec": map[string]any{"controllerName": "kueue.x-k8s.io/provisioning-request", "parameters": map[string]any{
			"apiGroup": "kueue.x-k8s.io", "kind": "ProvisioningRequestConfig", "name": "dws-config"}},
		"status": active,
	}}
	dwsConfig = acctest.BlueprintObject{Kind: kueue.ProvisioningRequestConfigKind, Name: "dws-config", Want: map[string]any{"spec": map[string]any{
		"provisioningClassName": "queued-provisioning.gke.io",
		"managedResources":      []any{"nvidia.com/gpu"},
	}}}
)

// Each Kueue blueprint's HCL applies against Kueue's controller and webhooks, and the objects it
// writes carry the blueprint's field values. The topology's levels are checked as a set here; their
// order is TestAccTopology_lifecycle's.
func TestAccBlueprints(t *testing.T) {
	acctest.Blueprints(t, func(file string) bool { return strings.HasPrefix(file, "kueue-") }, blueprints,
		acctest.ProviderBlock("", acctest.CostCentreDefault), func(t *testing.T) {
			requireKueue(t)
			acctest.RequireOwnCluster(t) // fixed names
		})
}
