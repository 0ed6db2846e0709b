package argo

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/resourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
)

// ValidateConfig refuses at plan, naming the attribute and with no API call, a GPU the catalog
// does not know or a count no node can hold, and a `{{` that is not a reference to one of the
// template's own parameters. Unknown values are skipped.
func (trainingJobTemplate) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var hwObj types.Object
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("hardware"), &hwObj)...)
	if !hwObj.IsNull() && !hwObj.IsUnknown() {
		var hw hardwareModel
		resp.Diagnostics.Append(hwObj.As(ctx, &hw, basetypes.ObjectAsOptions{})...)
		count := int64(1)
		if !hw.GPUCount.IsNull() {
			count = hw.GPUCount.ValueInt64()
		}
		if !hw.ShmSizeGB.IsNull() && !hw.ShmSizeGB.IsUnknown() && !hw.MemoryGB.IsUnknown() && hw.ShmSizeGB.ValueInt64() > hw.MemoryGB.ValueInt64() {
			resp.Diagnostics.AddAttributeError(path.Root("hardware").AtName("shm_size_gb"), "Invalid hardware",
				fmt.Sprintf("Attribute hardware.shm_size_gb: %d GiB of /dev/shm cannot fit in the pod's memory_gb of %d GiB "+
					"(an in-memory volume counts against the pod's memory)", hw.ShmSizeGB.ValueInt64(), hw.MemoryGB.ValueInt64()))
		}
		if !hw.GPUType.IsNull() && !hw.GPUType.IsUnknown() && !hw.GPUCount.IsUnknown() {
			g, attr, err := resolveGPU(hw.GPUType.ValueString(), count)
			if err == nil && !hw.CPUCores.IsUnknown() && !hw.MemoryGB.IsUnknown() {
				attr, err = checkFitsANode(g, hw.CPUCores.ValueInt64(), hw.MemoryGB.ValueInt64())
			}
			if err != nil {
				resp.Diagnostics.AddAttributeError(path.Root("hardware").AtName(attr), "Invalid hardware",
					fmt.Sprintf("Attribute hardware.%s: %v", attr, err))
			}
		}
	}
	checkUserStrings(ctx, req, &resp.Diagnostics)
}

// checkUserStrings applies checkTemplateString to every string a user puts into the template.
func checkUserStrings(ctx context.Context, req resource.ValidateConfigRequest, diags *diag.Diagnostics) {
	var hp types.Map
	var dataset types.String
	var read diag.Diagnostics
	read.Append(req.Config.GetAttribute(ctx, path.Root("hyperparameters"), &hp)...)
	read.Append(req.Config.GetAttribute(ctx, path.Root("dataset_version"), &dataset)...)
	diags.Append(read...)
	if hp.IsUnknown() || dataset.IsUnknown() || read.HasError() {
		return
	}
	params := map[string]bool{}
	if !dataset.IsNull() {
		params[datasetParam] = true
	}
	for k := range hp.Elements() {
		params[k] = true
	}
	check := func(p path.Path, v types.String) {
		if v.IsNull() || v.IsUnknown() {
			return
		}
		if err := checkTemplateString(v.ValueString(), params); err != nil {
			diags.AddAttributeError(p, "Template expression in a user string", fmt.Sprintf("Attribute %s: %v", p, err))
		}
	}
	for _, name := range []string{"image", "training_script"} {
		var v types.String
		diags.Append(req.Config.GetAttribute(ctx, path.Root(name), &v)...)
		check(path.Root(name), v)
	}
	for _, name := range []string{"command", "args"} {
		var l types.List
		diags.Append(req.Config.GetAttribute(ctx, path.Root(name), &l)...)
		for i, e := range l.Elements() {
			if s, ok := e.(types.String); ok {
				check(path.Root(name).AtListIndex(i), s)
			}
		}
	}
	var env types.Map
	diags.Append(req.Config.GetAttribute(ctx, path.Root("env"), &env)...)
	for k, e := range env.Elements() {
		if s, ok := e.(types.String); ok {
			check(path.Root("env").AtMapKey(k), s)
		}
	}
	// A parameter's default is a value, never a template.
	for k, e := range hp.Elements() {
		if s, ok := e.(types.String); ok && !s.IsUnknown() && strings.Contains(s.ValueString(), "{{") {
			p := path.Root("hyperparameters").AtMapKey(k)
			diags.AddAttributeError(p, "Template expression in a parameter value",
				fmt.Sprintf("Attribute %s: a parameter's default may not hold `{{`", p))
		}
	}
	if !dataset.IsNull() && strings.Contains(dataset.ValueString(), "{{") {
		diags.AddAttributeError(path.Root("dataset_version"), "Template expression in a parameter value",
			"Attribute dataset_version: a parameter's default may not hold `{{`")
	}
	for _, p := range []path.Path{
		path.Root("checkpoint").AtName("uri"), path.Root("source").AtName("git_repo"), path.Root("source").AtName("revision"),
		path.Root("tracking").AtName("uri"), path.Root("tracking").AtName("experiment"),
	} {
		var v types.String
		diags.Append(req.Config.GetAttribute(ctx, p, &v)...)
		check(p, v)
	}
	var volumes types.List
	diags.Append(req.Config.GetAttribute(ctx, path.Root("volumes"), &volumes)...)
	for i, e := range volumes.Elements() {
		if o, ok := e.(types.Object); ok {
			if s, ok := o.Attributes()["mount_path"].(types.String); ok {
				check(path.Root("volumes").AtListIndex(i).AtName("mount_path"), s)
			}
		}
	}
}

func (trainingJobTemplate) ConfigValidators(context.Context) []resource.ConfigValidator {
	return []resource.ConfigValidator{
		resourcevalidator.ExactlyOneOf(path.MatchRoot("training_script"), path.MatchRoot("command")),
	}
}
