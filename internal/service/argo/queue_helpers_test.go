package argo_test

import (
	"context"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/queue"
)

// roomyQuota admits every template of these tests: whole GPUs and 1g.10gb slices, with room.
var roomyQuota = map[string]string{"nvidia.com/gpu": "8", "nvidia.com/mig-1g.10gb": "56", "cpu": "96", "memory": "1Ti"}

// teamNamespace is the PreCheck of tests whose templates submit to LocalQueue "training" in
// namespace ns: the namespace, and a queue that admits them.
func teamNamespace(t *testing.T, ns string) {
	t.Helper()
	acctest.PreCheck(t)
	acctest.Namespace(t, ns)
	ensureQueue(t, ns, "training", roomyQuota, "spot", "on-demand")
}

// ensureQueue creates, outside Terraform, LocalQueue namespace/name and a ClusterQueue of its own
// with one flavor per capacity type (selecting karpenter.sh/capacity-type, tainted like the GPU
// pools), each with quota; all are deleted when the test ends.
func ensureQueue(t *testing.T, namespace, name string, quota map[string]string, capacityTypes ...string) {
	t.Helper()
	ensureQueueOf(t, namespace, name, quota, nil, capacityTypes...)
}

// ensureQueueOf is ensureQueue with flavors that also carry nodeLabels.
func ensureQueueOf(t *testing.T, namespace, name string, quota, nodeLabels map[string]string, capacityTypes ...string) {
	t.Helper()
	cq := namespace + "-" + name
	var covered []any
	for r := range quota {
		covered = append(covered, r)
	}
	var flavors []any
	for _, c := range capacityTypes {
		flavor := cq + "-" + c
		labels := map[string]any{"karpenter.sh/capacity-type": c}
		for k, v := range nodeLabels {
			labels[k] = v
		}
		create(t, queue.ResourceFlavorKind, "", map[string]any{"name": flavor}, map[string]any{
			"nodeLabels": labels,
			"nodeTaints": []any{map[string]any{"key": "nvidia.com/gpu", "value": "true", "effect": "NoSchedule"}},
		})
		var resources []any
		for _, r := range covered {
			resources = append(resources, map[string]any{"name": r, "nominalQuota": quota[r.(string)]})
		}
		flavors = append(flavors, map[string]any{"name": flavor, "resources": resources})
	}
	create(t, queue.ClusterQueueKind, "", map[string]any{"name": cq}, map[string]any{
		"namespaceSelector": map[string]any{},
		"resourceGroups":    []any{map[string]any{"coveredResources": covered, "flavors": flavors}},
	})
	create(t, queue.LocalQueueKind, namespace, map[string]any{"name": name, "namespace": namespace},
		map[string]any{"clusterQueue": cq})
}

// create creates an object outside Terraform and deletes it when the test ends.
func create(t *testing.T, k kube.Kind, namespace string, meta, spec map[string]any) {
	t.Helper()
	obj := map[string]any{"apiVersion": k.GVR.GroupVersion().String(), "kind": k.Kind, "metadata": meta, "spec": spec}
	client := acctest.Dynamic(t).Resource(k.GVR).Namespace(namespace)
	name := meta["name"].(string)
	if _, err := client.Create(context.Background(), &unstructured.Unstructured{Object: obj}, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create %s %s: %v", k.Kind, name, err)
	}
	t.Cleanup(func() {
		if err := client.Delete(context.Background(), name, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
			t.Errorf("delete %s %s: %v", k.Kind, name, err)
		}
	})
}
