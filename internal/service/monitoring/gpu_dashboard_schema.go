package monitoring

import (
	"regexp"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
)

const (
	defaultDashboardName      = "mlplatform-gpu"
	defaultDashboardNamespace = "monitoring"
	defaultDashboardTitle     = "ML platform: GPUs"
	defaultDashboardRefresh   = "1m"
	defaultDashboardTimeFrom  = "now-24h"
	defaultDashboardTimeTo    = "now"
	// The grafana Helm chart's sidecar.dashboards.label and the labelValue kube-prometheus-stack
	// sets, and the folder annotation its docs use (grafana/helm-charts, charts/grafana/values.yaml).
	defaultSidecarLabel      = "grafana_dashboard"
	defaultSidecarLabelValue = "1"
	defaultFolderAnnotation  = "grafana_folder"
)

var (
	// Grafana's dashboard uid: at most 40 letters, digits, '-' and '_' (Grafana's util.IsValidShortUID
	// and its 40-character limit).
	dashboardUIDPattern = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,40}$`)
	// A Grafana refresh interval such as 30s, 1m or 1h; empty for none.
	dashboardRefreshPattern = regexp.MustCompile(`^([1-9][0-9]*[smhd])?$`)
	// A Grafana relative time such as now, now-24h or now-7d/d.
	dashboardTimePattern = regexp.MustCompile(`^now(-[1-9][0-9]*[smhdwMy])?(/[smhdwMy])?$`)
)

const dashboardUIDRule = "at most 40 characters of letters, digits, '-' and '_'"

func gpuDashboardAttributes() map[string]schema.Attribute {
	const what = "dashboard ConfigMap"
	attrs := framework.NamespacedMetadataAttributes(what)
	attrs["namespace"] = framework.NamespaceWithDefault(what, defaultDashboardNamespace)
	attrs["name"] = schema.StringAttribute{
		Optional: true,
		Computed: true,
		Default:  stringdefault.StaticString(defaultDashboardName),
		MarkdownDescription: "Name of the " + what + "; defaults to `" + defaultDashboardName + "`. Its key is `<name>.json`, " +
			"the file name the sidecar gives the dashboard. Changing it replaces the object.",
		PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
		Validators:    []validator.String{framework.DNSSubdomain()},
	}
	str := func(desc, def string, validators ...validator.String) schema.StringAttribute {
		a := schema.StringAttribute{Optional: true, MarkdownDescription: desc, Validators: validators}
		if def != "" {
			a.Computed = true
			a.Default = stringdefault.StaticString(def)
			a.MarkdownDescription += " Defaults to `" + def + "`."
		}
		return a
	}
	attrs["title"] = str("The dashboard's title in Grafana.", defaultDashboardTitle, stringvalidator.LengthAtLeast(1))
	attrs["dashboard_uid"] = schema.StringAttribute{
		Optional: true,
		Computed: true,
		MarkdownDescription: "The dashboard's uid in Grafana (its URL `/d/<uid>`): " + dashboardUIDRule + ". Defaults to " +
			"`name`, which then must be a valid uid too. Two dashboards with one uid overwrite each other in Grafana.",
		Validators: []validator.String{stringvalidator.RegexMatches(dashboardUIDPattern, "must be "+dashboardUIDRule)},
	}
	attrs["folder"] = str("The Grafana folder to put the dashboard in, written as the `folder_annotation` annotation. The "+
		"sidecar honours it only with `sidecar.dashboards.folderAnnotation` set to that annotation and "+
		"`sidecar.dashboards.provider.foldersFromFilesStructure: true`. Omitted, the dashboard goes to the sidecar's "+
		"default folder (`sidecar.dashboards.folder`).", "", stringvalidator.LengthAtLeast(1))
	attrs["datasource"] = str("Name or uid of the Prometheus data source that the dashboard's `datasource` variable "+
		"selects at first (viewers can switch). Omitted, Grafana's default Prometheus data source.", "",
		stringvalidator.LengthAtLeast(1))
	attrs["refresh"] = str("How often Grafana reloads the dashboard, e.g. `30s`, `5m`, `1h`; empty for never.", defaultDashboardRefresh,
		stringvalidator.RegexMatches(dashboardRefreshPattern, "must be a Grafana refresh interval such as 30s, 5m or 1h, or empty"))
	timeRule := "must be a Grafana relative time: now, or now-<n><unit> with unit s, m, h, d, w, M or y, optionally rounded " +
		"with /<unit> (e.g. now-7d/d)"
	attrs["time_from"] = str("Start of the dashboard's default time range, e.g. `now-7d`.", defaultDashboardTimeFrom,
		stringvalidator.RegexMatches(dashboardTimePattern, timeRule))
	attrs["time_to"] = str("End of the dashboard's default time range.", defaultDashboardTimeTo,
		stringvalidator.RegexMatches(dashboardTimePattern, timeRule))
	attrs["sidecar_label"] = str("The label by which Grafana's sidecar finds dashboards (`sidecar.dashboards.label`). It is "+
		"written besides `labels`, which must not set it.", defaultSidecarLabel, framework.QualifiedName())
	attrs["sidecar_label_value"] = str("The value of `sidecar_label` (`sidecar.dashboards.labelValue`; the chart's "+
		"sidecar accepts any value when that is unset).", defaultSidecarLabelValue, framework.LabelValue())
	attrs["folder_annotation"] = str("The annotation whose value names the dashboard's folder "+
		"(`sidecar.dashboards.folderAnnotation`), written when `folder` is set. `annotations` must not set it.",
		defaultFolderAnnotation, framework.QualifiedName())
	attrs["dashboard_json"] = schema.StringAttribute{
		Computed: true,
		MarkdownDescription: "The dashboard as Grafana's JSON model, as written to the ConfigMap (known at plan). A change " +
			"made to it outside Terraform shows here as drift.",
	}
	return attrs
}
