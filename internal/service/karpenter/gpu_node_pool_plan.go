package karpenter

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/capacity"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/gpu"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/pricing"
)

// poolInput is the part of a node pool's configuration that decides what its nodes supply,
// in plain Go so that it can be checked and computed without Terraform types.
type poolInput struct {
	Name          string
	Model         string   // any alias gpu.Lookup knows
	InstanceTypes []string // empty: all of the model's
	// Requirements select the instance types instead of InstanceTypes; nil when by name.
	Requirements *gpu.InstanceRequirements
	// MinInstanceTypes is Karpenter's minValues on the instance types; 0 when unset.
	MinInstanceTypes int
	Strategy         string // "" when MIG is off
	MIGProfiles      map[string]int
	MIGConfig        string
	MIGParts         []migPartInput // nil unless mig.parts
	Replicas         int            // time-slicing; 0 when off
	Capacity         []capacityInput
	// PricesUnknown is true while a price_per_hour or discount is known only at apply.
	PricesUnknown bool
	EFA           bool // the nodes carry EFA interfaces
}

// resourceEFA is what the AWS EFA device plugin advertises: one per EFA interface of a node.
const resourceEFA = "vpc.amazonaws.com/efa"

type capacityInput struct {
	Type         string // capacity.CapacitySpot, capacity.CapacityOnDemand or capacity.CapacityReserved
	MaxGPUs      int64  // 0: no limit
	Nodes        *int64 // a static pool's replicas; nil when dynamic
	Weight       int64
	PricePerHour *float64 // per instance; nil when not set
	Discount     *float64 // spot only: fraction off the on-demand price
}

// capacityAttr is the attribute of a capacity type: on_demand or spot.
func capacityAttr(t string) string { return strings.ReplaceAll(t, "-", "_") }

// poolPlan is what a valid poolInput yields.
type poolPlan struct {
	Model         *gpu.Model
	InstanceTypes []gpu.InstanceType // by name, or the catalog's that Requirements allow
	Requirements  *gpu.InstanceRequirements
	Exposure      *gpu.Exposure // of the first instance type; resources per GPU are the same for all
	Spec          gpu.NodeSpec  // of one node, without its instance type
	EFA           bool
	Layout        string // canonical MIG layout when given by profiles, the parts' compact form, else ""
}

// planError is a problem with one attribute of the pool.
type planError struct {
	Path []any // attribute path steps: names (string) and list indexes (int)
	Msg  string
}

// planPool checks a pool's GPU configuration against internal/gpu and computes what it supplies.
func planPool(in poolInput) (*poolPlan, *planError) {
	m, err := gpu.Lookup(in.Model)
	if err != nil {
		return nil, &planError{[]any{"gpu", "model"}, err.Error()}
	}
	p := &poolPlan{Model: m, Requirements: in.Requirements}
	if len(m.InstanceTypes) == 0 {
		return nil, &planError{[]any{"gpu", "model"}, fmt.Sprintf("%s is not offered on AWS EC2: no instance type in the "+
			"catalog carries it, so no node pool can launch it (it can still be named in mlplatform_mig_config entries). "+
			"Models on EC2: %s", m.Name, strings.Join(modelsOnEC2(), ", "))}
	}
	switch {
	case in.Requirements != nil:
		its, perr := allowedByRequirements(m, *in.Requirements)
		if perr != nil {
			return nil, perr
		}
		p.InstanceTypes = its
	case len(in.InstanceTypes) == 0:
		p.InstanceTypes = m.InstanceTypes
	}
	for i, name := range in.InstanceTypes {
		got, it, err := gpu.ModelForInstanceType(name)
		if err != nil {
			return nil, &planError{[]any{"gpu", "instance_types", i}, err.Error()}
		}
		if got != m {
			return nil, &planError{[]any{"gpu", "instance_types", i}, fmt.Sprintf("%s carries %s, not %s; %s is on %s",
				name, got.Name, m.Name, m.Name, instanceTypeNames(m.InstanceTypes))}
		}
		p.InstanceTypes = append(p.InstanceTypes, it)
	}
	p.EFA = in.EFA
	for _, it := range p.InstanceTypes {
		if in.EFA && it.EFA == 0 {
			return nil, &planError{[]any{"efa"}, fmt.Sprintf("%s does not support EFA; %s", it.Name, p.efaHint())}
		}
	}
	if in.MinInstanceTypes > len(p.InstanceTypes) {
		return nil, &planError{[]any{"gpu", "min_instance_types"}, fmt.Sprintf(
			"%d instance types must be available, but the pool has %d (%s)", in.MinInstanceTypes, len(p.InstanceTypes), instanceTypeNames(p.InstanceTypes))}
	}
	spec := gpu.NodeSpec{Strategy: gpu.Strategy(in.Strategy)}
	migPath := []any{"mig", "config"}
	switch {
	case in.MIGProfiles != nil:
		migPath = []any{"mig", "profiles"}
		layout := gpu.Layout(in.MIGProfiles)
		if err := gpu.ValidateLayout(m, layout); err != nil {
			return nil, &planError{migPath, err.Error()}
		}
		p.Layout = layout.String()
		spec.MIG = p.Layout
		if spec.MIG == "" {
			spec.MIG = gpu.ConfigAllEnabled
		}
	case in.MIGParts != nil:
		migPath = []any{"mig", "parts"}
		it, other := p.oneGPUCount()
		if other != nil {
			return nil, &planError{migPath, fmt.Sprintf("the parts split each node's GPUs by index, so the instance types "+
				"must carry one GPU count, but %s has %d GPUs and %s %d; list instance types of one GPU count in gpu.instance_types",
				it.Name, it.GPUs, other.Name, other.GPUs)}
		}
		if r := in.Requirements; r != nil && len(r.GPUCounts) != 1 {
			return nil, &planError{migPath, fmt.Sprintf("the parts cover %d GPUs per node, so with gpu.instance_requirements "+
				"set gpu_counts = [%d]: a size AWS adds later with another GPU count would have GPUs no part covers", it.GPUs, it.GPUs)}
		}
		compact, perr := planMIGParts(m, it.GPUs, in.MIGParts)
		if perr != nil {
			return nil, perr
		}
		p.Layout, spec.MIG, spec.GPUsPerNode = compact, compact, it.GPUs
	case in.MIGConfig != "":
		spec.MIG = in.MIGConfig
	}
	if in.Replicas > 0 {
		spec.TimeSlicing = &gpu.TimeSlicing{Replicas: in.Replicas}
	}
	spec.Model = m
	p.Spec = spec
	for _, it := range p.InstanceTypes {
		spec.InstanceType = it.Name
		e, err := gpu.Expose(spec)
		if err != nil {
			return nil, &planError{migPath, err.Error()}
		}
		if p.Exposure == nil {
			p.Exposure = e
		}
	}
	for _, c := range in.Capacity {
		it, other := p.oneGPUCount()
		switch {
		case other == nil:
		case c.Nodes != nil:
			return nil, &planError{[]any{capacityAttr(c.Type), "nodes"}, fmt.Sprintf(
				"a static pool needs instance types of one GPU count, so that what its nodes supply is known, but %s has "+
					"%d GPUs and %s %d; %s",
				it.Name, it.GPUs, other.Name, other.GPUs, p.oneCountHint())}
		case c.PricePerHour != nil:
			return nil, &planError{[]any{capacityAttr(c.Type), "price_per_hour"}, fmt.Sprintf(
				"a price per instance needs instance types with one GPU count, but %s has %d GPUs and %s %d; "+
					"%s, or use a pool per count",
				it.Name, it.GPUs, other.Name, other.GPUs, p.oneCountHint())}
		}
	}
	return p, nil
}

// oneGPUCount returns the first instance type and, when another has a different GPU count, that one.
func (p *poolPlan) oneGPUCount() (first gpu.InstanceType, other *gpu.InstanceType) {
	for i := range p.InstanceTypes[1:] {
		if p.InstanceTypes[i+1].GPUs != p.InstanceTypes[0].GPUs {
			return p.InstanceTypes[0], &p.InstanceTypes[i+1]
		}
	}
	return p.InstanceTypes[0], nil
}

// declared is what the pool records on its NodePools (see internal/capacity).
func (in poolInput) declared(p *poolPlan) capacity.Declared {
	d := capacity.Declared{Model: in.Model, Strategy: gpu.Strategy(in.Strategy), Replicas: in.Replicas, EFA: in.EFA}
	if in.MIGProfiles != nil || in.MIGParts != nil {
		d.Layout = &p.Layout
	}
	return d
}

// capacity returns the pool's input for capacity type t, or nil.
func (in poolInput) capacity(t string) *capacityInput {
	for i := range in.Capacity {
		if in.Capacity[i].Type == t {
			return &in.Capacity[i]
		}
	}
	return nil
}

// hourlyPrices is the price per hour of one unit of each resource a NodePool of capacity c
// supplies (see pricing.UnitPrices), from the price of one GPU: the instance price given in the
// pool divided by its GPUs, else the highest on-demand price per GPU among the pool's instance
// types in region, so that resources x price bounds the capacity's cost. Spot takes its
// price_per_hour, or the on-demand price per GPU less its discount. It returns nil when there is
// no price: spot with neither (no note), or no table price (note says why).
func (p *poolPlan) hourlyPrices(in poolInput, c capacityInput, region string) (map[string]float64, string) {
	gpus := float64(p.InstanceTypes[0].GPUs) // one count whenever a price per instance is given
	perGPU := 0.0
	switch {
	case c.PricePerHour != nil:
		perGPU = *c.PricePerHour / gpus
	case c.Type == capacity.CapacitySpot && c.Discount == nil:
		return nil, ""
	default:
		od, note := p.onDemandPerGPU(in, region)
		if note != "" {
			return nil, note
		}
		perGPU = od
		if c.Type == capacity.CapacitySpot {
			perGPU = od * (1 - *c.Discount)
		}
	}
	return pricing.UnitPrices(p.Exposure, perGPU), ""
}

// onDemandPerGPU is the on-demand price of one GPU: on_demand.price_per_hour divided by the GPUs,
// else the highest table price per GPU among the instance types priced in region (a type without a
// price there is not offered there). note is non-empty when there is none.
func (p *poolPlan) onDemandPerGPU(in poolInput, region string) (float64, string) {
	if od := in.capacity(capacity.CapacityOnDemand); od != nil && od.PricePerHour != nil {
		return *od.PricePerHour / float64(p.InstanceTypes[0].GPUs), ""
	}
	best, found := 0.0, false
	var errs []string
	for _, it := range p.InstanceTypes {
		price, err := pricing.OnDemand(region, it.Name)
		if err != nil {
			errs = append(errs, err.Error())
			continue
		}
		if g := price / float64(it.GPUs); !found || g > best {
			best, found = g, true
		}
	}
	if !found {
		return 0, strings.Join(slices.Compact(errs), "; ")
	}
	return best, ""
}

// modelsOnEC2 are the catalog's models that some EC2 instance type carries.
func modelsOnEC2() []string {
	var out []string
	for _, m := range gpu.Models() {
		if len(m.InstanceTypes) > 0 {
			out = append(out, m.Name)
		}
	}
	return out
}

func instanceTypeNames(its []gpu.InstanceType) string {
	names := make([]string, len(its))
	for i, it := range its {
		names[i] = it.Name
	}
	return strings.Join(names, ", ")
}

// needsOverlay reports whether Karpenter must be told the node's MIG capacity: under the mixed
// strategy pods ask for nvidia.com/mig-* resources that EC2 data does not list.
func (p *poolPlan) needsOverlay() bool {
	return p.Exposure.MIG.Enabled && p.Exposure.Strategy == gpu.StrategyMixed
}

// nodeLabels are the labels the pool writes on its nodes, besides the user's.
func (p *poolPlan) nodeLabels() map[string]string {
	out := map[string]string{capacity.LabelGPU: capacity.GPULabel(p.Model)}
	if cfg, ok := p.Exposure.NodeLabels[gpu.LabelMIGConfig]; ok {
		out[gpu.LabelMIGConfig] = cfg
	}
	return out
}

// supply is what one NodePool of the pool offers: the labels a flavor selects it by, the most of
// each resource its nodes can ever expose (resources per GPU x max_gpus; nil without max_gpus), what
// one GPU exposes (nil for nodes split into MIG parts) and one node (nil when the instance types
// differ in GPU count), and the CPU and memory one GPU's share of a node offers pods.
type supply struct {
	NodeLabels   map[string]string
	Resources    map[string]int64
	PerGPU       map[string]int64
	PerNode      map[string]int64
	CPUMilliGPU  int64
	MemoryMiBGPU int64
}

// nodePool is the NodePool of capacity type c, as the capacity checks see it.
func (p *poolPlan) nodePool(pool string, c capacityInput) capacity.Pool {
	labels := map[string]string{
		capacity.LabelGPU:          capacity.GPULabel(p.Model),
		capacity.LabelCapacityType: c.Type,
		capacity.LabelNodePool:     pool + "-" + c.Type,
	}
	cp := capacity.Pool{Name: pool + "-" + c.Type, CapacityType: c.Type, NodeLabels: labels, Node: p.Spec, MaxGPUs: c.MaxGPUs}
	if c.Nodes != nil { // static: the nodes, of one GPU count
		cp.Node.InstanceType, cp.MaxNodes, cp.Static = p.InstanceTypes[0].Name, *c.Nodes, true
	}
	return cp
}

func (p *poolPlan) supply(pool string, c capacityInput) (supply, error) {
	cp := p.nodePool(pool, c)
	cs, err := cp.Supply()
	if err != nil {
		return supply{}, err
	}
	s := supply{NodeLabels: cp.NodeLabels, PerGPU: cs.PerGPU}
	if _, other := p.oneGPUCount(); other == nil {
		s.PerNode = p.perNode(p.InstanceTypes[0].GPUs)
	}
	if c.MaxGPUs > 0 || c.Nodes != nil {
		s.Resources = cs.Most
		if p.EFA {
			s.Resources[resourceEFA] = p.mostEFA(c)
		}
	}
	s.CPUMilliGPU, s.MemoryMiBGPU = p.perGPU()
	return s, nil
}

// mostEFA is the most EFA devices capacity c's nodes can expose: its nodes' EFA interfaces, the
// nodes being as many as max_gpus fills of the type with most EFA per GPU, or the static count.
func (p *poolPlan) mostEFA(c capacityInput) int64 {
	if c.Nodes != nil {
		return int64(p.InstanceTypes[0].EFA) * *c.Nodes
	}
	var most int64
	for _, it := range p.InstanceTypes {
		most = max(most, c.MaxGPUs/int64(it.GPUs)*int64(it.EFA))
	}
	return most
}

// perGPU is the CPU (millicores) and memory (MiB) every node of the pool offers pods per GPU: the
// least among its instance types, so that quotas in whole GPUs fit any node Karpenter picks.
func (p *poolPlan) perGPU() (cpuMilli, memoryMiB int64) {
	for i, it := range p.InstanceTypes {
		c, m := it.PerGPU()
		if i == 0 || c < cpuMilli {
			cpuMilli = c
		}
		if i == 0 || m < memoryMiB {
			memoryMiB = m
		}
	}
	return cpuMilli, memoryMiB
}

// overlay is one NodeOverlay of a mixed MIG pool: the MIG capacity of its nodes of one GPU count.
type overlay struct {
	Name          string
	GPUs          int
	InstanceTypes []string
	Capacity      map[string]string // resource quantities per node
}

// overlays are the NodeOverlays the pool needs: one per GPU count among its instance types, since
// an overlay adds one capacity to every node it selects. With one count, the common case, the
// overlay is named like the pool.
func (p *poolPlan) overlays(pool string) []overlay {
	if !p.needsOverlay() {
		return nil
	}
	byCount := map[int][]string{}
	for _, it := range p.InstanceTypes {
		byCount[it.GPUs] = append(byCount[it.GPUs], it.Name)
	}
	counts := slices.Sorted(maps.Keys(byCount))
	var out []overlay
	for _, n := range counts {
		o := overlay{Name: pool, GPUs: n, InstanceTypes: slices.Sorted(slices.Values(byCount[n])), Capacity: map[string]string{}}
		if len(counts) > 1 {
			o.Name = overlayName(pool, n)
		}
		for r, count := range p.perNode(n) {
			// Never nvidia.com/gpu: Karpenter's GPU limit counts it from EC2 data, every GPU of a node.
			if r != gpu.ResourceGPU {
				o.Capacity[r] = strconv.FormatInt(count, 10)
			}
		}
		out = append(out, o)
	}
	return out
}

// perNode is what a node of the pool with n GPUs exposes: a node split into parts has one count.
func (p *poolPlan) perNode(n int) map[string]int64 {
	if p.Exposure.Parts != nil {
		return p.Exposure.ResourcesPerNode
	}
	out := map[string]int64{}
	for r, perGPU := range p.Exposure.ResourcesPerGPU {
		out[r] = perGPU * int64(n)
	}
	return out
}

// selection is how the pool's NodePools select its instance types.
func (in poolInput) selection(p *poolPlan) capacity.Selection {
	s := capacity.Selection{Requirements: in.Requirements, MinValues: in.MinInstanceTypes}
	if s.Requirements == nil {
		s.InstanceTypes = p.instanceTypeNames()
	}
	return s
}

// overlayName is the NodeOverlay for the nodes with n GPUs of a pool whose instance types differ in GPU count.
func overlayName(pool string, n int) string { return fmt.Sprintf("%s-%dgpu", pool, n) }

// migGPUCounts are the GPU counts of the MIG-capable instance types in the catalog: those a pool
// may need a NodeOverlay for.
var migGPUCounts = func() []int {
	seen := map[int]bool{}
	for _, m := range gpu.Models() {
		if m.MIGCapable() {
			for _, it := range m.InstanceTypes {
				seen[it.GPUs] = true
			}
		}
	}
	return slices.Sorted(maps.Keys(seen))
}()

func (p *poolPlan) instanceTypeNames() []string {
	out := make([]string, len(p.InstanceTypes))
	for i, it := range p.InstanceTypes {
		out[i] = it.Name
	}
	sort.Strings(out)
	return out
}

// PlannedRefs are the objects a pool claims at plan: a NodePool per capacity type it declares,
// and its copy of the node class when it has billing tags. (Its NodeOverlays are named after it
// too, so two pools of one name already collide on their NodePools.)
func (gpuNodePool) PlannedRefs(m *gpuNodePoolModel) ([]framework.ObjectRef, bool) {
	if m.Name.IsUnknown() || m.Billing.IsUnknown() {
		return nil, false
	}
	name := m.Name.ValueString()
	var refs []framework.ObjectRef
	for t, declared := range map[string]bool{
		capacity.CapacityOnDemand: m.OnDemand != nil, capacity.CapacitySpot: m.Spot != nil, capacity.CapacityReserved: m.Reserved != nil,
	} {
		if declared {
			refs = append(refs, framework.ObjectRef{Kind: capacity.NodePoolKind, Name: name + "-" + t})
		}
	}
	if len(m.Billing.Elements()) > 0 {
		refs = append(refs, copyRef(name))
	}
	return refs, true
}

// ModifyPlan sets supplies from the configuration, so that it is known at plan, and
// node_class_copy_in_sync.
func (gpuNodePool) ModifyPlan(ctx context.Context, pd *framework.ProviderData, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	supplies := types.MapUnknown(types.ObjectType{AttrTypes: supplyAttrTypes})
	perNode := types.Int64Unknown()
	configName := types.StringUnknown()
	var m gpuNodePoolModel
	if !req.Plan.Get(ctx, &m).HasError() {
		if in, p, ok := m.planned(ctx); ok {
			if v, notes, ok := m.supplies(ctx, in, p, pricingRegion(pd)); ok {
				supplies = v
				if pd != nil { // for the queues' and flavors' plan-time capacity checks
					for _, f := range pd.PlanPools(m.plannedPools(ctx, in, p)) {
						resp.Diagnostics.AddAttributeWarning(path.Root("supplies"), f.Summary, fmt.Sprintf(
							"The ClusterQueue and ResourceFlavor planned before this pool: %s%s", f.Detail, framework.UnselectedAtPlan))
					}
				}
				for _, n := range notes {
					resp.Diagnostics.AddAttributeWarning(path.Root("supplies"), "No hourly price", n)
				}
			}
			var note string
			if perNode, note = p.gpusPerNode(); note != "" {
				resp.Diagnostics.AddAttributeWarning(path.Root("gpu").AtName("count_per_node"), "GPUs per node unknown", note)
			}
			configName = types.StringValue(p.Exposure.NodeLabels[gpu.LabelMIGConfig])
		}
	}
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("supplies"), supplies)...)
	planCopyInSync(ctx, req, resp)
	if m.GPU != nil {
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("gpu").AtName("count_per_node"), perNode)...)
	}
	if m.MIG != nil {
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("mig").AtName("config_name"), configName)...)
	}
}

// plannedPools are the pool's NodePools as the plan-time capacity checks see them: with the
// node_labels and billing labels its nodes carry too (Expand's order: the pool's own last).
func (m *gpuNodePoolModel) plannedPools(ctx context.Context, in poolInput, p *poolPlan) []capacity.Pool {
	known := framework.FullyKnown(ctx, m.NodeLabels) && framework.FullyKnown(ctx, m.Billing)
	own := map[string]string{}
	if known {
		var diags diag.Diagnostics
		maps.Copy(own, framework.StringMap(ctx, m.NodeLabels, &diags))
		maps.Copy(own, framework.StringMap(ctx, m.Billing, &diags))
		known = !diags.HasError()
	}
	var pools []capacity.Pool
	for _, c := range in.Capacity {
		cp := p.nodePool(in.Name, c)
		labels := maps.Clone(own)
		maps.Copy(labels, cp.NodeLabels)
		cp.NodeLabels, cp.LabelsUnknown = labels, !known
		pools = append(pools, cp)
	}
	return pools
}

// planned is the model's pool input and plan; ok is false while a value is unknown or the plan
// refuses the pool (ValidateConfig reports why).
func (m *gpuNodePoolModel) planned(ctx context.Context) (poolInput, *poolPlan, bool) {
	in, ok := m.input(ctx)
	if !ok {
		return in, nil, false
	}
	p, perr := planPool(in)
	return in, p, perr == nil && len(p.InstanceTypes) > 0
}

// gpusPerNode is the GPU count the pool's instance types share, null when they differ (note says
// why when requirements chose them).
func (p *poolPlan) gpusPerNode() (_ types.Int64, note string) {
	if it, other := p.oneGPUCount(); other == nil {
		return types.Int64Value(int64(it.GPUs)), ""
	}
	return types.Int64Null(), p.countNote()
}

var supplyAttrTypes = map[string]attr.Type{
	"node_labels":        types.MapType{ElemType: types.StringType},
	"taints":             types.ListType{ElemType: taintType},
	"tolerations":        types.ListType{ElemType: tolerationType},
	"resources":          types.MapType{ElemType: types.Int64Type},
	"per_gpu":            types.MapType{ElemType: types.Int64Type},
	"per_node":           types.MapType{ElemType: types.Int64Type},
	"cpu_milli_per_gpu":  types.Int64Type,
	"memory_mib_per_gpu": types.Int64Type,
	"hourly_price":       types.MapType{ElemType: types.Float64Type},
}

// pricingRegion is the provider's pricing_region, "" while it is unknown.
func pricingRegion(pd *framework.ProviderData) string {
	if pd == nil {
		return ""
	}
	return pd.PricingRegion
}

// supplies computes the supplies attribute from the model, its plan and the pricing region ("" while
// unknown); ok is false while it cannot be known. notes say why an hourly_price is null when the
// price table lacks a price.
func (m *gpuNodePoolModel) supplies(ctx context.Context, in poolInput, p *poolPlan, region string) (types.Map, []string, bool) {
	taints, tolerations := []attr.Value{}, []attr.Value{}
	for _, t := range m.Taints {
		if t.Key.IsUnknown() || t.Value.IsUnknown() || t.Effect.IsUnknown() {
			return types.Map{}, nil, false
		}
		taints = append(taints, types.ObjectValueMust(taintType.AttrTypes, map[string]attr.Value{"key": t.Key, "value": t.Value, "effect": t.Effect}))
		op := "Exists"
		if t.Value.ValueString() != "" {
			op = "Equal"
		}
		tolerations = append(tolerations, types.ObjectValueMust(tolerationType.AttrTypes, map[string]attr.Value{
			"key": t.Key, "operator": types.StringValue(op), "value": framework.OptionalString(t.Value.ValueString()),
			"effect": t.Effect, "toleration_seconds": types.Int64Null()}))
	}
	out := map[string]attr.Value{}
	var notes []string
	for _, c := range in.Capacity {
		s, err := p.supply(in.Name, c)
		if err != nil {
			return types.Map{}, nil, false // planPool exposed the same node
		}
		res := types.MapNull(types.Int64Type)
		if s.Resources != nil {
			res, _ = types.MapValueFrom(ctx, types.Int64Type, s.Resources)
		}
		price := types.MapUnknown(types.Float64Type)
		if region != "" && !in.PricesUnknown {
			prices, note := p.hourlyPrices(in, c, region)
			price = types.MapNull(types.Float64Type)
			if prices != nil {
				price, _ = types.MapValueFrom(ctx, types.Float64Type, prices)
			}
			if note != "" {
				notes = append(notes, fmt.Sprintf("supplies[%q].hourly_price is null: %s. Give the price with %s.price_per_hour%s.",
					c.Type, note, capacityAttr(capacity.CapacityOnDemand), map[bool]string{true: " or spot.price_per_hour"}[c.Type == capacity.CapacitySpot]))
			}
		}
		out[c.Type] = types.ObjectValueMust(supplyAttrTypes, map[string]attr.Value{
			"node_labels":        framework.MapValue(s.NodeLabels),
			"taints":             types.ListValueMust(taintType, taints),
			"tolerations":        types.ListValueMust(tolerationType, tolerations),
			"resources":          res,
			"per_gpu":            framework.Int64MapValue(s.PerGPU),
			"per_node":           framework.Int64MapValue(s.PerNode),
			"cpu_milli_per_gpu":  types.Int64Value(s.CPUMilliGPU),
			"memory_mib_per_gpu": types.Int64Value(s.MemoryMiBGPU),
			"hourly_price":       price,
		})
	}
	v, diags := types.MapValue(types.ObjectType{AttrTypes: supplyAttrTypes}, out)
	return v, notes, !diags.HasError()
}
