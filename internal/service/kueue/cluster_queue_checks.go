package kueue

import (
	"context"
	"maps"
	"slices"
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

// The planned quotas are checked against the GPU NodePools the named ResourceFlavors select: a
// quota for a resource those nodes never expose, on a flavor with the pools' mlplatform.io/gpu
// label that selects no pool, or above what the pools can supply, is an error on its
// nominal_quota; quotas of several queues that add up to more a warning. At plan the check uses
// what the configuration planned so far (framework/planned_capacity.go, cluster_queue_plan.go),
// with no API call; before
// writing it adds the cluster's objects the configuration does not plan. A cluster without
// Karpenter, or a flavor that selects other nodes, is not checked.

// CheckBeforeApply checks the quotas before the queue is written, with the cluster's pools,
// flavors and queues where the configuration did not plan them. It also warns about a
// ProvisioningRequest admission check on such a flavor (cluster_queue_provisioning_checks.go).
func (clusterQueue) CheckBeforeApply(ctx context.Context, pd *framework.ProviderData, m *clusterQueueModel) diag.Diagnostics {
	var diags diag.Diagnostics
	c := pd.Client
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	in := plannedCapacityInput(m)
	in.addPlanned(pd.PlanQuotas(m.Name.ValueString(), in.quotas))
	if err := in.addCluster(ctx, c, m.Name.ValueString()); err != nil {
		diags.AddWarning("Quotas not checked against the GPU node pools", err.Error())
	} else {
		diags.Append(in.check(m.Name.ValueString())...)
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
	queues  map[string]bool
}

// plannedCapacityInput is the queue's own quotas, as planned.
func plannedCapacityInput(m *clusterQueueModel) *capacityInput {
	in := &capacityInput{queues: map[string]bool{m.Name.ValueString(): true}}
	for i, g := range m.ResourceGroups {
		for j, f := range g.Flavors {
			for k, q := range f.Resources {
				nominal, err := framework.ParseQuantity(q.NominalQuota.ValueString())
				if err != nil || q.Name.IsUnknown() || f.Name.IsUnknown() {
					continue // refused by validation, or not known yet
				}
				in.quotas = append(in.quotas, capacity.Quota{Queue: m.Name.ValueString(), Flavor: f.Name.ValueString(),
					Resource: q.Name.ValueString(), Nominal: nominal, Ref: len(in.paths)})
				in.paths = append(in.paths, path.Root("resource_group").AtListIndex(i).AtName("flavor").AtListIndex(j).
					AtName("resource").AtListIndex(k).AtName("nominal_quota"))
			}
		}
	}
	return in
}

// addPlanned adds the flavors the queue names, the pools and the other queues' quotas the
// configuration planned.
func (in *capacityInput) addPlanned(p framework.PlannedCapacity) {
	for _, q := range in.quotas {
		if f, ok := p.Flavors[q.Flavor]; ok && !slices.ContainsFunc(in.flavors, func(g capacity.Flavor) bool { return g.Name == f.Name }) {
			in.flavors = append(in.flavors, f)
		}
	}
	in.pools = append(in.pools, p.Pools...)
	for _, name := range slices.Sorted(maps.Keys(p.Quotas)) {
		in.queues[name] = true
		in.quotas = append(in.quotas, p.Quotas[name]...)
	}
}

func (in *capacityInput) check(queue string) diag.Diagnostics {
	var diags diag.Diagnostics
	if len(in.quotas) == 0 || len(in.pools) == 0 {
		return nil
	}
	errs, warns, err := capacity.Check(queue, in.flavors, in.pools, in.quotas)
	if err != nil {
		return nil // a pool the provider refused at plan
	}
	for _, f := range errs {
		diags.AddAttributeError(in.paths[f.Ref], f.Summary, f.Detail)
	}
	for _, f := range warns {
		diags.AddAttributeWarning(in.paths[f.Ref], f.Summary, f.Detail)
	}
	return diags
}

// addCluster adds the cluster's GPU NodePools, the flavors the queue names and the other
// ClusterQueues' quotas, each where the configuration did not plan it.
func (in *capacityInput) addCluster(ctx context.Context, c *kube.Client, queue string) error {
	if len(in.paths) == 0 {
		return nil
	}
	pools, err := gpuNodePools(ctx, c)
	if err != nil {
		return err
	}
	for _, p := range pools {
		if !slices.ContainsFunc(in.pools, func(q capacity.Pool) bool { return q.Name == p.Name }) {
			in.pools = append(in.pools, p)
		}
	}
	for _, q := range in.quotas {
		if q.Queue != queue || slices.ContainsFunc(in.flavors, func(f capacity.Flavor) bool { return f.Name == q.Flavor }) {
			continue
		}
		obj, err := c.Get(ctx, resourceFlavorKind, "", q.Flavor)
		if kube.IsNotFound(err) {
			continue // Kueue keeps the queue inactive; WaitReady says so
		} else if err != nil {
			return err
		}
		labels, _, _ := unstructured.NestedStringMap(obj.Object, "spec", "nodeLabels")
		in.flavors = append(in.flavors, capacity.Flavor{Name: q.Flavor, NodeLabels: labels})
	}
	return otherQueuesQuotas(ctx, c, in)
}

// otherQueuesQuotas adds the nominal quotas of the cluster's other ClusterQueues, which share
// the flavors' nodes, except those the configuration planned.
func otherQueuesQuotas(ctx context.Context, c *kube.Client, in *capacityInput) error {
	list, err := c.List(ctx, clusterQueueKind, "", metav1.ListOptions{})
	if err != nil {
		return err
	}
	for _, item := range list.Items {
		var cq kueuev1beta2.ClusterQueue
		if in.queues[item.GetName()] || runtime.DefaultUnstructuredConverter.FromUnstructured(item.Object, &cq) != nil {
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
