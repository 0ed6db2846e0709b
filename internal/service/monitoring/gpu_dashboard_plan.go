package monitoring

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
)

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
