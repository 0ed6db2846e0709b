package argo

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"sigs.k8s.io/yaml"

	"github.com/argoproj/argo-workflows/v3/pkg/apis/workflow"
	wfv1 "github.com/argoproj/argo-workflows/v3/pkg/apis/workflow/v1alpha1"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
)

// jobPlan is what the model resolves to before anything is built: the workflow parameters in
// argv order, the GPU request and the pod's resources.
type jobPlan struct {
	Params    []param
	GPU       *gpuRequest // nil for a CPU-only job
	Resources map[string]string
}

type param struct{ Name, Value string }

// resolve turns a fully known model into a jobPlan; errors name the attribute at fault.
func resolve(ctx context.Context, m *trainingJobTemplateModel) (*jobPlan, diag.Diagnostics) {
	var diags diag.Diagnostics
	p := &jobPlan{}
	if !m.DatasetVersion.IsNull() {
		p.Params = append(p.Params, param{datasetParam, m.DatasetVersion.ValueString()})
	}
	hp := framework.StringMap(ctx, m.Hyperparameters, &diags)
	for _, k := range sortedKeys(hp) {
		p.Params = append(p.Params, param{k, hp[k]})
	}
	hw := m.Hardware
	if hw == nil {
		diags.AddAttributeError(path.Root("hardware"), "Missing hardware", "hardware is required")
		return nil, diags
	}
	if !hw.GPUType.IsNull() {
		g, attr, err := resolveGPU(hw.GPUType.ValueString(), hw.GPUCount.ValueInt64())
		if err != nil {
			diags.AddAttributeError(path.Root("hardware").AtName(attr), "Invalid hardware",
				fmt.Sprintf("Attribute hardware.%s: %v", attr, err))
			return nil, diags
		}
		p.GPU = g
	}
	p.Resources = podResources(p.GPU, hw.CPUCores.ValueInt64(), hw.MemoryGB.ValueInt64())
	if err := compileRetryExpression(); err != nil {
		diags.AddAttributeError(path.Root("retry"), "Invalid retry expression", err.Error())
	}
	return p, diags
}

// submitCommand is the `argo submit` line for a run with the template's default parameters.
func submitCommand(namespace, name string, params []param) string {
	parts := []string{"argo submit --from", "workflowtemplate/" + name, "-n", namespace}
	for _, p := range params {
		parts = append(parts, "-p", shellQuote(p.Name+"="+p.Value))
	}
	return strings.Join(parts, " ")
}

// submitManifest is the Workflow that submitCommand would create, for `kubectl create -f`: named
// by the API server from generateName, as the argo CLI's are.
func submitManifest(namespace, name string, params []param) (string, error) {
	spec := map[string]any{"workflowTemplateRef": map[string]any{"name": name}}
	if len(params) > 0 {
		ps := make([]any, 0, len(params))
		for _, p := range params {
			ps = append(ps, map[string]any{"name": p.Name, "value": p.Value})
		}
		spec["arguments"] = map[string]any{"parameters": ps}
	}
	b, err := yaml.Marshal(map[string]any{
		"apiVersion": wfv1.SchemeGroupVersion.String(), "kind": workflow.WorkflowKind,
		"metadata": map[string]any{"generateName": name + "-", "namespace": namespace},
		"spec":     spec,
	})
	return string(b), err
}

var shellSafe = regexp.MustCompile(`^[A-Za-z0-9_./:=@%+,-]+$`)

func shellQuote(s string) string {
	if shellSafe.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// graceSeconds parses a validated termination_grace_period.
func graceSeconds(v types.String) int64 {
	d, err := time.ParseDuration(v.ValueString())
	if err != nil {
		return 0
	}
	return int64(d / time.Second)
}

func stringList(ctx context.Context, v types.List, diags *diag.Diagnostics) []string {
	if v.IsNull() || v.IsUnknown() {
		return nil
	}
	var out []string
	diags.Append(v.ElementsAs(ctx, &out, false)...)
	return out
}
