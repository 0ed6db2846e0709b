package validate

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/argoproj/argo-workflows/v3/pkg/apis/workflow"
	wfv1 "github.com/argoproj/argo-workflows/v3/pkg/apis/workflow/v1alpha1"
	argovalidate "github.com/argoproj/argo-workflows/v3/workflow/validate"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

func argoGVK(kind string) schema.GroupVersionKind { return wfv1.SchemeGroupVersion.WithKind(kind) }

// Argo has no admission webhook: the apiserver stores any WorkflowTemplate or CronWorkflow its
// CRD accepts, and argo-server (its create API, `argo lint`) and the workflow controller refuse
// them later with workflow/validate. The engine runs that validator as argo-server's create does,
// without workflow defaults (they live in the controller's ConfigMap, not in the object).

// admitWorkflowTemplate is argo-server's CreateWorkflowTemplate check. Lint options change nothing
// for a template (missing argument values are allowed either way).
func admitWorkflowTemplate(_ context.Context, u map[string]any) (field.ErrorList, error) {
	wt := &wfv1.WorkflowTemplate{}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u, wt); err != nil {
		return nil, convertError(workflow.WorkflowTemplateKind, err)
	}
	return argoVerdict(func(g *clusterTemplates) error {
		g.self = wt
		return argovalidate.ValidateWorkflowTemplate(namespacedTemplates{g}, clusterScopedTemplates{g}, wt, nil, argovalidate.ValidateOpts{})
	}), nil
}

// admitCronWorkflow is argo-server's CreateCronWorkflow check. A CronWorkflow that runs a
// workflowTemplateRef (every training schedule) is checked up to the point where Argo reads the
// template from the cluster (name length, schedules, concurrency policy, starting deadline); the
// rest needs the cluster and is skipped.
func admitCronWorkflow(ctx context.Context, u map[string]any) (field.ErrorList, error) {
	cw := &wfv1.CronWorkflow{}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u, cw); err != nil {
		return nil, convertError(workflow.CronWorkflowKind, err)
	}
	return argoVerdict(func(g *clusterTemplates) error {
		return argovalidate.ValidateCronWorkflow(ctx, namespacedTemplates{g}, clusterScopedTemplates{g}, cw, nil)
	}), nil
}

// argoMu serialises Argo's validator: it numbers placeholders with a package-level counter that
// is not safe for concurrent use, and Terraform plans resources in parallel.
var argoMu sync.Mutex

// argoVerdict runs one call of Argo's validator. Its errors are plain text. A call that needed a
// template from the cluster is no verdict: Argo stops there. A panic of the validator (as
// argoproj/argo-workflows#14968 was before v3.7.18) is a refusal, not a crash of the provider.
func argoVerdict(run func(*clusterTemplates) error) (errs field.ErrorList) {
	argoMu.Lock()
	defer argoMu.Unlock()
	defer func() {
		if r := recover(); r != nil {
			errs = field.ErrorList{textRefusal(fmt.Sprintf("the validator panicked: %v", r))}
		}
	}()
	g := &clusterTemplates{}
	err := run(g)
	if err == nil || g.needed {
		return nil
	}
	return field.ErrorList{textRefusal(err.Error())}
}

// clusterTemplates resolves a reference of a WorkflowTemplate to itself; any other template, and
// every ClusterWorkflowTemplate, is in the cluster, which a plan does not read: the getters record
// that Argo needed one.
type clusterTemplates struct {
	self   *wfv1.WorkflowTemplate
	needed bool
}

var errNeedsCluster = errors.New("the template is read from the cluster")

type namespacedTemplates struct{ *clusterTemplates }

func (g namespacedTemplates) Get(name string) (*wfv1.WorkflowTemplate, error) {
	if g.self != nil && name == g.self.Name {
		return g.self, nil
	}
	g.needed = true
	return nil, errNeedsCluster
}

type clusterScopedTemplates struct{ *clusterTemplates }

func (g clusterScopedTemplates) Get(string) (*wfv1.ClusterWorkflowTemplate, error) {
	g.needed = true
	return nil, errNeedsCluster
}
