package karpenter

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/objectvalidator"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/gpu"
)

// gpu.instance_requirements: instance types selected by Karpenter's labels rather than by name
// (see capacity.Selection for what the NodePools carry).

type instanceRequirementsModel struct {
	Families      types.List  `tfsdk:"families"`
	MinGeneration types.Int64 `tfsdk:"min_generation"`
	GPUCounts     types.List  `tfsdk:"gpu_counts"`
}

func instanceRequirementsAttribute() schema.SingleNestedAttribute {
	return schema.SingleNestedAttribute{Optional: true,
		MarkdownDescription: "Select the model's instance types by requirements instead of by name, so that sizes AWS adds " +
			"later are launched too. The NodePools require the model's GPU name and GPU memory as Karpenter labels them " +
			"(`" + gpu.LabelKarpenterGPUName + "`, `" + gpu.LabelKarpenterGPUMemory + "`: the name alone is shared, e.g. by " +
			"A100 40GB and 80GB) and what is set here; `{}` takes every size of the model. `count_per_node` and `supplies` " +
			"are computed from the instance types of the provider's catalog that match (a size AWS adds later may offer " +
			"pods a smaller share of a node or cost more per GPU), and requirements that match none of the model's are " +
			"refused at plan. Under mixed MIG, the NodeOverlays select the nodes by GPU count (`" + gpu.LabelKarpenterGPUCount + "`), " +
			"so that later sizes get their MIG capacity too. Conflicts with `instance_types`.",
		Validators: []validator.Object{objectvalidator.ConflictsWith(path.MatchRelative().AtParent().AtName("instance_types"))},
		Attributes: map[string]schema.Attribute{
			"families": schema.ListAttribute{ElementType: types.StringType, Optional: true,
				MarkdownDescription: "Instance families (`" + gpu.LabelKarpenterInstanceFamily + " In`), e.g. `[\"p5en\"]`; " +
					"each must have an instance type of the model. Omitted: any family.",
				Validators: []validator.List{listvalidator.SizeAtLeast(1), listvalidator.UniqueValues()}},
			"min_generation": schema.Int64Attribute{Optional: true,
				MarkdownDescription: "The least instance generation (`" + gpu.LabelKarpenterInstanceGeneration + " Gt` one less), " +
					"e.g. `6` takes g6 but not g5. Omitted: any generation.",
				Validators: []validator.Int64{int64validator.AtLeast(1)}},
			"gpu_counts": schema.ListAttribute{ElementType: types.Int64Type, Optional: true,
				MarkdownDescription: "GPUs per instance (`" + gpu.LabelKarpenterGPUCount + " In`), e.g. `[8]`; each must be " +
					"the GPU count of an instance type of the model. One count makes `count_per_node` known, which " +
					"`nodes` and `price_per_hour` need. Omitted: any count.",
				Validators: []validator.List{listvalidator.SizeAtLeast(1), listvalidator.UniqueValues(),
					listvalidator.ValueInt64sAre(int64validator.AtLeast(1))}},
		}}
}

// input is r in plain Go; ok is false while a value is unknown.
func (r *instanceRequirementsModel) input() (out gpu.InstanceRequirements, ok bool) {
	if r.Families.IsUnknown() || r.MinGeneration.IsUnknown() || r.GPUCounts.IsUnknown() {
		return out, false
	}
	out.MinGeneration = int(r.MinGeneration.ValueInt64())
	for _, e := range r.Families.Elements() {
		s, _ := e.(types.String)
		if s.IsUnknown() {
			return out, false
		}
		out.Families = append(out.Families, s.ValueString())
	}
	for _, e := range r.GPUCounts.Elements() {
		n, _ := e.(types.Int64)
		if n.IsUnknown() {
			return out, false
		}
		out.GPUCounts = append(out.GPUCounts, int(n.ValueInt64()))
	}
	return out, true
}

// allowedByRequirements are the model's catalog instance types that r allows. Each requirement is
// first checked on its own, so that one the model cannot meet is named with what the model has.
// m has instance types (planPool refuses a model without).
func allowedByRequirements(m *gpu.Model, r gpu.InstanceRequirements) ([]gpu.InstanceType, *planError) {
	at := func(steps ...any) []any { return append([]any{"gpu", "instance_requirements"}, steps...) }
	if m.KarpenterGPUName == "" { // the NodePool would have no GPU label to require
		return nil, &planError{at(), fmt.Sprintf("%s cannot be selected by requirements: the karpenter.k8s.aws/instance-gpu-name "+
			"and instance-gpu-memory EC2 gives %s are not known to the catalog; leave gpu.instance_requirements out or name "+
			"the instance types in gpu.instance_types", m.Name, instanceTypeNames(m.InstanceTypes))}
	}
	families, generations, counts := map[string]bool{}, map[int]bool{}, map[int]bool{}
	for _, it := range m.InstanceTypes {
		families[it.Family()], generations[it.Generation()], counts[it.GPUs] = true, true, true
	}
	for i, f := range r.Families {
		if !families[f] {
			return nil, &planError{at("families", i), fmt.Sprintf("no %s instance type is of family %s%s; %s comes in %s",
				m.Name, f, carriedBy(f), m.Name, strings.Join(slices.Sorted(maps.Keys(families)), ", "))}
		}
	}
	if most := slices.Max(slices.Collect(maps.Keys(generations))); r.MinGeneration > most {
		return nil, &planError{at("min_generation"), fmt.Sprintf("%s instance types are of generation %d at most (%s)",
			m.Name, most, instanceTypeNames(m.InstanceTypes))}
	}
	for i, n := range r.GPUCounts {
		if !counts[n] {
			return nil, &planError{at("gpu_counts", i), fmt.Sprintf("no %s instance type carries %d GPUs; they carry %s",
				m.Name, n, joinInts(slices.Sorted(maps.Keys(counts))))}
		}
	}
	its := m.InstanceTypesAllowed(r)
	if len(its) == 0 {
		return nil, &planError{at(), fmt.Sprintf("the requirements together match none of the %s instance types (%s)",
			m.Name, describe(m.InstanceTypes))}
	}
	return its, nil
}

// carriedBy names what another model's instance types of family f carry, or "".
func carriedBy(f string) string {
	for _, m := range gpu.Models() {
		for _, it := range m.InstanceTypes {
			if it.Family() == f {
				return " (" + f + " carries " + m.Name + ")"
			}
		}
	}
	return ""
}

// describe lists instance types with their family, generation and GPU count.
func describe(its []gpu.InstanceType) string {
	out := make([]string, len(its))
	for i, it := range its {
		out[i] = fmt.Sprintf("%s: family %s, generation %d, %d GPUs", it.Name, it.Family(), it.Generation(), it.GPUs)
	}
	return strings.Join(out, "; ")
}

func joinInts(ns []int) string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = strconv.Itoa(n)
	}
	return strings.Join(out, ", ")
}

// countNote says why count_per_node is null for a pool selecting by requirements: the instance
// types that match carry different GPU counts. "" otherwise.
func (p *poolPlan) countNote() string {
	if p.Requirements == nil {
		return ""
	}
	if _, other := p.oneGPUCount(); other == nil {
		return ""
	}
	counts := make([]string, len(p.InstanceTypes))
	for i, it := range p.InstanceTypes {
		counts[i] = fmt.Sprintf("%s: %d", it.Name, it.GPUs)
	}
	return fmt.Sprintf("gpu.count_per_node is null: the catalog's instance types that gpu.instance_requirements matches "+
		"carry different GPU counts (%s), and Karpenter may launch any of them. supplies[*].cpu_milli_per_gpu and "+
		"memory_mib_per_gpu are the least, and hourly_price the highest, among them. Give gpu.instance_requirements.gpu_counts "+
		"one count to know it.", strings.Join(counts, ", "))
}

// oneCountHint is how to give the pool instance types of one GPU count.
func (p *poolPlan) oneCountHint() string {
	if p.Requirements != nil {
		return "give gpu.instance_requirements.gpu_counts one count"
	}
	return "list instance types of one GPU count in gpu.instance_types"
}

// efaHint is how to leave out the instance types without EFA.
func (p *poolPlan) efaHint() string {
	if p.Requirements != nil {
		return "narrow gpu.instance_requirements (families, gpu_counts) to instance types with EFA"
	}
	return "list only instance types with EFA in gpu.instance_types"
}

// flattenRequirements reads r back, keeping the configured order of a list whose values are the same.
func flattenRequirements(ctx context.Context, r gpu.InstanceRequirements, prior *instanceRequirementsModel) *instanceRequirementsModel {
	out := &instanceRequirementsModel{MinGeneration: types.Int64Null(), Families: types.ListNull(types.StringType),
		GPUCounts: types.ListNull(types.Int64Type)}
	if r.MinGeneration > 0 {
		out.MinGeneration = types.Int64Value(int64(r.MinGeneration))
	}
	var counts []int64
	for _, n := range r.GPUCounts {
		counts = append(counts, int64(n))
	}
	if len(r.Families) > 0 {
		out.Families, _ = types.ListValueFrom(ctx, types.StringType, r.Families)
	}
	if len(counts) > 0 {
		out.GPUCounts, _ = types.ListValueFrom(ctx, types.Int64Type, counts)
	}
	if prior != nil {
		if sameElements(prior.Families, out.Families) {
			out.Families = prior.Families
		}
		if sameElements(prior.GPUCounts, out.GPUCounts) {
			out.GPUCounts = prior.GPUCounts
		}
	}
	return out
}

// sameElements reports whether two lists hold the same values, in any order.
func sameElements(a, b types.List) bool {
	if a.IsNull() || b.IsNull() || a.IsUnknown() || len(a.Elements()) != len(b.Elements()) {
		return a.IsNull() && b.IsNull()
	}
	for _, e := range a.Elements() {
		if !slices.ContainsFunc(b.Elements(), e.Equal) {
			return false
		}
	}
	return true
}
