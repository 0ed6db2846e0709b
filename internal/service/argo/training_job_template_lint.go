package argo

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	wfv1 "github.com/argoproj/argo-workflows/v3/pkg/apis/workflow/v1alpha1"
	"github.com/argoproj/argo-workflows/v3/workflow/validate"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
)

// lintPlan runs Argo's own WorkflowTemplate validator at plan on the object apply would write,
// once every input of the expansion is known, and turns a refusal into an error on the
// attribute it comes from. It makes no API call: the only template Argo may look up is the one
// being planned.
func lintPlan(ctx context.Context, p *framework.ProviderData, req resource.ModifyPlanRequest, m *trainingJobTemplateModel, diags *diag.Diagnostics) {
	if diags.HasError() || !known(m) || !req.Config.Raw.IsFullyKnown() {
		return
	}
	diags.Append(lintModel(ctx, p, m)...)
}

// lintModel expands a fully known model as apply would and runs Argo's validator on the result.
func lintModel(ctx context.Context, p *framework.ProviderData, m *trainingJobTemplateModel) diag.Diagnostics {
	var diags diag.Diagnostics
	meta := framework.ObjectMetaFor(ctx, p, &m.Metadata, m.Namespace.ValueString(), &diags)
	wt, d := expandTyped(ctx, m, meta)
	if diags.Append(d...); diags.HasError() {
		return diags
	}
	if err := lintWorkflowTemplate(wt); err != nil {
		diags.Append(argoRefusal(m, wt, err))
	}
	return diags
}

// expandTyped is the WorkflowTemplate Expand builds, read back from the body apply sends.
func expandTyped(ctx context.Context, m *trainingJobTemplateModel, meta framework.ObjectMeta) (*wfv1.WorkflowTemplate, diag.Diagnostics) {
	body, diags := trainingJobTemplate{}.Expand(ctx, m, meta)
	if diags.HasError() {
		return nil, diags
	}
	obj, ok := body.(map[string]any)
	if !ok {
		diags.AddError("Building the WorkflowTemplate", fmt.Sprintf("unexpected body %T", body))
		return nil, diags
	}
	wt := &wfv1.WorkflowTemplate{}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(obj, wt); err != nil {
		diags.AddError("Building the WorkflowTemplate", err.Error())
		return nil, diags
	}
	return wt, diags
}

// lintMu serialises the validator: it numbers its placeholders with a package-level counter
// that is not safe for concurrent use, and Terraform plans resources in parallel.
var lintMu sync.Mutex

// lintWorkflowTemplate is what `argo lint --offline` does for one WorkflowTemplate: Argo's
// validator with lint options and in-memory getters that know only the template itself.
// A panic in the validator (argoproj/argo-workflows#14968: a missing template with
// spec.podMetadata set, fixed after v3.7.3) is an error, not a crash of the provider.
func lintWorkflowTemplate(wt *wfv1.WorkflowTemplate) (err error) {
	lintMu.Lock()
	defer lintMu.Unlock()
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the validator panicked: %v", r)
		}
	}()
	return validate.ValidateWorkflowTemplate(offlineTemplates{wt}, offlineClusterTemplates{}, wt, nil,
		validate.ValidateOpts{Lint: true})
}

// offlineTemplates resolves a templateRef to the template being planned and to nothing else.
type offlineTemplates struct{ self *wfv1.WorkflowTemplate }

func (o offlineTemplates) Get(name string) (*wfv1.WorkflowTemplate, error) {
	if name == o.self.Name {
		return o.self, nil
	}
	return nil, fmt.Errorf("couldn't find workflow template %q in namespace %q", name, o.self.Namespace)
}

type offlineClusterTemplates struct{}

func (offlineClusterTemplates) Get(name string) (*wfv1.ClusterWorkflowTemplate, error) {
	return nil, fmt.Errorf("couldn't find cluster workflow template %q", name)
}

const lintSummary = "Refused by Argo's WorkflowTemplate validator"

// argoRefusal is an error on the attribute Argo's message points at, quoting the message; on the
// resource as a whole when it points at nothing a user sets.
func argoRefusal(m *trainingJobTemplateModel, wt *wfv1.WorkflowTemplate, err error) diag.Diagnostic {
	msg := err.Error()
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
