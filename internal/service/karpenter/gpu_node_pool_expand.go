package karpenter

import (
	"context"
	"fmt"
	"maps"
	"strconv"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	corev1 "k8s.io/api/core/v1"
	apiresource "k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	karpv1alpha1 "sigs.k8s.io/karpenter/pkg/apis/v1alpha1"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/capacity"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/gpu"
)

func (gpuNodePool) Refs(_, name string) []framework.ObjectRef {
	refs := []framework.ObjectRef{
		{Kind: capacity.NodePoolKind, Name: name + "-" + capacity.CapacityOnDemand},
		{Kind: capacity.NodePoolKind, Name: name + "-" + capacity.CapacitySpot},
		copyRef(name), // the node class copy that carries the billing tags
		{Kind: capacity.NodePoolKind, Name: name + "-" + capacity.CapacityReserved},
		{Kind: nodeOverlayKind, Name: name},
	}
	for _, n := range migGPUCounts {
		refs = append(refs, framework.ObjectRef{Kind: nodeOverlayKind, Name: overlayName(name, n)})
	}
	return refs
}

// input reads the plain-Go pool input from the model; ok is false while a value is unknown.
func (m *gpuNodePoolModel) input(ctx context.Context) (in poolInput, ok bool) {
	if m.GPU == nil {
		return in, false
	}
	in = poolInput{Name: m.Name.ValueString(), Model: m.GPU.Model.ValueString(), MinInstanceTypes: int(m.GPU.MinTypes.ValueInt64()),
		EFA: m.EFA.ValueBool()}
	if m.GPU.Model.IsUnknown() || m.GPU.InstanceTypes.IsUnknown() || m.Name.IsUnknown() || m.GPU.MinTypes.IsUnknown() {
		return in, false
	}
	if !m.GPU.InstanceTypes.IsNull() {
		for _, e := range m.GPU.InstanceTypes.Elements() {
			s, _ := e.(types.String)
			if s.IsUnknown() {
				return in, false
			}
			in.InstanceTypes = append(in.InstanceTypes, s.ValueString())
		}
	}
	if r := m.GPU.Requirements; r != nil {
		req, ok := r.input()
		if !ok {
			return in, false
		}
		in.Requirements = &req
	}
	if mig := m.MIG; mig != nil {
		if mig.Strategy.IsUnknown() || mig.Config.IsUnknown() {
			return in, false
		}
		in.Strategy, in.MIGConfig = mig.Strategy.ValueString(), mig.Config.ValueString()
		if mig.Strategy.IsNull() { // the default, not applied yet during validation
			in.Strategy = string(gpu.StrategyMixed)
		}
		if in.MIGProfiles, ok = int64MapInput(mig.Profiles); !ok {
			return in, false
		}
		if in.MIGParts, ok = migPartsInput(ctx, mig.Parts); !ok {
			return in, false
		}
	}
	if ts := m.TimeSlicing; ts != nil {
		if ts.Replicas.IsUnknown() {
			return in, false
		}
		in.Replicas = int(ts.Replicas.ValueInt64())
	}
	var spot *capacityModel
	discount := types.Float64Null()
	if m.Spot != nil {
		spot, discount = &m.Spot.capacityModel, m.Spot.Discount
	}
	for _, c := range []struct {
		t        string
		m        *capacityModel
		discount types.Float64
	}{{capacity.CapacityOnDemand, m.OnDemand, types.Float64Null()}, {capacity.CapacitySpot, spot, discount}, {capacity.CapacityReserved, m.Reserved, types.Float64Null()}} {
		if c.m == nil {
			continue
		}
		if c.m.MaxGPUs.IsUnknown() || c.m.Weight.IsUnknown() || c.m.Nodes.IsUnknown() {
			return in, false
		}
		in.PricesUnknown = in.PricesUnknown || c.m.PricePerHour.IsUnknown() || c.discount.IsUnknown()
		in.Capacity = append(in.Capacity, capacityInput{Type: c.t, MaxGPUs: c.m.MaxGPUs.ValueInt64(), Weight: c.m.Weight.ValueInt64(),
			Nodes: c.m.Nodes.ValueInt64Pointer(), PricePerHour: c.m.PricePerHour.ValueFloat64Pointer(), Discount: c.discount.ValueFloat64Pointer()})
	}
	return in, true
}

func (gpuNodePool) Expand(ctx context.Context, pd *framework.ProviderData, m *gpuNodePoolModel, meta framework.ObjectMeta) ([]framework.Object, diag.Diagnostics) {
	var diags diag.Diagnostics
	in, ok := m.input(ctx)
	p, perr := planPool(in)
	if !ok || perr != nil { // refused at plan; kept as a guard
		diags.AddError("Invalid GPU node pool", fmt.Sprintf("%v", perr))
		return nil, diags
	}
	var objs []framework.Object
	nodeClassName := m.NodeClass.ValueString()
	billing := framework.StringMap(ctx, m.Billing, &diags)
	if len(billing) > 0 {
		// Written first, so that the NodePools never reference a node class that does not exist.
		copied, err := poolNodeClass(ctx, pd, nodeClassName, meta.Name, billing)
		if err != nil {
			diags.AddAttributeError(path.Root("billing"), "Cannot write the pool's EC2NodeClass", err.Error())
			return nil, diags
		}
		objs, nodeClassName = append(objs, copied), meta.Name
	}
	nodeLabels := framework.StringMap(ctx, m.NodeLabels, &diags)
	if nodeLabels == nil {
		nodeLabels = map[string]string{}
	}
	maps.Copy(nodeLabels, billing)
	maps.Copy(nodeLabels, p.nodeLabels())
	annotations := maps.Clone(meta.Annotations)
	if annotations == nil {
		annotations = map[string]string{}
	}
	in.declared(p).Annotate(annotations)
	var taints []corev1.Taint
	for _, t := range m.Taints {
		taints = append(taints, corev1.Taint{Key: t.Key.ValueString(), Value: t.Value.ValueString(), Effect: corev1.TaintEffect(t.Effect.ValueString())})
	}
	for _, c := range in.Capacity {
		name := meta.Name + "-" + c.Type
		weight := int32(c.Weight)
		limits := karpv1.Limits{}
		if c.MaxGPUs > 0 {
			limits[corev1.ResourceName(gpu.ResourceGPU)] = *apiresource.NewQuantity(c.MaxGPUs, apiresource.DecimalSI)
		}
		if cm := m.capacity(c.Type); cm != nil {
			for r, v := range map[corev1.ResourceName]types.String{corev1.ResourceCPU: cm.MaxCPU, corev1.ResourceMemory: cm.MaxMemory} {
				if q, err := framework.ParseQuantity(v.ValueString()); err == nil && !v.IsNull() {
					limits[r] = q
				}
			}
		}
		np := &karpv1.NodePool{
			ObjectMeta: metav1.ObjectMeta{Name: name, Labels: meta.Labels, Annotations: annotations},
			Spec: karpv1.NodePoolSpec{
				Template: karpv1.NodeClaimTemplate{
					ObjectMeta: karpv1.ObjectMeta{Labels: nodeLabels},
					Spec: karpv1.NodeClaimTemplateSpec{
						Taints: taints,
						Requirements: append(in.selection(p).NodePoolRequirements(p.Model), karpv1.NodeSelectorRequirementWithMinValues{
							Key: capacity.LabelCapacityType, Operator: corev1.NodeSelectorOpIn, Values: []string{c.Type}}),
						NodeClassRef: &karpv1.NodeClassReference{Group: awsV1.Group, Kind: ec2NodeClassKind.Kind, Name: nodeClassName},
					},
				},
				Limits: limits,
				Weight: &weight,
			},
		}
		if c.Nodes != nil { // static: Karpenter refuses a weight and limits other than nodes
			np.Spec.Replicas, np.Spec.Weight, np.Spec.Limits = c.Nodes, nil, nil
		}
		body, err := framework.ApplyObject(np, gvk(capacity.NodePoolKind))
		if err != nil {
			diags.AddError("Encoding NodePool "+name, err.Error())
			return nil, diags
		}
		setDurations(body, m)
		objs = append(objs, framework.Object{Ref: framework.ObjectRef{Kind: capacity.NodePoolKind, Name: name}, Body: body})
	}
	pools := []string{}
	for _, c := range in.Capacity {
		pools = append(pools, meta.Name+"-"+c.Type)
	}
	for _, o := range p.overlays(meta.Name) {
		overlayCapacity := corev1.ResourceList{}
		for r, n := range o.Capacity {
			overlayCapacity[corev1.ResourceName(r)] = apiresource.MustParse(n)
		}
		ov := &karpv1alpha1.NodeOverlay{
			ObjectMeta: metav1.ObjectMeta{Name: o.Name, Labels: meta.Labels, Annotations: meta.Annotations},
			Spec: karpv1alpha1.NodeOverlaySpec{
				Requirements: []karpv1alpha1.NodeSelectorRequirement{
					{Key: capacity.LabelNodePool, Operator: corev1.NodeSelectorOpIn, Values: pools},
					p.overlaySelects(o),
				},
				Capacity: overlayCapacity,
			},
		}
		body, err := framework.ApplyObject(ov, gvk(nodeOverlayKind))
		if err != nil {
			diags.AddError("Encoding NodeOverlay "+o.Name, err.Error())
			return nil, diags
		}
		objs = append(objs, framework.Object{Ref: framework.ObjectRef{Kind: nodeOverlayKind, Name: o.Name}, Body: body})
	}
	return objs, diags
}

// overlaySelects is the requirement by which overlay o selects its nodes among the pool's (its
// other requirement is the pool's NodePools). The capacity it adds depends only on the nodes' GPU
// count, the model being the pool's: by requirements, it selects that count, so that a size AWS
// adds later gets the capacity too; by name, the listed instance types of that count.
func (p *poolPlan) overlaySelects(o overlay) karpv1alpha1.NodeSelectorRequirement {
	if p.Requirements != nil {
		return karpv1alpha1.NodeSelectorRequirement{Key: gpu.LabelKarpenterGPUCount, Operator: corev1.NodeSelectorOpIn,
			Values: []string{strconv.Itoa(o.GPUs)}}
	}
	return karpv1alpha1.NodeSelectorRequirement{Key: capacity.LabelInstanceType, Operator: corev1.NodeSelectorOpIn, Values: o.InstanceTypes}
}

// setDurations writes the durations as configured: a typed NillableDuration serialises its zero
// value as "Never" and re-spells the rest ("720h0m0s"), so they are set on the map instead.
func setDurations(body map[string]any, m *gpuNodePoolModel) {
	spec := body["spec"].(map[string]any)
	tmpl := spec["template"].(map[string]any)["spec"].(map[string]any)
	delete(tmpl, "expireAfter")
	if !m.ExpireAfter.IsNull() {
		tmpl["expireAfter"] = m.ExpireAfter.ValueString()
	}
	delete(tmpl, "terminationGracePeriod")
	if !m.GracePeriod.IsNull() {
		tmpl["terminationGracePeriod"] = m.GracePeriod.ValueString()
	}
	delete(spec, "disruption")
	if d := m.Disruption; d != nil {
		out := map[string]any{"consolidationPolicy": d.ConsolidationPolicy.ValueString(), "consolidateAfter": d.ConsolidateAfter.ValueString()}
		if d.Budgets != nil {
			budgets := []any{}
			for _, b := range d.Budgets {
				e := map[string]any{"nodes": b.Nodes.ValueString()}
				if !b.Schedule.IsNull() {
					e["schedule"], e["duration"] = b.Schedule.ValueString(), b.Duration.ValueString()
				}
				budgets = append(budgets, e)
			}
			out["budgets"] = budgets
		}
		spec["disruption"] = out
	}
}

// sameDuration keeps the configured spelling of a duration the server re-spelled.
func sameDuration(live string, prior types.String) types.String {
	if prior.IsNull() || prior.IsUnknown() {
		return types.StringValue(live)
	}
	a, errA := time.ParseDuration(live)
	b, errB := time.ParseDuration(prior.ValueString())
	if live == prior.ValueString() || (errA == nil && errB == nil && a == b) {
		return prior
	}
	return types.StringValue(live)
}

// capacity is the configuration of capacity type t, or nil.
func (m *gpuNodePoolModel) capacity(t string) *capacityModel {
	switch {
	case t == capacity.CapacityOnDemand:
		return m.OnDemand
	case t == capacity.CapacitySpot && m.Spot != nil:
		return &m.Spot.capacityModel
	case t == capacity.CapacityReserved:
		return m.Reserved
	}
	return nil
}
