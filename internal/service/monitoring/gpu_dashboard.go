package monitoring

import (
	"context"
	"maps"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	corev1ac "k8s.io/client-go/applyconfigurations/core/v1"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
)

type gpuDashboardModel struct {
	framework.NamespacedMetadata
	Title             types.String `tfsdk:"title"`
	DashboardUID      types.String `tfsdk:"dashboard_uid"`
	Folder            types.String `tfsdk:"folder"`
	Datasource        types.String `tfsdk:"datasource"`
	Refresh           types.String `tfsdk:"refresh"`
	TimeFrom          types.String `tfsdk:"time_from"`
	TimeTo            types.String `tfsdk:"time_to"`
	SidecarLabel      types.String `tfsdk:"sidecar_label"`
	SidecarLabelValue types.String `tfsdk:"sidecar_label_value"`
	FolderAnnotation  types.String `tfsdk:"folder_annotation"`
	DashboardJSON     types.String `tfsdk:"dashboard_json"`
}

type gpuDashboard struct{}

var (
	_ framework.ConfigChecker = gpuDashboard{}
	_ framework.PlanModifier  = gpuDashboard{}
)

// NewGPUDashboardResource is mlplatform_gpu_dashboard.
func NewGPUDashboardResource() resource.Resource {
	return framework.NewResource[gpuDashboardModel](gpuDashboard{})
}

func (gpuDashboard) Kind() kube.Kind    { return kube.ConfigMapKind }
func (gpuDashboard) TypeSuffix() string { return "gpu_dashboard" }

func (gpuDashboard) Schema(ctx context.Context) schema.Schema {
	return schema.Schema{
		MarkdownDescription: "The GPU platform's Grafana dashboard, in a ConfigMap that Grafana's dashboard sidecar loads " +
			"(the grafana Helm chart's `sidecar.dashboards`, on by default in kube-prometheus-stack). Four rows: " +
			"**utilisation** (engine activity per pool, GPU model and MIG profile; GPUs held per pool, capacity type and " +
			"team), **queues** (pending and admitted workloads, admission wait p95, quota used against nominal per " +
			"ClusterQueue, flavor and resource), **cost** (GPU-hours and cost per team and project, spot against " +
			"on-demand, prices) and **health** (GPU memory, temperature, XID errors). Template variables filter by " +
			"team, pool and ClusterQueue.\n\n" +
			"Every panel queries the series that `mlplatform_gpu_billing_rules` records (`mlplatform:*`), never raw " +
			"metrics: apply those rules to the Prometheus the dashboard's data source reads.\n\n" +
			"The sidecar loads every ConfigMap that carries its label (`sidecar.dashboards.label`, `grafana_dashboard` " +
			"by default, with `sidecar.dashboards.labelValue`, `\"1\"` in kube-prometheus-stack) in the namespaces it " +
			"searches (`sidecar.dashboards.searchNamespace`; `ALL` for every namespace). To put the dashboard into a " +
			"folder, set `folder` and enable folders on the sidecar: `sidecar.dashboards.folderAnnotation: " +
			"grafana_folder` and `sidecar.dashboards.provider.foldersFromFilesStructure: true`.\n\n" +
			"The ConfigMap holds one key, `<name>.json`, and is the resource's own: it is created, updated and deleted " +
			"whole, like any object the provider writes. Import reads `sidecar_label` and `folder_annotation` as their " +
			"defaults; with others, the first apply after import moves the label and annotation to them.",
		Attributes: gpuDashboardAttributes(),
		Blocks:     map[string]schema.Block{"timeouts": framework.TimeoutsBlock(ctx)},
	}
}

// options are the attributes that shape the dashboard.
func (m *gpuDashboardModel) options() dashboardOptions {
	return dashboardOptions{
		Title:      m.Title.ValueString(),
		UID:        m.DashboardUID.ValueString(),
		Refresh:    m.Refresh.ValueString(),
		TimeFrom:   m.TimeFrom.ValueString(),
		TimeTo:     m.TimeTo.ValueString(),
		Datasource: m.Datasource.ValueString(),
	}
}

// dashboardKey is the ConfigMap key of the dashboard: the sidecar writes each key as a file.
func dashboardKey(name string) string { return name + ".json" }

func (gpuDashboard) Expand(_ context.Context, m *gpuDashboardModel, meta framework.ObjectMeta) (any, diag.Diagnostics) {
	var diags diag.Diagnostics
	text, err := buildDashboard(m.options())
	if err != nil {
		diags.AddError("Building the Grafana dashboard", err.Error())
		return nil, diags
	}
	labels := maps.Clone(meta.Labels)
	if labels == nil {
		labels = map[string]string{}
	}
	labels[m.SidecarLabel.ValueString()] = m.SidecarLabelValue.ValueString()
	annotations := maps.Clone(meta.Annotations)
	if !m.Folder.IsNull() {
		if annotations == nil {
			annotations = map[string]string{}
		}
		annotations[m.FolderAnnotation.ValueString()] = m.Folder.ValueString()
	}
	return corev1ac.ConfigMap(meta.Name, meta.Namespace).
		WithLabels(labels).
		WithAnnotations(annotations).
		WithData(map[string]string{dashboardKey(meta.Name): text}), diags
}

// Flatten reads the sidecar label, the folder annotation and the dashboard back. The label and
// annotation are attributes of their own, not part of `labels` and `annotations`, so that a change
// made to them outside Terraform shows on `sidecar_label_value` and `folder`.
func (gpuDashboard) Flatten(_ context.Context, obj *unstructured.Unstructured, m *gpuDashboardModel, importing bool) diag.Diagnostics {
	var diags diag.Diagnostics
	var cm corev1.ConfigMap
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(obj.Object, &cm); err != nil {
		diags.AddError("Decoding ConfigMap "+obj.GetNamespace()+"/"+obj.GetName(), err.Error())
		return diags
	}
	m.Namespace = types.StringValue(cm.Namespace)
	if importing {
		m.SidecarLabel = types.StringValue(defaultSidecarLabel)
		m.FolderAnnotation = types.StringValue(defaultFolderAnnotation)
	}
	label, folder := m.SidecarLabel.ValueString(), m.FolderAnnotation.ValueString()
	// Removed outside Terraform, the label reads as "" and the next apply writes it again.
	m.SidecarLabelValue = types.StringValue(cm.Labels[label])
	m.Folder = types.StringNull()
	if f, ok := cm.Annotations[folder]; ok {
		m.Folder = types.StringValue(f)
	}
	if importing {
		m.Labels = dashboardWithoutKey(m.Labels, label)
		m.LabelsAll = dashboardWithoutKey(m.LabelsAll, label)
		m.Annotations = dashboardWithoutKey(m.Annotations, folder)
	}

	key := dashboardKey(cm.Name)
	text, ok := cm.Data[key]
	if !ok {
		if importing {
			diags.AddError("Cannot import ConfigMap "+cm.Namespace+"/"+cm.Name, "it has no key "+key+": it is not a dashboard of this resource")
		}
		// Removed outside Terraform: planned to be written again.
		m.DashboardJSON = types.StringNull()
		return diags
	}
	m.DashboardJSON = types.StringValue(text)
	o, err := parseDashboard(text)
	if err != nil {
		if importing {
			diags.AddError("Cannot import ConfigMap "+cm.Namespace+"/"+cm.Name, "key "+key+" is not a Grafana dashboard: "+err.Error())
		}
		// Changed outside Terraform into something else: dashboard_json shows the diff, and the
		// next apply writes the dashboard again.
		return diags
	}
	m.Title = types.StringValue(o.Title)
	m.DashboardUID = types.StringValue(o.UID)
	m.Refresh = types.StringValue(o.Refresh)
	m.TimeFrom = types.StringValue(o.TimeFrom)
	m.TimeTo = types.StringValue(o.TimeTo)
	m.Datasource = framework.OptionalString(o.Datasource)
	return diags
}

func dashboardWithoutKey(m types.Map, key string) types.Map {
	if m.IsNull() || m.IsUnknown() {
		return m
	}
	if _, ok := m.Elements()[key]; !ok {
		return m
	}
	elems := maps.Clone(m.Elements())
	delete(elems, key)
	if len(elems) == 0 {
		return types.MapNull(types.StringType)
	}
	return types.MapValueMust(types.StringType, elems)
}
