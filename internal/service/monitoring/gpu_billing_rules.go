package monitoring

import (
	"context"
	"encoding/json"
	"maps"

	"github.com/hashicorp/terraform-plugin-framework-validators/float64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/mapvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/float64default"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/mapdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/yaml"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/capacity"
)

// Defaults of the billing rules' settings.
const (
	defaultNamespace          = "monitoring"
	defaultInterval           = "1m"
	defaultTeamLabel          = "mlplatform.io/team"
	defaultProjectLabel       = "mlplatform.io/project"
	defaultGPUMemoryRatio     = 0.95
	defaultGPUIdleFor         = "1h"
	defaultPendingFor         = "1h"
	defaultAdmissionWaitSLO   = "10m"
	defaultQueueInactiveFor   = "10m"
	defaultRuleSelectorKey    = "release"
	defaultRuleSelectorValue  = "kube-prometheus-stack"
	defaultAlertSeverityLabel = "warning"
	defaultDCGMNamespaceLabel = "exported_namespace"
	defaultDCGMPodLabel       = "exported_pod"
)

// annotationInputs holds, on the PrometheusRule, the settings it was rendered from (JSON), so
// that import restores every attribute.
const annotationInputs = "mlplatform.io/gpu-billing-inputs"

type gpuBillingRulesModel struct {
	framework.NamespacedMetadata
	Pools                    types.Map     `tfsdk:"pools"`
	EvaluationInterval       types.String  `tfsdk:"evaluation_interval"`
	TeamLabel                types.String  `tfsdk:"team_label"`
	ProjectLabel             types.String  `tfsdk:"project_label"`
	DCGMNodeLabel            types.String  `tfsdk:"dcgm_node_label"`
	DCGMNamespaceLabel       types.String  `tfsdk:"dcgm_namespace_label"`
	DCGMPodLabel             types.String  `tfsdk:"dcgm_pod_label"`
	GPUMemoryAlertRatio      types.Float64 `tfsdk:"gpu_memory_alert_ratio"`
	GPUIdleAlertAfter        types.String  `tfsdk:"gpu_idle_alert_after"`
	PendingAlertAfter        types.String  `tfsdk:"pending_alert_after"`
	AdmissionWaitSLO         types.String  `tfsdk:"admission_wait_slo"`
	AdmissionWaitSLOPerQueue types.Map     `tfsdk:"admission_wait_slo_per_queue"`
	QueueInactiveAlertAfter  types.String  `tfsdk:"queue_inactive_alert_after"`
	AlertLabels              types.Map     `tfsdk:"alert_labels"`
	Rules                    types.String  `tfsdk:"rules"`
}

type gpuBillingRules struct{}

// NewGPUBillingRulesResource is mlplatform_gpu_billing_rules.
func NewGPUBillingRulesResource() resource.Resource {
	return framework.NewResource[gpuBillingRulesModel](gpuBillingRules{})
}

var _ framework.PlanModifier = gpuBillingRules{}

func (gpuBillingRules) Kind() kube.Kind    { return PrometheusRuleKind }
func (gpuBillingRules) TypeSuffix() string { return "gpu_billing_rules" }

// supplyType is the part of a GPU node pool's supplies the rules read; Terraform drops the rest
// (taints, tolerations, the counts of resources) when a whole supplies object is passed.
var supplyType = types.ObjectType{AttrTypes: map[string]attr.Type{
	"node_labels":  types.MapType{ElemType: types.StringType},
	"per_gpu":      types.MapType{ElemType: types.Int64Type},
	"hourly_price": types.MapType{ElemType: types.Float64Type},
}}

func duration(description, def string) schema.StringAttribute {
	return schema.StringAttribute{Optional: true, Computed: true, Default: stringdefault.StaticString(def),
		MarkdownDescription: description + " A Prometheus duration such as `30m` or `1h`; defaults to `" + def + "`.",
		Validators:          []validator.String{promDuration()}}
}

func (gpuBillingRules) Schema(ctx context.Context) schema.Schema {
	attrs := framework.NamespacedMetadataAttributes("PrometheusRule")
	attrs["namespace"] = framework.NamespaceWithDefault("PrometheusRule", defaultNamespace)
	attrs["labels"] = schema.MapAttribute{ElementType: types.StringType, Optional: true, Computed: true,
		Default: mapdefault.StaticValue(framework.MapValue(map[string]string{defaultRuleSelectorKey: defaultRuleSelectorValue})),
		MarkdownDescription: "Labels of the PrometheusRule, merged over the provider's `default_labels`. Prometheus loads " +
			"only the rules its `ruleSelector` selects (`kubectl get prometheus -A -o jsonpath='{..ruleSelector}'`), so " +
			"these must include its labels. Defaults to `{ release = \"" + defaultRuleSelectorValue + "\" }`, what the " +
			"kube-prometheus-stack chart installed as `" + defaultRuleSelectorValue + "` selects; setting `labels` replaces the default.",
		Validators: framework.LabelMapValidators()}
	attrs["pools"] = schema.MapAttribute{Required: true, ElementType: types.MapType{ElemType: supplyType},
		MarkdownDescription: "The GPU node pools whose use is billed: each pool's name to its `supplies`, e.g. " +
			"`{ (mlplatform_gpu_node_pool.a100.name) = mlplatform_gpu_node_pool.a100.supplies }`, so that prices and MIG " +
			"profiles have one truth. Per capacity type (`reserved`, `on-demand`, `spot`), the rules read `node_labels` (`" + capacity.LabelGPU +
			"`, the GPU model, which the provider's GPU catalog must know; `" + capacity.LabelNodePool + "`, which must be " +
			"`<pool>-<capacity type>`), the resources of `per_gpu` (or of `hourly_price` where `per_gpu` is null, for a pool " +
			"whose `mig.parts` split its GPUs) (each MIG profile counts as its compute slices over the " +
			"GPU's, e.g. a `1g.10gb` of an A100 as 1/7 GPU; per GPU, so that resizing a pool leaves the rules alone) and `hourly_price` (one recorded price per pool, capacity type and " +
			"resource; a resource without a price costs nothing in the bill). Checked at plan as far as known.",
		Validators: []validator.Map{mapvalidator.SizeAtLeast(1), mapvalidator.KeysAre(framework.DNSSubdomain()),
			mapvalidator.ValueMapsAre(framework.NoNullElements()), poolsValidator{}}}
	attrs["evaluation_interval"] = duration("How often Prometheus evaluates the rules (the group's `interval`): "+
		"each recorded sample stands for one interval of GPU use, so GPU-hours are the samples of an hour times this "+
		"interval. A whole number of seconds.", defaultInterval)
	attrs["team_label"] = schema.StringAttribute{Optional: true, Computed: true, Default: stringdefault.StaticString(defaultTeamLabel),
		MarkdownDescription: "Namespace label that names a team (`mlplatform_team` writes it). kube-state-metrics must export " +
			"it: `--metric-labels-allowlist=namespaces=[<this>]`. Defaults to `" + defaultTeamLabel + "`.",
		Validators: []validator.String{framework.QualifiedName()}}
	attrs["project_label"] = schema.StringAttribute{Optional: true, Computed: true, Default: stringdefault.StaticString(defaultProjectLabel),
		MarkdownDescription: "Pod label that names a project. kube-state-metrics must export it: " +
			"`--metric-labels-allowlist=pods=[<this>]`. Defaults to `" + defaultProjectLabel + "`.",
		Validators: []validator.String{framework.QualifiedName()}}
	attrs["dcgm_node_label"] = schema.StringAttribute{Optional: true, Computed: true, Default: stringdefault.StaticString(defaultDCGMNodeLabel),
		MarkdownDescription: "The label with which dcgm-exporter names a GPU's node: `" + defaultDCGMNodeLabel + "` in its " +
			"releases up to 4.5 (it takes the node name from `NODE_NAME`, which its Helm chart and the GPU Operator set), " +
			"`hostname` in later ones. Defaults to `" + defaultDCGMNodeLabel + "`.",
		Validators: []validator.String{promLabelName()}}
	for _, l := range []struct{ attr, def, what, names string }{
		{"dcgm_namespace_label", defaultDCGMNamespaceLabel, "namespace", "the namespace of the pod that holds a GPU"},
		{"dcgm_pod_label", defaultDCGMPodLabel, "pod", "the pod that holds a GPU"},
	} {
		attrs[l.attr] = schema.StringAttribute{Optional: true, Computed: true, Default: stringdefault.StaticString(l.def),
			MarkdownDescription: "The label that names " + l.names + ", as Prometheus stores " +
				"dcgm-exporter's `" + l.what + "`. A ServiceMonitor with `honorLabels: false` (the default of dcgm-exporter's " +
				"chart and of the GPU Operator) gives every series the exporter's own " + l.what + " and renames the GPU's to `" +
				l.def + "`; with `honorLabels: true` Prometheus would give a GPU no pod holds the exporter's pod, so keep it " +
				"false. Set `" + l.what + "` only for a scrape without target labels of its own. Defaults to `" + l.def + "`.",
			Validators: []validator.String{promLabelName()}}
	}
	attrs["gpu_memory_alert_ratio"] = schema.Float64Attribute{Optional: true, Computed: true, Default: float64default.StaticFloat64(defaultGPUMemoryRatio),
		MarkdownDescription: "`" + alertGPUMemory + "` fires when a GPU's (or MIG instance's) used memory, `DCGM_FI_DEV_FB_USED / " +
			"(DCGM_FI_DEV_FB_USED + DCGM_FI_DEV_FB_FREE)`, stays above this ratio for " + gpuMemoryFor + ". Defaults to `0.95`.",
		Validators: []validator.Float64{float64validator.Between(0, 1)}}
	attrs["gpu_idle_alert_after"] = duration("`"+alertGPUIdle+"` fires when a GPU (or MIG instance) a pod holds has had its "+
		"graphics engine active under 1% (`DCGM_FI_PROF_GR_ENGINE_ACTIVE`, which MIG instances report too) for this long.", defaultGPUIdleFor)
	attrs["pending_alert_after"] = duration("`"+alertPending+"` fires when a ClusterQueue has held pending workloads and "+
		"admitted none for this long (Kueue reports counts, not ages, so this is what says a workload waits that long).", defaultPendingFor)
	attrs["admission_wait_slo"] = duration("`"+alertAdmissionWait+"` fires while the 95th percentile of the admission wait "+
		"(`kueue_admission_wait_time_seconds`) of the workloads a ClusterQueue admitted over the last "+waitWindow+" is "+
		"above this, for queues not in `admission_wait_slo_per_queue`.", defaultAdmissionWaitSLO)
	attrs["admission_wait_slo_per_queue"] = schema.MapAttribute{Optional: true, ElementType: types.StringType,
		MarkdownDescription: "Admission wait SLOs of particular ClusterQueues, by name, e.g. `{ research = \"2h\" }`; " +
			"Prometheus durations.",
		Validators: []validator.Map{mapvalidator.KeysAre(framework.DNSSubdomain()), mapvalidator.ValueStringsAre(promDuration())}}
	attrs["queue_inactive_alert_after"] = duration("`"+alertQueueInactive+"` fires when a ClusterQueue has not been "+
		"active for this long (`kueue_cluster_queue_status`: pending or terminating).", defaultQueueInactiveFor)
	attrs["alert_labels"] = schema.MapAttribute{Optional: true, Computed: true, ElementType: types.StringType,
		Default: mapdefault.StaticValue(framework.MapValue(map[string]string{"severity": defaultAlertSeverityLabel})),
		MarkdownDescription: "Labels on every alert, for Alertmanager's routing. Defaults to `{ severity = \"" +
			defaultAlertSeverityLabel + "\" }`; setting it replaces the default.",
		Validators: []validator.Map{mapvalidator.KeysAre(promLabelName())}}
	attrs["rules"] = schema.StringAttribute{Computed: true,
		MarkdownDescription: "The rule groups written (`spec.groups`, YAML): known at plan once the inputs are. A rule " +
			"changed outside Terraform shows here as drift, and the next apply restores it."}
	return schema.Schema{
		MarkdownDescription: "GPU-hour billing and GPU alerts: a prometheus-operator `PrometheusRule` " +
			"(monitoring.coreos.com/v1) of recording rules that sum, per team, project, namespace, pool and capacity " +
			"type, the GPUs running pods hold (MIG slices as their share of a GPU), GPU-hours and their cost from the " +
			"pools' own prices, and of alerts on GPU memory, idle allocated GPUs, XID errors and Kueue's queues. It " +
			"reads kube-state-metrics, dcgm-exporter and Kueue's metrics: see below for how to configure them.",
		Attributes: attrs,
		Blocks:     map[string]schema.Block{"timeouts": framework.TimeoutsBlock(ctx)},
	}
}

// supplyModel is one element of pools, as Terraform holds it.
type supplyModel struct {
	NodeLabels  types.Map `tfsdk:"node_labels"`
	PerGPU      types.Map `tfsdk:"per_gpu"`
	HourlyPrice types.Map `tfsdk:"hourly_price"`
}

// poolsOf reads pools into Go. known is false when any part of it is unknown yet.
func poolsOf(ctx context.Context, v types.Map, diags *diag.Diagnostics) (pools map[string]map[string]poolSupply, known bool) {
	if v.IsNull() || v.IsUnknown() {
		return nil, false
	}
	var raw map[string]types.Map
	if diags.Append(v.ElementsAs(ctx, &raw, false)...); diags.HasError() {
		return nil, false
	}
	pools, known = map[string]map[string]poolSupply{}, true
	for pool, byType := range raw {
		if byType.IsUnknown() {
			known = false
			continue
		}
		supplies, ok := suppliesOf(ctx, byType, diags)
		if !ok {
			return nil, false
		}
		pools[pool] = map[string]poolSupply{}
		for ct, s := range supplies {
			out, ok := supplyOf(ctx, s, diags)
			known = known && ok
			pools[pool][ct] = out
		}
	}
	return pools, known
}

// suppliesOf reads the supplies of one pool; a supply not known yet is nil.
func suppliesOf(ctx context.Context, byType types.Map, diags *diag.Diagnostics) (map[string]*supplyModel, bool) {
	var objects map[string]types.Object
	if diags.Append(byType.ElementsAs(ctx, &objects, false)...); diags.HasError() {
		return nil, false
	}
	out := map[string]*supplyModel{}
	for ct, o := range objects {
		if o.IsUnknown() || o.IsNull() {
			out[ct] = nil
			continue
		}
		var s supplyModel
		if diags.Append(o.As(ctx, &s, basetypes.ObjectAsOptions{})...); diags.HasError() {
			return nil, false
		}
		out[ct] = &s
	}
	return out, true
}

// supplyOf reads one supply into Go; known is false when any part of it is unknown yet.
func supplyOf(ctx context.Context, s *supplyModel, diags *diag.Diagnostics) (out poolSupply, known bool) {
	if s == nil || !framework.FullyKnown(ctx, s.NodeLabels) || !framework.FullyKnown(ctx, s.PerGPU) || !framework.FullyKnown(ctx, s.HourlyPrice) {
		return out, false
	}
	diags.Append(s.NodeLabels.ElementsAs(ctx, &out.NodeLabels, false)...)
	if !s.PerGPU.IsNull() {
		diags.Append(s.PerGPU.ElementsAs(ctx, &out.PerGPU, false)...)
	}
	if !s.HourlyPrice.IsNull() {
		diags.Append(s.HourlyPrice.ElementsAs(ctx, &out.HourlyPrice, false)...)
	}
	return out, !diags.HasError()
}

// config is the model's rendering input; ok is false while any of it is unknown.
func (m *gpuBillingRulesModel) config(ctx context.Context, diags *diag.Diagnostics) (c rulesConfig, ok bool) {
	pools, known := poolsOf(ctx, m.Pools, diags)
	for _, v := range []attr.Value{m.EvaluationInterval, m.TeamLabel, m.ProjectLabel, m.DCGMNodeLabel, m.DCGMNamespaceLabel, m.DCGMPodLabel, m.GPUMemoryAlertRatio,
		m.GPUIdleAlertAfter, m.PendingAlertAfter, m.AdmissionWaitSLO, m.AdmissionWaitSLOPerQueue, m.QueueInactiveAlertAfter, m.AlertLabels} {
		known = known && framework.FullyKnown(ctx, v)
	}
	if !known || diags.HasError() {
		return rulesConfig{}, false
	}
	c = rulesConfig{
		Interval: m.EvaluationInterval.ValueString(), TeamLabel: m.TeamLabel.ValueString(), ProjectLabel: m.ProjectLabel.ValueString(),
		DCGMNodeLabel: m.DCGMNodeLabel.ValueString(), DCGMNamespaceLabel: m.DCGMNamespaceLabel.ValueString(),
		DCGMPodLabel: m.DCGMPodLabel.ValueString(), Pools: pools, GPUMemoryRatio: m.GPUMemoryAlertRatio.ValueFloat64(),
		GPUIdleFor: m.GPUIdleAlertAfter.ValueString(), PendingFor: m.PendingAlertAfter.ValueString(),
		AdmissionWaitSLO: m.AdmissionWaitSLO.ValueString(), QueueInactiveFor: m.QueueInactiveAlertAfter.ValueString(),
	}
	if !m.AdmissionWaitSLOPerQueue.IsNull() {
		diags.Append(m.AdmissionWaitSLOPerQueue.ElementsAs(ctx, &c.AdmissionWaitSLOQueue, false)...)
	}
	if !m.AlertLabels.IsNull() {
		diags.Append(m.AlertLabels.ElementsAs(ctx, &c.AlertLabels, false)...)
	}
	return c, !diags.HasError()
}

// renderYAML renders the rules and their text for the rules attribute.
func renderYAML(c rulesConfig) (monitoringv1.PrometheusRuleSpec, string, error) {
	spec, err := renderRules(c)
	if err != nil {
		return spec, "", err
	}
	text, err := yaml.Marshal(spec.Groups)
	return spec, string(text), err
}

// ModifyPlan puts the rules to be written into the plan once every input is known.
func (gpuBillingRules) ModifyPlan(ctx context.Context, _ *framework.ProviderData, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	var m gpuBillingRulesModel
	if resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...); resp.Diagnostics.HasError() {
		return
	}
	rules := types.StringUnknown()
	if c, ok := m.config(ctx, &resp.Diagnostics); ok {
		_, text, err := renderYAML(c)
		if err != nil {
			resp.Diagnostics.AddAttributeError(path.Root("pools"), "Invalid Attribute Value", err.Error())
			return
		}
		rules = types.StringValue(text)
	}
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("rules"), rules)...)
}

func (gpuBillingRules) Expand(ctx context.Context, m *gpuBillingRulesModel, meta framework.ObjectMeta) (any, diag.Diagnostics) {
	var diags diag.Diagnostics
	c, ok := m.config(ctx, &diags)
	if !ok {
		diags.AddError("Billing rules not known", "Some input of the billing rules is still unknown at apply.")
		return nil, diags
	}
	spec, text, err := renderYAML(c)
	if err != nil {
		diags.AddAttributeError(path.Root("pools"), "Invalid Attribute Value", err.Error())
		return nil, diags
	}
	inputs, err := json.Marshal(c)
	if err != nil {
		diags.AddError("Encoding the billing rules' inputs", err.Error())
		return nil, diags
	}
	m.Rules = types.StringValue(text)
	annotations := maps.Clone(meta.Annotations)
	if annotations == nil {
		annotations = map[string]string{}
	}
	annotations[annotationInputs] = string(inputs)
	pr := &monitoringv1.PrometheusRule{
		ObjectMeta: metav1.ObjectMeta{Name: meta.Name, Namespace: meta.Namespace, Labels: meta.Labels, Annotations: annotations},
		Spec:       spec,
	}
	body, err := framework.ApplyObject(pr, monitoringv1.SchemeGroupVersion.WithKind(monitoringv1.PrometheusRuleKind))
	if err != nil {
		diags.AddError("Encoding PrometheusRule", err.Error())
	}
	return body, diags
}

// Flatten reads the settings back from the annotation they were written to, and the rules from
// the spec, so that an edited rule shows as drift of rules and import restores every attribute.
func (gpuBillingRules) Flatten(ctx context.Context, obj *unstructured.Unstructured, m *gpuBillingRulesModel, importing bool) diag.Diagnostics {
	var diags diag.Diagnostics
	var pr monitoringv1.PrometheusRule
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(obj.Object, &pr); err != nil {
		diags.AddError("Decoding PrometheusRule "+obj.GetNamespace()+"/"+obj.GetName(), err.Error())
		return diags
	}
	m.Namespace = types.StringValue(pr.Namespace)
	text, err := yaml.Marshal(pr.Spec.Groups)
	if err != nil {
		diags.AddError("Encoding the rules of PrometheusRule "+pr.Namespace+"/"+pr.Name, err.Error())
		return diags
	}
	m.Rules = types.StringValue(string(text))
	// The inputs annotation is the resource's own, not one the configuration manages.
	annotations := maps.Clone(pr.Annotations)
	delete(annotations, annotationInputs)
	delete(annotations, "kubectl.kubernetes.io/last-applied-configuration")
	m.Annotations = framework.ManagedMap(ctx, annotations, m.Annotations, importing, &diags)
	var c rulesConfig
	if err := json.Unmarshal([]byte(pr.Annotations[annotationInputs]), &c); err != nil {
		if importing {
			diags.AddError("Cannot import PrometheusRule "+pr.Namespace+"/"+pr.Name,
				"Its annotation "+annotationInputs+" does not hold the inputs mlplatform_gpu_billing_rules writes: "+err.Error())
		}
		// Otherwise the prior settings stay, and the rules' drift shows.
		return diags
	}
	m.setInputs(c)
	return diags
}

// setInputs sets the model's settings from what the rules were rendered from.
func (m *gpuBillingRulesModel) setInputs(c rulesConfig) {
	m.EvaluationInterval = types.StringValue(c.Interval)
	m.TeamLabel = types.StringValue(c.TeamLabel)
	m.ProjectLabel = types.StringValue(c.ProjectLabel)
	m.DCGMNodeLabel = types.StringValue(c.DCGMNodeLabel)
	m.DCGMNamespaceLabel = types.StringValue(c.DCGMNamespaceLabel)
	m.DCGMPodLabel = types.StringValue(c.DCGMPodLabel)
	m.GPUMemoryAlertRatio = types.Float64Value(c.GPUMemoryRatio)
	m.GPUIdleAlertAfter = types.StringValue(c.GPUIdleFor)
	m.PendingAlertAfter = types.StringValue(c.PendingFor)
	m.AdmissionWaitSLO = types.StringValue(c.AdmissionWaitSLO)
	m.QueueInactiveAlertAfter = types.StringValue(c.QueueInactiveFor)
	m.AdmissionWaitSLOPerQueue = framework.AtomicMap(c.AdmissionWaitSLOQueue, m.AdmissionWaitSLOPerQueue)
	m.AlertLabels = framework.AtomicMap(c.AlertLabels, m.AlertLabels)
	m.Pools = poolsValue(c.Pools)
}

// poolsValue is pools as Terraform holds it.
func poolsValue(pools map[string]map[string]poolSupply) types.Map {
	outer := map[string]attr.Value{}
	for pool, byType := range pools {
		inner := map[string]attr.Value{}
		for ct, s := range byType {
			prices := types.MapNull(types.Float64Type)
			if s.HourlyPrice != nil {
				p := map[string]attr.Value{}
				for r, v := range s.HourlyPrice {
					p[r] = types.Float64Value(v)
				}
				prices = types.MapValueMust(types.Float64Type, p)
			}
			inner[ct] = types.ObjectValueMust(supplyType.AttrTypes, map[string]attr.Value{
				"node_labels":  framework.MapValue(s.NodeLabels),
				"per_gpu":      framework.Int64MapValue(s.PerGPU),
				"hourly_price": prices,
			})
		}
		outer[pool] = types.MapValueMust(supplyType, inner)
	}
	return types.MapValueMust(types.MapType{ElemType: supplyType}, outer)
}
