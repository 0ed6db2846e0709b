package kueue

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	kueuev1beta2 "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/capacity"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
)

// provisioningOnKarpenter warns, before the queue is written, about each admission check rule that
// applies Kueue's ProvisioningRequest check to a flavor whose nodes an mlplatform GPU node pool
// (Karpenter) supplies: Karpenter answers no ProvisioningRequest, so the check never passes there.
// At plan the queue knows only the check's and flavors' names, so this is said at apply, from the
// AdmissionChecks, ResourceFlavors and NodePools in the cluster; what is missing there is skipped.
func provisioningOnKarpenter(ctx context.Context, c *kube.Client, m *clusterQueueModel) (diags diag.Diagnostics, err error) {
	var all []string
	for _, g := range m.ResourceGroups {
		for _, f := range g.Flavors {
			all = append(all, f.Name.ValueString())
		}
	}
	var pools []capacity.Pool
	var poolLabels []map[string]string
	for i, rule := range m.AdmissionChecksStrategy {
		ac, err := c.Get(ctx, admissionCheckKind, "", rule.Name.ValueString())
		if kube.IsNotFound(err) {
			continue // Kueue keeps the queue inactive; WaitReady says so
		} else if err != nil {
			return diags, err
		}
		if ctrl, _, _ := unstructured.NestedString(ac.Object, "spec", "controllerName"); ctrl != kueuev1beta2.ProvisioningRequestControllerName {
			continue
		}
		if pools == nil {
			if pools, err = gpuNodePools(ctx, c); err != nil || len(pools) == 0 {
				return diags, err
			}
			for _, p := range pools {
				poolLabels = append(poolLabels, p.NodeLabels)
			}
		}
		flavors := all
		var on []string
		if !rule.OnFlavors.IsNull() && !rule.OnFlavors.IsUnknown() && len(rule.OnFlavors.Elements()) > 0 {
			diags.Append(rule.OnFlavors.ElementsAs(ctx, &on, false)...)
			flavors = on
		}
		for _, name := range flavors {
			obj, err := c.Get(ctx, resourceFlavorKind, "", name)
			if kube.IsNotFound(err) {
				continue
			} else if err != nil {
				return diags, err
			}
			labels, _, _ := unstructured.NestedStringMap(obj.Object, "spec", "nodeLabels")
			idx := capacity.Select(capacity.Flavor{Name: name, NodeLabels: labels}, poolLabels)
			if len(idx) == 0 {
				continue
			}
			names := make([]string, len(idx))
			for j, k := range idx {
				names[j] = pools[k].Name
			}
			diags.AddAttributeWarning(path.Root("admission_checks_strategy").AtListIndex(i).AtName("name"),
				"ProvisioningRequest check on Karpenter nodes",
				fmt.Sprintf("Attribute admission_checks_strategy[%d].name: AdmissionCheck %s is Kueue's ProvisioningRequest check "+
					"(%s), which asks Cluster Autoscaler for nodes, and it applies to flavor %s, whose nodes the GPU node pool's "+
					"Karpenter NodePools %s supply. Karpenter answers no ProvisioningRequest: the check never passes, and the "+
					"workloads it guards on this flavor are never admitted. Leave the flavor out with on_flavors, or use the "+
					"check only for nodes Cluster Autoscaler provisions.",
					i, rule.Name.ValueString(), kueuev1beta2.ProvisioningRequestControllerName, name, strings.Join(names, ", ")))
		}
	}
	return diags, nil
}

// gpuNodePools are the cluster's NodePools written by GPU node pools; none without Karpenter.
func gpuNodePools(ctx context.Context, c *kube.Client) ([]capacity.Pool, error) {
	if err := c.EnsureServed(ctx, capacity.NodePoolKind); err != nil {
		var ni *kube.NotInstalledError
		if errors.As(err, &ni) {
			return []capacity.Pool{}, nil
		}
		return nil, err
	}
	list, err := c.List(ctx, capacity.NodePoolKind, "", metav1.ListOptions{})
	if err != nil {
		return nil, err
	}
	out := []capacity.Pool{}
	for i := range list.Items {
		if p, ok := capacity.PoolFromNodePool(&list.Items[i]); ok {
			out = append(out, p)
		}
	}
	return out, nil
}
