package kueue

import (
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	kueuev1beta2 "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/capacity"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
)

// CheckBeforeApply checks the planned quotas against the GPU NodePools the named ResourceFlavors
// select, before the queue is written: a quota for a resource those nodes never expose, or on a
// flavor with the pools' mlplatform.io/gpu label that selects no pool, is an error on its
// nominal_quota, an over-commit a warning. A cluster without Karpenter, or a flavor that selects
// other nodes, is not checked. It also warns about a ProvisioningRequest
// admission check on such a flavor (cluster_queue_provisioning_checks.go).
func (clusterQueue) CheckBeforeApply(ctx context.Context, c *kube.Client, m *clusterQueueModel) diag.Diagnostics {
	var diags diag.Diagnostics
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	in, err := capacityInputs(ctx, c, m)
	if err == nil && in != nil {
		var errs, warns []capacity.Finding
		if errs, warns, err = capacity.Check(m.Name.ValueString(), in.flavors, in.pools, in.quotas); err == nil {
			for _, f := range errs {
				diags.AddAttributeError(in.paths[f.Ref], f.Summary, f.Detail)
			}
			for _, f := range warns {
				diags.AddAttributeWarning(in.paths[f.Ref], f.Summary, f.Detail)
			}
		}
	}
	if err != nil {
		diags.AddWarning("Quotas not checked against the GPU node pools", err.Error())
	}
	found, err := provisioningOnKarpenter(ctx, c, m)
	diags.Append(found...)
	if err != nil {
		diags.AddWarning("Admission checks not checked against the GPU node pools", err.Error())
	}
	return diags
}

type capacityInput struct {
	flavors []capacity.Flavor
	pools   []capacity.Pool
	quotas  []capacity.Quota
	paths   []path.Path // by Quota.Ref
}

// capacityInputs reads what the check needs; nil when there is nothing to check.
func capacityInputs(ctx context.Context, c *kube.Client, m *clusterQueueModel) (*capacityInput, error) {
	in := &capacityInput{}
	names := map[string]bool{}
	for i, g := range m.ResourceGroups {
		for j, f := range g.Flavors {
			names[f.Name.ValueString()] = true
			for k, q := range f.Resources {
				nominal, err := framework.ParseQuantity(q.NominalQuota.ValueString())
				if err != nil || q.Name.IsUnknown() {
					continue // refused by validation, or not known yet
				}
				in.quotas = append(in.quotas, capacity.Quota{Queue: m.Name.ValueString(), Flavor: f.Name.ValueString(),
					Resource: q.Name.ValueString(), Nominal: nominal, Ref: len(in.paths)})
				in.paths = append(in.paths, path.Root("resource_group").AtListIndex(i).AtName("flavor").AtListIndex(j).
					AtName("resource").AtListIndex(k).AtName("nominal_quota"))
			}
		}
	}
	if len(in.quotas) == 0 {
		return nil, nil
	}
	pools, err := gpuNodePools(ctx, c)
	if err != nil || len(pools) == 0 {
		return nil, err
	}
	in.pools = pools
	for name := range names {
		obj, err := c.Get(ctx, resourceFlavorKind, "", name)
		if kube.IsNotFound(err) {
			continue // Kueue keeps the queue inactive; WaitReady says so
		} else if err != nil {
			return nil, err
		}
		labels, _, _ := unstructured.NestedStringMap(obj.Object, "spec", "nodeLabels")
		in.flavors = append(in.flavors, capacity.Flavor{Name: name, NodeLabels: labels})
	}
	return in, otherQueuesQuotas(ctx, c, m.Name.ValueString(), in)
}

// otherQueuesQuotas adds the nominal quotas of the cluster's other ClusterQueues, which share
// the flavors' nodes.
func otherQueuesQuotas(ctx context.Context, c *kube.Client, name string, in *capacityInput) error {
	list, err := c.List(ctx, clusterQueueKind, "", metav1.ListOptions{})
	if err != nil {
		return err
	}
	for _, item := range list.Items {
		var cq kueuev1beta2.ClusterQueue
		if item.GetName() == name || runtime.DefaultUnstructuredConverter.FromUnstructured(item.Object, &cq) != nil {
			continue
		}
		for _, g := range cq.Spec.ResourceGroups {
			for _, f := range g.Flavors {
				for _, q := range f.Resources {
					in.quotas = append(in.quotas, capacity.Quota{Queue: cq.Name, Flavor: string(f.Name),
						Resource: string(q.Name), Nominal: q.NominalQuota, Ref: -1})
				}
			}
		}
	}
	return nil
}
