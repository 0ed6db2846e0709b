package preflight

import (
	"cmp"
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
)

var (
	_ datasource.DataSourceWithConfigure      = &dataSource{}
	_ datasource.DataSourceWithValidateConfig = &dataSource{}
)

// model holds the blocks as objects: any may be unknown while Terraform validates.
type model struct {
	Kueue       types.Object   `tfsdk:"kueue"`
	Karpenter   types.Object   `tfsdk:"karpenter"`
	GPUOperator types.Object   `tfsdk:"gpu_operator"`
	Checked     types.Bool     `tfsdk:"checked"`
	Findings    []findingModel `tfsdk:"findings"`
}

type kueueModel struct {
	Configuration types.String `tfsdk:"configuration"`
	Namespace     types.String `tfsdk:"namespace"`
	ConfigMap     types.String `tfsdk:"config_map"`
	Deployment    types.String `tfsdk:"deployment"`
}

type karpenterModel struct {
	Values     types.String `tfsdk:"values"`
	Namespace  types.String `tfsdk:"namespace"`
	Deployment types.String `tfsdk:"deployment"`
}

type gpuOperatorModel struct {
	Values        types.String `tfsdk:"values"`
	Namespace     types.String `tfsdk:"namespace"`
	ClusterPolicy types.String `tfsdk:"cluster_policy"`
}

type findingModel struct {
	Component types.String `tfsdk:"component"`
	Setting   types.String `tfsdk:"setting"`
	Wanted    types.String `tfsdk:"wanted"`
	Found     types.String `tfsdk:"found"`
	Fix       types.String `tfsdk:"fix"`
}

type dataSource struct{ framework.DataSourceBase }

// NewDataSource is data.mlplatform_preflight.
func NewDataSource() datasource.DataSource { return &dataSource{} }

func (d *dataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_preflight"
}

func (d *dataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	name := func(desc string, v validator.String) schema.StringAttribute {
		return schema.StringAttribute{Optional: true, MarkdownDescription: desc, Validators: []validator.String{v}}
	}
	values := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{Required: true, MarkdownDescription: desc}
	}
	computed := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{Computed: true, MarkdownDescription: desc}
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Checks, before anything is written, that the cluster runs the controllers the platform relies on " +
			"as the platform needs them: Kueue's configuration, Karpenter's feature gates, the NVIDIA GPU Operator's " +
			"ClusterPolicy and dcgm-exporter. Each difference is an element of `findings` and a warning naming the setting " +
			"to change; a component the cluster lacks is a finding too. It only reads, on every plan. Without a cluster " +
			"(none configured, unreachable, or the read refused) it warns, sets `checked` to false and never fails the plan. " +
			"Each block checks one component; leave a block out to skip it.",
		Attributes: map[string]schema.Attribute{
			"kueue": schema.SingleNestedAttribute{
				Optional: true,
				MarkdownDescription: "Kueue: the live configuration must have the integrations, `managedJobsNamespaceSelector`, " +
					"`fairSharing`, `metrics` (`enableClusterQueueResources`, `customLabels`), `waitForPodsReady` and " +
					"`featureGates` of `configuration`.",
				Attributes: map[string]schema.Attribute{
					"configuration": values("The Kueue Configuration (`config.kueue.x-k8s.io/v1beta2`) the platform needs, as YAML: " +
						"the ml-platform module's output `kueue_configuration`. Decoded strictly and defaulted as Kueue does."),
					"namespace": name("Where Kueue runs (default `"+defaultKueueNamespace+"`).", framework.DNSLabel()),
					"config_map": name("The ConfigMap that holds the manager's configuration under `"+kueueConfigKey+"` (default `"+
						defaultKueueConfigMap+"`, as Kueue's Helm chart names it for the release `kueue`).", framework.DNSSubdomain()),
					"deployment": name("The manager's Deployment, whose `--feature-gates` (the chart's `controllerManager.featureGates`) "+
						"count with the configuration's (default `"+defaultKueueDeployment+"`).", framework.DNSSubdomain()),
				},
			},
			"karpenter": schema.SingleNestedAttribute{
				Optional:            true,
				MarkdownDescription: "Karpenter: the controller's `FEATURE_GATES` must have the gates of `values`.",
				Attributes: map[string]schema.Attribute{
					"values": values("Helm values of the Karpenter release, as YAML (e.g. `yamlencode(module.<name>.karpenter_values)`): " +
						"`settings.featureGates` is checked, the rest ignored."),
					"namespace": name("Where Karpenter runs (default `"+defaultKarpenterNamespace+"`).", framework.DNSLabel()),
					"deployment": name("The controller's Deployment (default `"+defaultKarpenterDeployment+"`, as the chart names it "+
						"for the release `karpenter`).", framework.DNSSubdomain()),
				},
			},
			"gpu_operator": schema.SingleNestedAttribute{
				Optional: true,
				MarkdownDescription: "The NVIDIA GPU Operator: its ClusterPolicy must carry `values`, and with `dcgmExporter.enabled` " +
					"dcgm-exporter must run (its DaemonSet and Service), map GPUs to pods and export the fields the billing rules and " +
					"dashboard read.",
				Attributes: map[string]schema.Attribute{
					"values": values("Helm values of the GPU Operator release, as YAML (e.g. `yamlencode(module.<name>.gpu_operator_values)`): " +
						"`mig.strategy`, `migManager.config`, `devicePlugin.config` and `dcgmExporter.enabled` are checked where set, the rest ignored."),
					"namespace": name("Where the operator runs its operands, dcgm-exporter among them (default `"+defaultGPUOperatorNamespace+"`).",
						framework.DNSLabel()),
					"cluster_policy": name("The ClusterPolicy the chart writes (default `"+defaultClusterPolicy+"`).", framework.DNSSubdomain()),
				},
			},
			"checked": schema.BoolAttribute{
				Computed: true,
				MarkdownDescription: "Whether the cluster was read for every block given. False when no cluster could be reached or " +
					"a read was refused (each said in a warning): `findings` then holds only what could be read.",
			},
			"findings": schema.ListNestedAttribute{
				Computed:            true,
				MarkdownDescription: "Each setting the cluster runs otherwise than the platform needs, and each component it lacks; empty when all match.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"component": computed("`kueue`, `karpenter`, `gpu-operator` or `dcgm-exporter`."),
					"setting":   computed("The setting, as the component's configuration or Helm values spell it (e.g. `metrics.enableClusterQueueResources`), or the object missing."),
					"wanted":    computed("What the platform needs."),
					"found":     computed("What the cluster runs."),
					"fix":       computed("What to change, naming the Helm value, e.g. `managerConfig.controllerManagerConfigYaml: metrics.enableClusterQueueResources must be true`."),
				}},
			},
		},
	}
}

// targets turns the configuration into the checks' inputs; a wanted value that does not parse is an
// error on its attribute.
type targets struct {
	kueue       *kueueTarget
	karpenter   *karpenterTarget
	gpuOperator *gpuOperatorTarget
}

func (m *model) targets(ctx context.Context) (targets, diag.Diagnostics) {
	var t targets
	var diags diag.Diagnostics
	fail := func(p path.Path, err error) {
		diags.AddAttributeError(p, "Invalid "+p.String(), "Attribute "+p.String()+": "+err.Error())
	}
	if k := block[kueueModel](ctx, m.Kueue, &diags); k != nil && !k.Configuration.IsUnknown() {
		want, err := parseKueueConfiguration(k.Configuration.ValueString(), true)
		if err != nil {
			fail(path.Root("kueue").AtName("configuration"), fmt.Errorf("not a Kueue Configuration: %w", err))
		} else {
			t.kueue = &kueueTarget{want: want,
				namespace:  cmp.Or(k.Namespace.ValueString(), defaultKueueNamespace),
				configMap:  cmp.Or(k.ConfigMap.ValueString(), defaultKueueConfigMap),
				deployment: cmp.Or(k.Deployment.ValueString(), defaultKueueDeployment)}
		}
	}
	if k := block[karpenterModel](ctx, m.Karpenter, &diags); k != nil && !k.Values.IsUnknown() {
		gates, err := parseKarpenterValues(k.Values.ValueString())
		if err != nil {
			fail(path.Root("karpenter").AtName("values"), err)
		} else {
			t.karpenter = &karpenterTarget{gates: gates,
				namespace:  cmp.Or(k.Namespace.ValueString(), defaultKarpenterNamespace),
				deployment: cmp.Or(k.Deployment.ValueString(), defaultKarpenterDeployment)}
		}
	}
	if g := block[gpuOperatorModel](ctx, m.GPUOperator, &diags); g != nil && !g.Values.IsUnknown() {
		values, err := parseGPUOperatorValues(g.Values.ValueString())
		if err != nil {
			fail(path.Root("gpu_operator").AtName("values"), err)
		} else {
			t.gpuOperator = &gpuOperatorTarget{values: values,
				namespace:     cmp.Or(g.Namespace.ValueString(), defaultGPUOperatorNamespace),
				clusterPolicy: cmp.Or(g.ClusterPolicy.ValueString(), defaultClusterPolicy)}
		}
	}
	return t, diags
}

// block is a block's values; nil when it is left out or not known yet.
func block[T any](ctx context.Context, obj types.Object, diags *diag.Diagnostics) *T {
	if obj.IsNull() || obj.IsUnknown() {
		return nil
	}
	var out T
	diags.Append(obj.As(ctx, &out, basetypes.ObjectAsOptions{})...)
	return &out
}

// ValidateConfig refuses wanted values that do not parse, before any read.
func (d *dataSource) ValidateConfig(ctx context.Context, req datasource.ValidateConfigRequest, resp *datasource.ValidateConfigResponse) {
	var m model
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	_, diags := m.targets(ctx)
	resp.Diagnostics.Append(diags...)
}

func (d *dataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m model
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	t, diags := m.targets(ctx)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	r := &reader{client: d.Provider.Client}
	var found []finding
	if t.kueue != nil {
		found = append(found, checkKueue(ctx, r, *t.kueue)...)
	}
	if t.karpenter != nil {
		found = append(found, checkKarpenter(ctx, r, *t.karpenter)...)
	}
	if t.gpuOperator != nil {
		found = append(found, checkGPUOperator(ctx, r, *t.gpuOperator)...)
	}
	m.Checked = types.BoolValue(r.unreachable == nil && len(r.refused) == 0)
	m.Findings = []findingModel{}
	if r.unreachable != nil {
		resp.Diagnostics.AddWarning("Preflight not run: no cluster to check",
			"The controllers' settings could not be read, so nothing was checked (checked = false, findings empty); the plan goes on. "+
				"Plan again once the provider reaches the cluster. Cause: "+r.unreachable.Error())
		found = nil
	}
	for _, reason := range r.refused {
		resp.Diagnostics.AddWarning("Preflight incomplete: a read was refused", "Not checked (checked = false): "+reason)
	}
	for _, f := range found {
		resp.Diagnostics.AddWarning(fmt.Sprintf("Preflight: %s %s", f.Component, f.Setting),
			fmt.Sprintf("The platform needs %s; the cluster has %s. Fix: %s.", f.Wanted, f.Found, f.Fix))
		m.Findings = append(m.Findings, findingModel{
			Component: types.StringValue(f.Component), Setting: types.StringValue(f.Setting),
			Wanted: types.StringValue(f.Wanted), Found: types.StringValue(f.Found), Fix: types.StringValue(f.Fix),
		})
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}
