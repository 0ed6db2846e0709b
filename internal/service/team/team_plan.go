package team

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
)

// namespaceFromName defaults `namespace` to `name`.
type namespaceFromName struct{}

func (namespaceFromName) Description(context.Context) string { return "defaults to the team's name" }
func (namespaceFromName) MarkdownDescription(ctx context.Context) string {
	return namespaceFromName{}.Description(ctx)
}

func (namespaceFromName) PlanModifyString(ctx context.Context, req planmodifier.StringRequest, resp *planmodifier.StringResponse) {
	if !req.ConfigValue.IsNull() {
		return
	}
	var name types.String
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("name"), &name)...)
	resp.PlanValue = name
}

// ModifyPlan computes pod_labels and local_queue_names, refuses to move a LocalQueue to another
// ClusterQueue, which Kueue forbids, and refuses a project label the configuration's training
// templates in the namespace do not carry.
func (team) ModifyPlan(ctx context.Context, p *framework.ProviderData, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	var m teamModel
	if resp.Diagnostics.Append(resp.Plan.Get(ctx, &m)...); resp.Diagnostics.HasError() {
		return
	}
	m.PodLabels = podLabelsValue(m.Name, m.CostCentre)
	m.LocalQueueNames = localQueueNames(ctx, m.LocalQueues, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("pod_labels"), m.PodLabels)...)
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("local_queue_names"), m.LocalQueueNames)...)
	requireProjectLabel(p, &m, &resp.Diagnostics)
	declareLocalQueues(ctx, p, &m, &resp.Diagnostics)
	if req.State.Raw.IsNull() {
		return
	}
	var prior teamModel
	if resp.Diagnostics.Append(req.State.Get(ctx, &prior)...); resp.Diagnostics.HasError() {
		return
	}
	was, now := stringMap(ctx, prior.LocalQueues, &resp.Diagnostics), stringMap(ctx, m.LocalQueues, &resp.Diagnostics)
	for _, q := range slices.Sorted(maps.Keys(now)) {
		if before, ok := was[q]; ok && now[q] != "" && before != now[q] {
			resp.Diagnostics.AddAttributeError(path.Root("local_queues").AtMapKey(q), "A LocalQueue cannot move to another ClusterQueue",
				"Kueue forbids changing a LocalQueue's ClusterQueue (spec.clusterQueue is immutable): LocalQueue "+q+
					" feeds ClusterQueue "+before+", not "+now[q]+". To move the team's work, give the queue a new name: the "+
					"apply deletes the old LocalQueue and creates the new one (workloads waiting in the old one stay pending).")
		}
	}
}

// OwnLabels are the team's billing labels: written on every object of the team, over
// default_labels and `labels`.
func (team) OwnLabels(m *teamModel) (map[string]string, bool) {
	if m.Name.IsUnknown() || m.CostCentre.IsUnknown() {
		return nil, false
	}
	return podLabels(m.Name.ValueString(), m.CostCentre.ValueString()), true
}

// podLabelsValue is pod_labels: the team's billing labels (unknown while the name is).
func podLabelsValue(name, costCentre types.String) types.Map {
	if name.IsUnknown() || costCentre.IsUnknown() {
		return types.MapUnknown(types.StringType)
	}
	return framework.MapValue(podLabels(name.ValueString(), costCentre.ValueString()))
}

// podLabels are the billing labels of a team's objects and pods.
func podLabels(name, costCentre string) map[string]string {
	out := map[string]string{LabelTeam: name}
	if costCentre != "" {
		out[LabelCostCentre] = costCentre
	}
	return out
}

// localQueueNames is local_queue_names: the sorted queue names (unknown while the map is).
func localQueueNames(ctx context.Context, queues types.Map, diags *diag.Diagnostics) types.List {
	if queues.IsUnknown() {
		return types.ListUnknown(types.StringType)
	}
	names := slices.Sorted(maps.Keys(stringMap(ctx, queues, diags)))
	v, d := types.ListValueFrom(ctx, types.StringType, names)
	diags.Append(d...)
	return v
}

// stringMap is a map attribute's entries (none when null or unknown); a value still unknown at
// plan reads as "".
func stringMap(ctx context.Context, v types.Map, diags *diag.Diagnostics) map[string]string {
	out := map[string]string{}
	if v.IsNull() || v.IsUnknown() {
		return out
	}
	var values map[string]types.String
	diags.Append(v.ElementsAs(ctx, &values, false)...)
	for k, s := range values {
		out[k] = s.ValueString()
	}
	return out
}

// stringSet is a set attribute's elements, sorted (none when null or unknown).
func stringSet(ctx context.Context, v types.Set, diags *diag.Diagnostics) []string {
	var out []string
	if v.IsNull() || v.IsUnknown() {
		return out
	}
	diags.Append(v.ElementsAs(ctx, &out, false)...)
	slices.Sort(out)
	return out
}

// requireProjectLabel records the project label the team requires of its namespace's pods, and
// refuses it when a training template of the configuration planned before the team would run pods
// without it (a template planned after reports itself: framework.CarryPodLabels).
func requireProjectLabel(p *framework.ProviderData, m *teamModel, diags *diag.Diagnostics) {
	if !m.RequireProjectLabel.ValueBool() || m.ProjectLabel.IsUnknown() || m.Namespace.IsUnknown() || m.Name.IsUnknown() {
		return
	}
	label := m.ProjectLabel.ValueString()
	what := fmt.Sprintf("%steam %q", framework.ResourceTypePrefix, m.Name.ValueString())
	if lacking := p.RequirePodLabel(m.Namespace.ValueString(), label, what); len(lacking) > 0 {
		diags.AddAttributeError(path.Root("require_project_label"), "Runs would be refused: a required pod label is missing",
			fmt.Sprintf("Attribute require_project_label: the team requires every pod in namespace %s to carry the label %q "+
				"(project_label), and the pods of %s would not: the API server would refuse each run's pod. Add %q to "+
				"the templates' billing, e.g. billing = merge(<team>.pod_labels, { %q = \"<project>\" }).",
				m.Namespace.ValueString(), label, strings.Join(lacking, ", "), label, label))
	}
}

// declareLocalQueues records the team's LocalQueues and refuses a training template of the
// configuration whose queue looks like a misspelling of one (framework/local_queues.go), or that
// the queue, as planned, could never admit (framework/planned_queues.go).
func declareLocalQueues(ctx context.Context, p *framework.ProviderData, m *teamModel, diags *diag.Diagnostics) {
	if p == nil || m.Namespace.IsUnknown() || !framework.FullyKnown(ctx, m.LocalQueueNames) {
		return
	}
	var names []string
	if diags.Append(m.LocalQueueNames.ElementsAs(ctx, &names, false)...); diags.HasError() {
		return
	}
	ns := m.Namespace.ValueString()
	for _, u := range p.DeclareLocalQueues(ns, names) {
		diags.AddAttributeError(path.Root("local_queues"), framework.MisspelledQueueSummary, framework.MisspelledQueueDetail(ns, u))
	}
	if !framework.FullyKnown(ctx, m.LocalQueues) {
		return
	}
	for _, r := range p.PlanLocalQueues(ns, stringMap(ctx, m.LocalQueues, diags)) {
		r.AddTo(diags)
	}
}
