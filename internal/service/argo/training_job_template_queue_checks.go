package argo

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/framework"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/queue"
)

// CheckBeforeApply checks, before the WorkflowTemplate is written, that Kueue could ever admit one
// of its pods through the named LocalQueue: otherwise every run would stay pending, and the ML
// engineer who submits it, not the platform team, would find out (training_job_template_queue.go).
// A cluster without Kueue is a warning (the queue label then does nothing).
func (trainingJobTemplate) CheckBeforeApply(ctx context.Context, pd *framework.ProviderData, m *trainingJobTemplateModel) diag.Diagnostics {
	c := pd.Client
	var diags diag.Diagnostics
	if m.Queue.IsNull() {
		return diags
	}
	ns, name := m.Namespace.ValueString(), m.Queue.ValueString()
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	target, err := queue.Read(ctx, c, ns, name)
	var notInstalled *kube.NotInstalledError
	switch {
	case errors.As(err, &notInstalled):
		diags.AddAttributeWarning(path.Root("queue"), "Queue not checked", fmt.Sprintf(
			"Attribute queue: %v. Without Kueue the queue label does nothing and runs start at once.", err))
		return diags
	case kube.IsNotFound(err):
		diags.AddAttributeError(path.Root("queue"), "Queue not found", fmt.Sprintf(
			"Attribute queue: %v, so no run of this template could be admitted. Create the LocalQueue in namespace %s "+
				"first; one of the same configuration is created first when `queue` refers to its name "+
				"(e.g. mlplatform_local_queue.x.name).", err, ns))
		return diags
	case err != nil:
		diags.AddAttributeError(path.Root("queue"), "Queue not readable", fmt.Sprintf("Attribute queue: %v", err))
		return diags
	}
	p, d := resolve(ctx, m)
	if diags.Append(d...); diags.HasError() {
		return diags
	}
	for _, f := range queueFindings(m, p, ns, name, target) {
		f.AddTo(&diags)
	}
	return diags
}
