package argo

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
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

// ModifyPlan computes submit_command, submit_manifest and resources at plan and refuses an env variable that the
// template sets itself. Argo's validator runs after it, on the WorkflowTemplate apply would write,
// with the other checks of every object (package validate; UpstreamTextRefusal words its refusals).
func (trainingJobTemplate) ModifyPlan(ctx context.Context, p *framework.ProviderData, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	var m trainingJobTemplateModel
	if d := req.Plan.Get(ctx, &m); d.HasError() {
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("submit_command"), types.StringUnknown())...)
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("submit_manifest"), types.StringUnknown())...)
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("resources"), types.MapUnknown(types.StringType))...)
		return
	}
	if m.Checkpoint != nil && !m.Checkpoint.EnvName.IsUnknown() {
		if _, clash := m.Env.Elements()[m.Checkpoint.EnvName.ValueString()]; clash {
			resp.Diagnostics.AddAttributeError(path.Root("env").AtMapKey(m.Checkpoint.EnvName.ValueString()), "Reserved environment variable",
				fmt.Sprintf("Attribute env: %q carries the checkpoint path (checkpoint.env_name); remove it from env or rename checkpoint.env_name",
					m.Checkpoint.EnvName.ValueString()))
			return
		}
	}
	setComputed(ctx, &m, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("submit_command"), m.SubmitCommand)...)
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("submit_manifest"), m.SubmitManifest)...)
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("resources"), m.Resources)...)
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("retry_expression"), types.StringValue(retryExpression))...)
	checkRequiredPodLabel(ctx, p, &m, resp)
}

// checkRequiredPodLabel refuses a template whose runs' pods lack the label a team of the same
// configuration requires of every pod in the template's namespace: its admission policy would
// refuse each pod, and the run would fail at once. When the team plans after the template, the
// team reports it (framework.RequirePodLabel).
func checkRequiredPodLabel(ctx context.Context, p *framework.ProviderData, m *trainingJobTemplateModel, resp *resource.ModifyPlanResponse) {
	var labelsAll types.Map
	resp.Diagnostics.Append(resp.Plan.GetAttribute(ctx, path.Root("labels_all"), &labelsAll)...)
	if !framework.FullyKnown(ctx, labelsAll) || !framework.FullyKnown(ctx, m.Billing) || m.Namespace.IsUnknown() || m.Name.IsUnknown() {
		return
	}
	ns := m.Namespace.ValueString()
	meta := framework.ObjectMeta{Labels: framework.StringMap(ctx, labelsAll, &resp.Diagnostics)}
	labels := podLabels(ctx, m, meta, &resp.Diagnostics)
	what := fmt.Sprintf("%straining_job_template %q", framework.ResourceTypePrefix, ns+"/"+m.Name.ValueString())
	if label, by, lacking := p.CarryPodLabels(ns, labels, what); lacking {
		resp.Diagnostics.AddAttributeError(path.Root("billing"), "Runs would be refused: a required pod label is missing",
			fmt.Sprintf("Attribute billing: %s requires every pod in namespace %s to carry the label %q, and this template's "+
				"pods would not (their labels are labels_all and billing): the API server would refuse each run's pod, "+
				"and the run would fail at once. Add %q to billing, e.g. billing = merge(<team>.pod_labels, { %q = \"<project>\" }).",
				by, ns, label, label, label))
	}
}

// setComputed sets submit_command, submit_manifest and resources from the model, or unknown where
// an input is.
func setComputed(ctx context.Context, m *trainingJobTemplateModel, diags *diag.Diagnostics) {
	m.SubmitCommand, m.SubmitManifest, m.Resources = types.StringUnknown(), types.StringUnknown(), types.MapUnknown(types.StringType)
	if !known(ctx, m) {
		return
	}
	p, d := resolve(ctx, m)
	if d.HasError() {
		diags.Append(d...)
		return
	}
	m.SubmitCommand = types.StringValue(submitCommand(m.Namespace.ValueString(), m.Name.ValueString(), p.Params))
	manifest, err := submitManifest(m.Namespace.ValueString(), m.Name.ValueString(), p.Params)
	if err != nil {
		diags.AddAttributeError(path.Root("submit_manifest"), "Building the submit manifest", err.Error())
		return
	}
	m.SubmitManifest = types.StringValue(manifest)
	m.Resources = framework.MapValue(p.Resources)
}

// known reports whether what resolve reads is known: a hyperparameter taken from another
// resource leaves submit_command unknown.
func known(ctx context.Context, m *trainingJobTemplateModel) bool {
	if m.Hardware == nil {
		return false
	}
	for _, v := range []attr.Value{m.Namespace, m.Name, m.DatasetVersion, m.Hyperparameters,
		m.Hardware.GPUType, m.Hardware.GPUCount, m.Hardware.CPUCores, m.Hardware.MemoryGB} {
		if !framework.FullyKnown(ctx, v) {
			return false
		}
	}
	return true
}
