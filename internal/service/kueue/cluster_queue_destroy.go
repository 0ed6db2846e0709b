package kueue

import (
	"context"
	"fmt"

	kueuev1beta2 "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/queue"
)

// DeleteHolders names the Workloads that hold quota in the queue: Kueue keeps its resource-in-use
// finalizer on a ClusterQueue until none does.
func (clusterQueue) DeleteHolders(ctx context.Context, c *kube.Client, m *clusterQueueModel) (framework.DeleteHolders, error) {
	name := m.Name.ValueString()
	h := framework.DeleteHolders{
		Reason: fmt.Sprintf("Kueue keeps the finalizer %s on a ClusterQueue while workloads hold quota in it",
			kueuev1beta2.ResourceInUseFinalizerName),
		Remedy: "Wait for them to finish, or delete them (or their jobs), then destroy again; `stop_policy = \"HoldAndDrain\"` " +
			"stops new admissions and evicts the running ones.",
	}
	holding, err := queue.HoldingQuota(ctx, c, "")
	if err != nil {
		return h, err
	}
	for _, wl := range holding {
		if string(wl.Status.Admission.ClusterQueue) == name {
			h.Add("Workload "+wl.Namespace+"/"+wl.Name, wl.DeletionTimestamp)
		}
	}
	return h, nil
}
