package team

import (
	"context"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/queue"
)

// DeleteHolders names the Workloads that hold quota in the team's namespace: deleting the
// namespace would delete them, stopping running training. With force_destroy nothing holds it.
func (team) DeleteHolders(ctx context.Context, c *kube.Client, m *teamModel) (framework.DeleteHolders, error) {
	h := framework.DeleteHolders{
		Reason: "Destroying a team deletes its namespace " + m.Namespace.ValueString() + ", and with it the workloads that " +
			"hold quota in Kueue there (admitted and not finished)",
		Remedy: "Wait for them to finish or delete them, then destroy again; or set `force_destroy = true` on the team, " +
			"apply, and destroy: they are then deleted with the namespace.",
	}
	if m.ForceDestroy.ValueBool() {
		return h, nil
	}
	holding, err := queue.HoldingQuota(ctx, c, m.Namespace.ValueString())
	if err != nil {
		return h, err
	}
	for _, wl := range holding {
		holder := "Workload " + wl.Namespace + "/" + wl.Name + " (ClusterQueue " + string(wl.Status.Admission.ClusterQueue) + ")"
		h.Add(holder, wl.DeletionTimestamp)
	}
	return h, nil
}
