package karpenter

import (
	"context"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/capacity"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/gpu"
)

// Flatten reads the pool back from its NodePools (live[0] on-demand, live[1] spot, live[3]
// reserved), node class copy (live[2]) and NodeOverlays (the rest), in the order of Refs. A NodePool deleted outside Terraform drops its
// capacity block, a missing NodeOverlay of a mixed MIG pool drops the mig block, and billing keeps
// only the keys that are both node labels and tags of the copy, so the plan shows what the apply
// restores.
func (gpuNodePool) Flatten(ctx context.Context, p *framework.ProviderData, live []*unstructured.Unstructured, m *gpuNodePoolModel, importing bool) diag.Diagnostics {
	var diags diag.Diagnostics
	if m.WaitForReady.IsNull() { // imported: the attribute's default
		m.WaitForReady = types.BoolValue(false)
	}
	pools := map[string]*karpv1.NodePool{}
	var first *karpv1.NodePool
	for _, r := range []struct {
		i int
		t string
	}{{0, capacity.CapacityOnDemand}, {1, capacity.CapacitySpot}, {3, capacity.CapacityReserved}} {
		i, t := r.i, r.t
		if live[i] == nil {
			continue
		}
		var np karpv1.NodePool
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(live[i].Object, &np); err != nil {
			diags.AddError("Decoding NodePool "+live[i].GetName(), err.Error())
			return diags
		}
		pools[t] = &np
		if first == nil {
			first = &np
			m.ExpireAfter = flattenTemplateDuration(live[i], "expireAfter", m.ExpireAfter, importing)
			m.GracePeriod = flattenTemplateDuration(live[i], "terminationGracePeriod", m.GracePeriod, importing)
			m.Disruption = flattenDisruption(live[i], m.Disruption, importing)
		}
	}
	m.OnDemand = flattenCapacity(pools[capacity.CapacityOnDemand], m.OnDemand)
	m.Spot = flattenSpot(pools[capacity.CapacitySpot], m.Spot)
	m.Reserved = flattenCapacity(pools[capacity.CapacityReserved], m.Reserved)
	if first == nil {
		return diags // only the overlay is left: the plan re-creates the NodePools
	}
	declared, _ := capacity.ReadDeclared(first.Annotations)
	ann := capacity.WithoutDeclared(first.Annotations)
	if !m.Annotations.IsNull() || importing {
		m.Annotations = framework.ManagedMap(ctx, ann, m.Annotations, importing, &diags)
	}
	spec := first.Spec.Template.Spec
	copyTags := map[string]string{}
	var copied *unstructured.Unstructured
	if spec.NodeClassRef != nil {
		m.NodeClass = types.StringValue(spec.NodeClassRef.Name)
		if c := live[2]; c != nil && spec.NodeClassRef.Name == c.GetName() { // live[2] is only ever the pool's copy
			m.NodeClass = types.StringValue(c.GetAnnotations()[AnnotationCopyOf])
			copyTags, _, _ = unstructured.NestedStringMap(c.Object, "spec", "tags")
			copied = c
		}
	}
	if diags.Append(flattenCopyInSync(ctx, p.Client, copied, m)...); diags.HasError() {
		return diags
	}
	m.GPU = flattenGPU(ctx, declared, spec.Requirements, m.GPU)
	labels := maps2(first.Spec.Template.Labels)
	m.MIG = flattenMIG(declared, labels[gpu.LabelMIGConfig], m.MIG)
	if m.MIG != nil && m.missesOverlay(ctx, live) {
		m.MIG = nil
	}
	if declared.EFA || !m.EFA.IsNull() {
		m.EFA = types.BoolValue(declared.EFA)
	}
	m.TimeSlicing = nil
	if declared.Replicas > 0 {
		m.TimeSlicing = &timeSlicingModel{Replicas: types.Int64Value(int64(declared.Replicas))}
	}
	delete(labels, capacity.LabelGPU)
	delete(labels, gpu.LabelMIGConfig)
	billing := map[string]string{}
	for k, v := range labels {
		if tag, ok := copyTags[k]; ok && tag == v {
			billing[k] = v
		}
	}
	m.Billing = framework.ManagedMap(ctx, billing, m.Billing, importing, &diags)
	for k := range framework.StringMap(ctx, m.Billing, &diags) {
		delete(labels, k)
	}
	if importing {
		m.NodeLabels = framework.AtomicMap(labels, types.MapNull(types.StringType))
	} else {
		m.NodeLabels = framework.ManagedMap(ctx, labels, m.NodeLabels, false, &diags)
	}
	m.Taints = []framework.TaintModel{}
	for _, t := range spec.Taints {
		m.Taints = append(m.Taints, framework.TaintModel{Key: types.StringValue(t.Key), Value: framework.OptionalString(t.Value), Effect: types.StringValue(string(t.Effect))})
	}
	in, planned, ok := m.planned(ctx)
	if !ok {
		return diags
	}
	if m.GPU != nil {
		m.GPU.CountPerNode, _ = planned.gpusPerNode()
	}
	// While pricing_region is unknown (a plan's refresh), the prices are kept as they were: state
	// holds no unknown values.
	if region := pricingRegion(p); region != "" {
		if s, _, ok := m.supplies(ctx, in, planned, region); ok {
			m.Supplies = s
		}
	}
	return diags
}

// missesOverlay reports whether a NodeOverlay the pool as read needs does not exist.
func (m *gpuNodePoolModel) missesOverlay(ctx context.Context, live []*unstructured.Unstructured) bool {
	in, ok := m.input(ctx)
	if !ok {
		return false
	}
	p, perr := planPool(in)
	if perr != nil {
		return false
	}
	exists := map[string]bool{}
	for _, obj := range live {
		if obj != nil && obj.GetKind() == nodeOverlayKind.Kind {
			exists[obj.GetName()] = true
		}
	}
	for _, o := range p.overlays(in.Name) {
		if !exists[o.Name] {
			return true
		}
	}
	return false
}

func maps2(m map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range m {
		out[k] = v
	}
	return out
}

func flattenCapacity(np *karpv1.NodePool, prior *capacityModel) *capacityModel {
	if np == nil {
		return nil
	}
	// Prices live in Terraform only: kept as configured, null on import.
	out := &capacityModel{MaxGPUs: types.Int64Null(), Weight: types.Int64Null(), PricePerHour: types.Float64Null()}
	priorCPU, priorMemory := types.StringNull(), types.StringNull()
	if prior != nil {
		out.PricePerHour, priorCPU, priorMemory = prior.PricePerHour, prior.MaxCPU, prior.MaxMemory
	}
	out.MaxCPU, out.MaxMemory = types.StringNull(), types.StringNull()
	if q, ok := np.Spec.Limits[corev1.ResourceCPU]; ok {
		out.MaxCPU = framework.QuantityValue(&q, priorCPU)
	}
	if q, ok := np.Spec.Limits[corev1.ResourceMemory]; ok {
		out.MaxMemory = framework.QuantityValue(&q, priorMemory)
	}
	if q, ok := np.Spec.Limits[gpu.ResourceGPU]; ok {
		out.MaxGPUs = types.Int64Value(q.Value())
	}
	if np.Spec.Weight != nil {
		out.Weight = types.Int64Value(int64(*np.Spec.Weight))
	}
	out.Nodes = types.Int64PointerValue(np.Spec.Replicas)
	if np.Spec.Replicas != nil { // a static NodePool has no weight: the attribute keeps its value, or its default
		out.Weight = types.Int64Value(defaultWeight(np))
		if prior != nil {
			out.Weight = prior.Weight
		}
	}
	return out
}

// defaultWeight is the weight attribute's default for the capacity type of np.
func defaultWeight(np *karpv1.NodePool) int64 {
	for _, r := range np.Spec.Template.Spec.Requirements {
		if r.Key == capacity.LabelCapacityType && len(r.Values) == 1 {
			switch r.Values[0] {
			case capacity.CapacitySpot:
				return defaultSpotWeight
			case capacity.CapacityReserved:
				return defaultReservedWeight
			}
		}
	}
	return defaultOnDemandWeight
}

func flattenSpot(np *karpv1.NodePool, prior *spotModel) *spotModel {
	var priorCapacity *capacityModel
	discount := types.Float64Null()
	if prior != nil {
		priorCapacity, discount = &prior.capacityModel, prior.Discount
	}
	c := flattenCapacity(np, priorCapacity)
	if c == nil {
		return nil
	}
	return &spotModel{capacityModel: *c, Discount: discount}
}

func flattenGPU(ctx context.Context, d capacity.Declared, reqs []karpv1.NodeSelectorRequirementWithMinValues, prior *gpuModel) *gpuModel {
	if prior == nil {
		prior = &gpuModel{Model: types.StringNull(), InstanceTypes: types.ListNull(types.StringType)}
	}
	sel := capacity.ReadSelection(reqs)
	out := &gpuModel{Model: prior.Model, InstanceTypes: prior.InstanceTypes, MinTypes: types.Int64Null()}
	if sel.MinValues > 0 {
		out.MinTypes = types.Int64Value(int64(sel.MinValues))
	}
	if prior.Model.IsNull() || prior.Model.ValueString() == "" {
		out.Model = types.StringValue(d.Model)
	}
	if sel.Requirements != nil {
		out.InstanceTypes = types.ListNull(types.StringType)
		out.Requirements = flattenRequirements(ctx, *sel.Requirements, prior.Requirements)
		return out
	}
	its := sel.InstanceTypes
	if out.InstanceTypes.IsNull() || out.InstanceTypes.ElementType(ctx) == nil {
		out.InstanceTypes = types.ListNull(types.StringType)
		if m, err := gpu.Lookup(out.Model.ValueString()); err == nil && slices.Equal(sortedNames(m.InstanceTypes), its) {
			return out // the default: every instance type of the model
		}
	} else {
		var prev []string
		for _, e := range prior.InstanceTypes.Elements() {
			prev = append(prev, e.(types.String).ValueString())
		}
		if slices.Equal(slices.Sorted(slices.Values(prev)), its) {
			return out // same set, in the configured order
		}
	}
	out.InstanceTypes, _ = types.ListValueFrom(ctx, types.StringType, its)
	return out
}

func sortedNames(its []gpu.InstanceType) []string {
	out := make([]string, len(its))
	for i, it := range its {
		out[i] = it.Name
	}
	slices.Sort(out)
	return out
}

func flattenMIG(d capacity.Declared, config string, prior *migModel) *migModel {
	if d.Strategy == "" {
		return nil
	}
	out := &migModel{Strategy: types.StringValue(string(d.Strategy)), Profiles: types.MapNull(types.Int64Type), Config: types.StringValue(config),
		Parts: types.ListNull(migPartType), ConfigName: types.StringValue(config)}
	switch {
	case d.Layout != nil && gpu.IsParts(*d.Layout):
		out.Config = types.StringNull()
		priorParts := out.Parts
		if prior != nil {
			priorParts = prior.Parts
		}
		if m, err := gpu.Lookup(d.Model); err == nil {
			out.Parts = flattenMIGParts(m, *d.Layout, priorParts)
		}
	case d.Layout != nil:
		out.Config = types.StringNull()
		if l, err := gpu.ParseLayout(*d.Layout); err == nil {
			counts := map[string]int64{}
			for k, v := range l {
				counts[k] = int64(v)
			}
			out.Profiles = framework.Int64MapValue(counts)
		}
	case prior != nil && !prior.Config.IsNull():
		out.Config = prior.Config // keep a compact layout as written; the label holds its config name
		if m, err := gpu.Lookup(d.Model); err == nil {
			if cfg, err := gpu.Resolve(m, prior.Config.ValueString()); err != nil || cfg.Name != config {
				out.Config = types.StringValue(config)
			}
		}
	}
	return out
}

// flattenTemplateDuration reads a duration of the node template, in the configured spelling.
func flattenTemplateDuration(obj *unstructured.Unstructured, field string, prior types.String, importing bool) types.String {
	v, found, _ := unstructured.NestedString(obj.Object, "spec", "template", "spec", field)
	if !found || (prior.IsNull() && !importing) {
		return prior
	}
	return sameDuration(v, prior)
}

func flattenDisruption(obj *unstructured.Unstructured, prior *disruptionModel, importing bool) *disruptionModel {
	d, found, _ := unstructured.NestedMap(obj.Object, "spec", "disruption")
	if !found || (prior == nil && !importing) {
		return prior
	}
	s := func(k string) string { v, _ := d[k].(string); return v }
	out := &disruptionModel{ConsolidationPolicy: types.StringValue(s("consolidationPolicy"))}
	var priorAfter types.String
	if prior != nil {
		priorAfter = prior.ConsolidateAfter
	} else {
		priorAfter = types.StringNull()
	}
	out.ConsolidateAfter = sameDuration(s("consolidateAfter"), priorAfter)
	budgets, _ := d["budgets"].([]any)
	if prior != nil && prior.Budgets == nil {
		return out // Karpenter's default budget, not Terraform's
	}
	for i, b := range budgets {
		bm, _ := b.(map[string]any)
		g := func(k string) types.String {
			v, ok := bm[k].(string)
			return framework.OptionalString(map[bool]string{true: v}[ok])
		}
		nb := budgetModel{Nodes: g("nodes"), Schedule: g("schedule"), Duration: g("duration")}
		if prior != nil && i < len(prior.Budgets) && !nb.Duration.IsNull() {
			nb.Duration = sameDuration(nb.Duration.ValueString(), prior.Budgets[i].Duration)
		}
		out.Budgets = append(out.Budgets, nb)
	}
	return out
}
