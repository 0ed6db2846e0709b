package monitoring

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
)

var (
	_ framework.ConfigChecker = gpuDashboard{}
	_ framework.PlanModifier  = gpuDashboard{}
)

// stringOr is a string attribute of the configuration, def when it is null; ok is false when it
// is unknown.
func dashboardConfigString(ctx context.Context, c tfsdk.Config, attr, def string, diags *diag.Diagnostics) (v string, isNull, ok bool) {
	var s types.String
	diags.Append(c.GetAttribute(ctx, path.Root(attr), &s)...)
	switch {
	case s.IsUnknown():
		return "", false, false
	case s.IsNull():
		return def, true, true
	}
	return s.ValueString(), false, true
}

// ValidateConfig refuses at plan, with no API call: a name that cannot be the default uid, and
// `labels` or `annotations` that set the sidecar's label or the folder annotation (those have
// attributes of their own). Unknown values are skipped.
func (gpuDashboard) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	diags := &resp.Diagnostics
	if _, uidNull, ok := dashboardConfigString(ctx, req.Config, "dashboard_uid", "", diags); ok && uidNull {
		if name, _, ok := dashboardConfigString(ctx, req.Config, "name", defaultDashboardName, diags); ok && !dashboardUIDPattern.MatchString(name) {
			diags.AddAttributeError(path.Root("dashboard_uid"), "Invalid dashboard uid",
				fmt.Sprintf("Attribute dashboard_uid: omitted, it defaults to name %q, which is not a Grafana dashboard uid (%s): "+
					"set dashboard_uid", name, dashboardUIDRule))
		}
	}
	reserved := func(mapAttr, keyAttr, def string) {
		key, _, ok := dashboardConfigString(ctx, req.Config, keyAttr, def, diags)
		var m types.Map
		diags.Append(req.Config.GetAttribute(ctx, path.Root(mapAttr), &m)...)
		if !ok || m.IsNull() || m.IsUnknown() {
			return
		}
		if _, set := m.Elements()[key]; set {
			diags.AddAttributeError(path.Root(mapAttr).AtMapKey(key), "Reserved key",
				fmt.Sprintf("Attribute %s[%q]: the provider writes %q from %s; set that attribute instead", mapAttr, key, key,
					map[string]string{"sidecar_label": "sidecar_label_value", "folder_annotation": "folder"}[keyAttr]))
		}
	}
	reserved("labels", "sidecar_label", defaultSidecarLabel)
	reserved("annotations", "folder_annotation", defaultFolderAnnotation)
}

// ModifyPlan sets dashboard_uid when it defaults to the name, and dashboard_json to the dashboard
// the apply will write, so that a change to either (or to the live JSON) shows in the plan.
func (gpuDashboard) ModifyPlan(ctx context.Context, p *framework.ProviderData, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	var m gpuDashboardModel
	if resp.Diagnostics.Append(resp.Plan.Get(ctx, &m)...); resp.Diagnostics.HasError() {
		return
	}
	var uid types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("dashboard_uid"), &uid)...)
	if uid.IsNull() {
		m.DashboardUID = m.Name
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("dashboard_uid"), m.Name)...)
	}
	if label := m.SidecarLabel; !label.IsUnknown() && !p.DefaultLabelsUnknown {
		if _, ok := p.DefaultLabels[label.ValueString()]; ok {
			resp.Diagnostics.AddAttributeError(path.Root("sidecar_label"), "Sidecar label in default_labels",
				fmt.Sprintf("Attribute sidecar_label: the provider's default_labels set %q too; remove it there, as this "+
					"resource writes it from sidecar_label_value", label.ValueString()))
		}
	}
	json := types.StringUnknown()
	known := []types.String{m.Title, m.DashboardUID, m.Refresh, m.TimeFrom, m.TimeTo, m.Datasource}
	if dashboardAllKnown(known) {
		text, err := buildDashboard(m.options())
		if err != nil {
			resp.Diagnostics.AddError("Building the Grafana dashboard", err.Error())
			return
		}
		json = types.StringValue(text)
	}
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("dashboard_json"), json)...)
}

func dashboardAllKnown(vs []types.String) bool {
	for _, v := range vs {
		if v.IsUnknown() {
			return false
		}
	}
	return true
}
