package validate

import (
	"context"
	"embed"
	"strings"
	"sync"

	"github.com/argoproj/argo-workflows/v3/pkg/apis/workflow"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Argo Workflows v4's install applies its full CRDs (v3's applies schemaless ones), and they
// carry rules v3's lack, e.g. a pattern on CronWorkflow schedules. The provider compiles in v3's
// API and validator only, so the Argo kinds it writes are also checked against v4's CRDs, copied
// into crds/argo4 from the version tools/argo4 pins: what a v4 cluster would refuse is refused at
// plan.

//go:embed crds/argo4/*.yaml
var argo4Files embed.FS

var argo4Kinds = []copiedKind{
	{schema.GroupKind{Group: argoGroup, Kind: workflow.WorkflowTemplateKind}, workflow.WorkflowTemplatePlural},
	{schema.GroupKind{Group: argoGroup, Kind: workflow.CronWorkflowKind}, workflow.CronWorkflowPlural},
}

// Argo4CRDFiles are the names of the CRD files crds/argo4 holds; `go generate` refreshes them.
func Argo4CRDFiles() []string {
	out := make([]string, len(argo4Kinds))
	for i, k := range argo4Kinds {
		out[i] = k.file()
	}
	return out
}

var argo4Sources = sync.OnceValue(func() map[schema.GroupKind]crdSource {
	out := map[schema.GroupKind]crdSource{}
	for _, k := range argo4Kinds {
		out[k.GroupKind] = func() (*apiextensionsv1.CustomResourceDefinition, error) {
			return readCRDFrom(argo4Files, "crds/argo4/"+k.file())
		}
	}
	return out
})

var argo4Compiled sync.Map // schema.GroupVersionKind -> *lazyKind

// argo4Copy is a copy of u, the object as sent, for checkArgo4 (v4's apiserver prunes and
// defaults it by its own schema), or nil for a kind v4's CRDs do not hold.
func argo4Copy(gvk schema.GroupVersionKind, u map[string]any) map[string]any {
	if _, ok := argo4Sources()[gvk.GroupKind()]; !ok {
		return nil
	}
	return runtime.DeepCopyJSON(u)
}

// checkArgo4 runs v4's CRD step on sent, argo4Copy's copy; nil passes. Its errors say that they
// are v4's.
func checkArgo4(ctx context.Context, gvk schema.GroupVersionKind, sent map[string]any) (field.ErrorList, error) {
	if sent == nil {
		return nil, nil
	}
	src := argo4Sources()[gvk.GroupKind()]
	l, _ := argo4Compiled.LoadOrStore(gvk, &lazyKind{})
	lk := l.(*lazyKind)
	lk.once.Do(func() { lk.v, lk.err = compile(src, gvk.Version) })
	if lk.err != nil {
		return nil, lk.err
	}
	lk.v.decode(sent)
	errs := lk.v.validate(ctx, sent)
	for _, e := range errs {
		e.Detail = strings.TrimSuffix("Argo Workflows v4's CRD: "+e.Detail, ": ")
	}
	return errs, nil
}
