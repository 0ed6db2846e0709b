package kueue

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	kueuev1beta2 "sigs.k8s.io/kueue/apis/kueue/v1beta2"
)

// checkParameters are the parameter kinds of Kueue's own check controllers: each reads its
// check's parameters through Kueue's admissioncheck.ConfigHelper, which keeps the check inactive
// ("missing parameters reference", "wrong group", "wrong kind") unless they name this kind.
var checkParameters = map[string]string{
	kueuev1beta2.ProvisioningRequestControllerName: "ProvisioningRequestConfig",
	kueuev1beta2.MultiKueueControllerName:          "MultiKueueConfig",
}

// ValidateConfig refuses at plan the parameters that would keep one of Kueue's own checks
// inactive, and with it every ClusterQueue that applies the check.
func (admissionCheck) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var controller types.String
	var paramsObj types.Object
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("controller_name"), &controller)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("parameters"), &paramsObj)...)
	kind, ok := checkParameters[controller.ValueString()]
	if resp.Diagnostics.HasError() || !ok || paramsObj.IsUnknown() {
		return
	}
	var params *admissionCheckParamsModel
	if !paramsObj.IsNull() {
		params = &admissionCheckParamsModel{}
		resp.Diagnostics.Append(paramsObj.As(ctx, params, basetypes.ObjectAsOptions{})...)
		if resp.Diagnostics.HasError() {
			return
		}
	}
	want := fmt.Sprintf("api_group = %q and kind = %q", kueuev1beta2.SchemeGroupVersion.Group, kind)
	if params == nil {
		resp.Diagnostics.AddAttributeError(path.Root("parameters"), "Admission check without parameters",
			fmt.Sprintf("Kueue's %s check reads its parameters from a %s, and keeps the check inactive without one "+
				"(\"missing parameters reference\"), so no ClusterQueue applying it admits anything. Set parameters with %s.",
				controller.ValueString(), kind, want))
		return
	}
	wrong := func(attr, what string, got types.String, expected string) {
		if got.IsUnknown() || got.ValueString() == expected {
			return
		}
		at := path.Root("parameters").AtName(attr)
		resp.Diagnostics.AddAttributeError(at, "Parameters that Kueue's check cannot read",
			fmt.Sprintf("Attribute %s: %q: Kueue's %s check reads a %s, so set %s. With %q Kueue keeps the check inactive (\"wrong %s\").",
				at, got.ValueString(), controller.ValueString(), kind, want, got.ValueString(), what))
	}
	wrong("api_group", "group", params.APIGroup, kueuev1beta2.SchemeGroupVersion.Group)
	wrong("kind", "kind", params.Kind, kind)
}
