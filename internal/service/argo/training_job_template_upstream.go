package argo

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	wfv1 "github.com/argoproj/argo-workflows/v3/pkg/apis/workflow/v1alpha1"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
)

// UpstreamRefusal words what the validate engine refuses in the WorkflowTemplate apply would
// write (at plan once every input of the expansion is known, and before the write) on the
// attribute the error points at: every refusal of Argo's validator, which names no field, and an
// error of the CRD whose field or message leads to an attribute.
func (trainingJobTemplate) UpstreamRefusal(m *trainingJobTemplateModel, o framework.Object, e *field.Error) (diag.Diagnostic, bool) {
	wt := &wfv1.WorkflowTemplate{}
	if obj, ok := o.Body.(map[string]any); ok {
		_ = runtime.DefaultUnstructuredConverter.FromUnstructured(obj, wt) // the engine read it already
	}
	if e.Field == "" {
		return argoRefusal(m, wt, e.Detail), true
	}
	p, ok := argoErrorPath(m, wt, e.Error())
	if !ok {
		return nil, false
	}
	return diag.NewAttributeErrorDiagnostic(p, crdSummary,
		fmt.Sprintf("Attribute %s: the apiserver would refuse the generated WorkflowTemplate: %s", p, e.Error())), true
}

const (
	lintSummary = "Refused by Argo's WorkflowTemplate validator"
	crdSummary  = "Refused by the WorkflowTemplate CRD"
)

// argoRefusal is an error on the attribute Argo's message points at, quoting the message; on the
// resource as a whole when it points at nothing a user sets.
func argoRefusal(m *trainingJobTemplateModel, wt *wfv1.WorkflowTemplate, msg string) diag.Diagnostic {
	if p, ok := argoErrorPath(m, wt, msg); ok {
		return diag.NewAttributeErrorDiagnostic(p, lintSummary,
			fmt.Sprintf("Attribute %s: Argo Workflows would refuse the generated WorkflowTemplate: %s", p, msg))
	}
	return diag.NewErrorDiagnostic(lintSummary,
		"Argo Workflows would refuse the generated WorkflowTemplate: "+msg)
}

var (
	argoParamIndex = regexp.MustCompile(`spec\.arguments\.parameters\[(\d+)\]`)
	argoParamName  = regexp.MustCompile(`spec\.arguments\.([A-Za-z0-9_-]+)\.`)
	argoMountIndex = regexp.MustCompile(`container\.volumeMounts\[(\d+)\]`)
	argoVariable   = regexp.MustCompile(`\{\{(.*?)\}\}`)
)

// argoErrorPath maps a message of Argo's validator to the attribute the generated field comes
// from.
func argoErrorPath(m *trainingJobTemplateModel, wt *wfv1.WorkflowTemplate, msg string) (path.Path, bool) {
	params := wt.Spec.Arguments.Parameters
	switch {
	case strings.HasPrefix(msg, "workflow template name"):
		return path.Root("name"), true
	case argoParamIndex.MatchString(msg):
		i, _ := strconv.Atoi(argoParamIndex.FindStringSubmatch(msg)[1])
		if i < len(params) {
			return paramPath(params[i].Name), true
		}
	case argoParamName.MatchString(msg):
		name := argoParamName.FindStringSubmatch(msg)[1]
		for _, pr := range params {
			if pr.Name == name {
				return paramPath(name), true
			}
		}
	case argoMountIndex.MatchString(msg):
		i, _ := strconv.Atoi(argoMountIndex.FindStringSubmatch(msg)[1])
		if c := wt.Spec.Templates[0].Container; c != nil && i < len(c.VolumeMounts) {
			return mountPath(c.VolumeMounts[i].Name)
		}
	case strings.Contains(msg, ".inputs.artifacts"):
		return path.Root("source"), true
	case strings.Contains(msg, "container.image"):
		return path.Root("image"), true
	case strings.Contains(msg, "podGC"):
		return path.Root("pod_gc"), true
	case strings.Contains(msg, "RetryPolicy"), strings.Contains(msg, "retryStrategy"):
		return path.Root("retry"), true
	case strings.Contains(msg, "activeDeadlineSeconds"):
		return path.Root("active_deadline"), true
	}
	if v := argoVariable.FindString(msg); v != "" {
		return userStringHolding(m, v)
	}
	for _, pr := range params {
		if strings.Contains(msg, "'"+pr.Name+"'") || strings.Contains(msg, `"`+pr.Name+`"`) {
			return paramPath(pr.Name), true
		}
	}
	return path.Empty(), false
}

func paramPath(name string) path.Path {
	if name == datasetParam {
		return path.Root("dataset_version")
	}
	return path.Root("hyperparameters").AtMapKey(name)
}

// mountPath is the attribute a volume mount of the generated container comes from.
func mountPath(name string) (path.Path, bool) {
	if name == shmVolume {
		return path.Root("hardware").AtName("shm_size_gb"), true
	}
	if i, err := strconv.Atoi(strings.TrimPrefix(name, "dataset-")); err == nil && strings.HasPrefix(name, "dataset-") {
		return path.Root("volumes").AtListIndex(i).AtName("mount_path"), true
	}
	return path.Empty(), false
}

// userStringHolding is the first user string that holds s.
func userStringHolding(m *trainingJobTemplateModel, s string) (path.Path, bool) {
	type attr struct {
		p path.Path
		v types.String
	}
	attrs := []attr{{path.Root("image"), m.Image}, {path.Root("training_script"), m.TrainingScript}}
	for _, l := range []struct {
		name string
		v    types.List
	}{{"command", m.Command}, {"args", m.Args}} {
		for i, e := range l.v.Elements() {
			if v, ok := e.(types.String); ok {
				attrs = append(attrs, attr{path.Root(l.name).AtListIndex(i), v})
			}
		}
	}
	for k, e := range m.Env.Elements() {
		if v, ok := e.(types.String); ok {
			attrs = append(attrs, attr{path.Root("env").AtMapKey(k), v})
		}
	}
	if c := m.Checkpoint; c != nil {
		attrs = append(attrs, attr{path.Root("checkpoint").AtName("uri"), c.URI})
	}
	if src := m.Source; src != nil {
		attrs = append(attrs, attr{path.Root("source").AtName("git_repo"), src.GitRepo}, attr{path.Root("source").AtName("revision"), src.Revision})
	}
	if tr := m.Tracking; tr != nil {
		attrs = append(attrs, attr{path.Root("tracking").AtName("uri"), tr.URI}, attr{path.Root("tracking").AtName("experiment"), tr.Experiment})
	}
	for i, v := range m.Volumes {
		attrs = append(attrs, attr{path.Root("volumes").AtListIndex(i).AtName("mount_path"), v.MountPath})
	}
	for _, a := range attrs {
		if strings.Contains(a.v.ValueString(), s) {
			return a.p, true
		}
	}
	return path.Empty(), false
}
