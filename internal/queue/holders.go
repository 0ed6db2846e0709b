package queue

import (
	"context"

	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
)

// HoldingQuota lists the Workloads in namespace ("" for all) that hold quota: admitted and not
// finished. A finished Workload keeps its admission in its status but no longer holds quota (Kueue
// drops it from its cache).
func HoldingQuota(ctx context.Context, c *kube.Client, namespace string) ([]kueue.Workload, error) {
	list, err := c.List(ctx, WorkloadKind, namespace, metav1.ListOptions{})
	if err != nil {
		return nil, err
	}
	return holding(list.Items)
}

// holding are the Workloads of items that hold quota. One that cannot be read is an error, not
// skipped: callers refuse deletes on what this finds, and an unread Workload may hold quota.
func holding(items []unstructured.Unstructured) ([]kueue.Workload, error) {
	var out []kueue.Workload
	for i := range items {
		var wl kueue.Workload
		if err := fromUnstructured(&items[i], &wl); err != nil {
			return nil, err
		}
		if wl.Status.Admission != nil && !apimeta.IsStatusConditionTrue(wl.Status.Conditions, kueue.WorkloadFinished) {
			out = append(out, wl)
		}
	}
	return out, nil
}
