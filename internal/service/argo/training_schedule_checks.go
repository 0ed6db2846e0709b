package argo

import (
	"context"
	"fmt"
	"strings"
	"time"

	wfv1 "github.com/argoproj/argo-workflows/v3/pkg/apis/workflow/v1alpha1"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
)

// CheckBeforeApply checks, before the CronWorkflow is written, that the template it names exists
// in the namespace and declares every parameter it overrides: Argo itself would only find out at
// the first scheduled run (a missing template fails the run; an undeclared parameter is ignored).
// A template that cannot be read for another reason is a warning, not a refusal.
func (trainingSchedule) CheckBeforeApply(ctx context.Context, pd *framework.ProviderData, m *trainingScheduleModel) diag.Diagnostics {
	c := pd.Client
	var diags diag.Diagnostics
	ns, name := m.Namespace.ValueString(), m.Template.ValueString()
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	obj, err := c.Get(ctx, workflowTemplateKind, ns, name)
	if kube.IsNotFound(err) {
		diags.AddAttributeError(path.Root("template"), "Template not found", fmt.Sprintf(
			"Attribute template: WorkflowTemplate %s/%s does not exist, so every scheduled run would fail. Create it "+
				"first; a template of the same configuration is created first when `template` refers to its `name` "+
				"(e.g. mlplatform_training_job_template.x.name).", ns, name))
		return diags
	}
	var wt wfv1.WorkflowTemplate
	if err == nil {
		err = runtime.DefaultUnstructuredConverter.FromUnstructured(obj.Object, &wt)
	}
	if err != nil {
		diags.AddWarning("Template not checked", fmt.Sprintf("WorkflowTemplate %s/%s could not be read: %v", ns, name, err))
		return diags
	}
	declared := map[string]bool{}
	names := []string{}
	for _, p := range wt.Spec.Arguments.Parameters {
		declared[p.Name] = true
		names = append(names, p.Name)
	}
	list := strings.Join(names, ", ")
	if len(names) == 0 {
		list = "none"
	}
	for _, k := range sortedKeys(framework.StringMap(ctx, m.Parameters, &diags)) {
		if !declared[k] {
			p := path.Root("parameters").AtMapKey(k)
			diags.AddAttributeError(p, "Parameter not declared by the template", fmt.Sprintf(
				"Attribute %s: WorkflowTemplate %s/%s declares no parameter %q (it declares: %s); Argo would ignore the value.",
				p, ns, name, k, list))
		}
	}
	return diags
}
