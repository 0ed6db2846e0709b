package monitoring

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// dashboardConfigString is a string attribute of the configuration, def when it is null; ok is false when it
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
