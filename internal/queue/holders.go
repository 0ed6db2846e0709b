package queue

import (
	"context"

	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
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
	var out []kueue.Workload
	for i := range list.Items {
		var wl kueue.Workload
		if fromUnstructured(&list.Items[i], &wl) != nil {
			continue
		}
		if wl.Status.Admission != nil && !apimeta.IsStatusConditionTrue(wl.Status.Conditions, kueue.WorkloadFinished) {
			out = append(out, wl)
		}
	}
	return out, nil
}
