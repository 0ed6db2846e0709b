package kueue

import (
	"context"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	kueuev1beta2 "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
)

// DeleteHolders names the ClusterQueues that name the flavor: Kueue keeps its resource-in-use
// finalizer on a ResourceFlavor until no ClusterQueue does.
func (resourceFlavor) DeleteHolders(ctx context.Context, c *kube.Client, m *resourceFlavorModel) (framework.DeleteHolders, error) {
	name := m.Name.ValueString()
	h := framework.DeleteHolders{
		Reason: fmt.Sprintf("Kueue keeps the finalizer %s on a ResourceFlavor while a ClusterQueue names it in its resource groups",
			kueuev1beta2.ResourceInUseFinalizerName),
		Remedy: "Remove the flavor from those queues (or destroy them) first. When the flavor is being renamed while " +
			"queues name it, set `lifecycle { create_before_destroy = true }` on the flavor and reference it from the " +
			"queues (`mlplatform_resource_flavor.x.name`): Terraform then creates the new flavor, moves the queues to it, " +
			"and deletes the old one last. A replacement that keeps the name cannot create first: rename the flavor in " +
			"the same change.",
	}
	list, err := c.List(ctx, clusterQueueKind, "", metav1.ListOptions{})
	if err != nil {
		return h, err
	}
	for _, item := range list.Items {
		var cq kueuev1beta2.ClusterQueue
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(item.Object, &cq); err != nil {
			return h, fmt.Errorf("decoding ClusterQueue %s: %w", item.GetName(), err)
		}
		if namesFlavor(&cq, name) {
			h.Add("ClusterQueue "+cq.Name, cq.DeletionTimestamp)
		}
	}
	return h, nil
}

func namesFlavor(cq *kueuev1beta2.ClusterQueue, flavor string) bool {
	for _, g := range cq.Spec.ResourceGroups {
		for _, f := range g.Flavors {
			if string(f.Name) == flavor {
				return true
			}
		}
	}
	return false
}
