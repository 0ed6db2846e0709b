package validate_test

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiextensionsclient "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/diff"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/validate"
)

// TestAccParity_CRDStep proves that the engine judges objects as the apiserver's CRD step does
// (structural schema, defaults, metadata, list types, CEL rules): for each kind the engine knows,
// a corpus generated from the CRD the apiserver serves is judged by validate.CRDStep (Object
// without its admission step) and by a
// server-side dry-run create, and every verdict must agree. The cluster runs no Kueue (see
// TestMain): admission webhooks are not part of this step. The apiserver's CRD must also have
// the engine's schema, so a pinned version's upgrade cannot bring a rule the engine misses.
func TestAccParity_CRDStep(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("needs the apiserver: set TF_ACC=1")
	}
	start := time.Now()
	ctx := context.Background()
	cfg := acctest.RestConfig(t)
	crds := apiextensionsclient.NewForConfigOrDie(cfg).ApiextensionsV1().CustomResourceDefinitions()
	// Client-side rate limiting (5 requests a second by default) would be most of the run time.
	cfg.QPS, cfg.Burst = 200, 200
	dyn := dynamic.NewForConfigOrDie(cfg)
	namespace := parityNamespace(t, kubernetes.NewForConfigOrDie(cfg))
	var objects, agreed int
	for _, base := range baseObjects() {
		gvk := gvkOf(base)
		t.Run(gvk.Kind, func(t *testing.T) {
			crd := servedCRD(t, ctx, crds, gvk.GroupKind())
			sameSchema(t, crd, gvk)
			c, unbroken, err := kindCorpus(ctx, crd, base, namespace)
			if err != nil {
				t.Fatal(err)
			}
			gvr := gvk.GroupVersion().WithResource(crd.Spec.Names.Plural)
			cases := append([]corpusCase{{Change: "base object", Obj: c.base}}, c.cases...)
			var disagree, otherFields []string
			for _, cc := range cases {
				engine := engineVerdict(t, ctx, cc.Obj)
				api := apiserverVerdict(t, ctx, dyn, gvr, cc.Obj)
				if engine.refused != api.refused {
					disagree = append(disagree, fmt.Sprintf("%s:\n    engine: %s\n    apiserver: %s", cc, engine, api))
				} else if !slices.Equal(engine.fields, api.fields) {
					otherFields = append(otherFields, fmt.Sprintf("%s: engine %v, apiserver %v", cc, engine.fields, api.fields))
				}
			}
			objects += len(cases)
			agreed += len(cases) - len(disagree)
			t.Logf("%s: %d objects (%d schema nodes walked, %d deeper than %d not), %d CEL rules, %d not broken; verdicts agree on %d/%d",
				gvk.Kind, len(cases), c.walked, c.skipped, maxDepth(gvk.GroupKind()), len(c.rules), len(unbroken), len(cases)-len(disagree), len(cases))
			checkRulesBroken(t, gvk.Kind, unbroken)
			// Said, not failed: parity is of verdicts; the fields show where the sides' reasons part.
			t.Logf("%s: the same error fields (none when accepted) on %d/%d objects", gvk.Kind, len(cases)-len(disagree)-len(otherFields), len(cases)-len(disagree))
			for _, f := range otherFields {
				t.Logf("  fields differ: %s", f)
			}
			if len(disagree) > 0 {
				t.Errorf("%d verdicts differ:\n  %s", len(disagree), strings.Join(disagree, "\n  "))
			}
		})
	}
	t.Logf("all kinds: verdicts agree on %d/%d objects, in %s", agreed, objects, time.Since(start).Round(time.Second))
}

// verdict is one side's judgement of an object.
type verdict struct {
	refused bool
	why     string
	fields  []string // the fields of the errors, sorted, once each
}

func (v verdict) String() string {
	if !v.refused {
		return "accepted"
	}
	return "refused: " + v.why
}

func engineVerdict(t *testing.T, ctx context.Context, obj map[string]any) verdict {
	t.Helper()
	errs, err := validate.CRDStep(ctx, obj)
	if err != nil {
		t.Fatal(err)
	}
	if len(errs) == 0 {
		return verdict{}
	}
	var fields []string
	for _, e := range errs {
		fields = append(fields, e.Field)
	}
	return verdict{refused: true, why: errs.ToAggregate().Error(), fields: sortedSet(fields)}
}

func sortedSet(s []string) []string {
	slices.Sort(s)
	return slices.Compact(s)
}

// apiserverVerdict creates obj with a server-side dry run: the apiserver judges it fully and
// stores nothing.
func apiserverVerdict(t *testing.T, ctx context.Context, dyn dynamic.Interface, gvr schema.GroupVersionResource, obj map[string]any) verdict {
	t.Helper()
	u := &unstructured.Unstructured{Object: obj}
	_, err := dyn.Resource(gvr).Namespace(u.GetNamespace()).Create(ctx, u, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
	switch {
	case err == nil:
		return verdict{}
	case apierrors.IsInvalid(err) || apierrors.IsBadRequest(err):
		var fields []string
		if status, ok := err.(apierrors.APIStatus); ok && status.Status().Details != nil {
			for _, c := range status.Status().Details.Causes {
				fields = append(fields, c.Field)
			}
		}
		return verdict{refused: true, why: err.Error(), fields: sortedSet(fields)}
	}
	t.Fatalf("dry-run create of %s: %v", u.GetKind(), err)
	return verdict{}
}

// servedCRD is the CRD of gk the apiserver serves.
func servedCRD(t *testing.T, ctx context.Context, crds interface {
	List(context.Context, metav1.ListOptions) (*apiextensionsv1.CustomResourceDefinitionList, error)
}, gk schema.GroupKind) *apiextensionsv1.CustomResourceDefinition {
	t.Helper()
	list, err := crds.List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i, crd := range list.Items {
		if crd.Spec.Group == gk.Group && crd.Spec.Names.Kind == gk.Kind {
			return &list.Items[i]
		}
	}
	t.Fatalf("the apiserver serves no CRD of %s", gk)
	return nil
}

// sameSchema fails when the apiserver's CRD and the engine's differ in any version's schema or
// subresources: the corpus is generated from the apiserver's, so a rule the engine lacks would
// otherwise go untested whenever the generator cannot reach it. (TestCRDCopiesArePinnedVersions
// checks crds/ against the module cache the local control plane installs from; this checks any
// cluster's, KUBECONFIG's included.)
func sameSchema(t *testing.T, served *apiextensionsv1.CustomResourceDefinition, gvk schema.GroupVersionKind) {
	t.Helper()
	engine, err := validate.EngineCRD(gvk.GroupKind())
	if err != nil {
		t.Fatal(err)
	}
	type version struct {
		Schema       *apiextensionsv1.CustomResourceValidation
		Subresources *apiextensionsv1.CustomResourceSubresources
	}
	versions := func(crd *apiextensionsv1.CustomResourceDefinition) map[string]version {
		out := map[string]version{}
		for _, v := range crd.Spec.Versions {
			if v.Served {
				out[v.Name] = version{v.Schema, v.Subresources}
			}
		}
		return out
	}
	if want, got := versions(engine), versions(served); !equality.Semantic.DeepEqual(want, got) {
		t.Errorf("the apiserver's CRD of %s differs from the engine's; after an upgrade, run `go generate ./internal/validate`:\n%s",
			gvk.GroupKind(), diff.Diff(want, got))
	}
}

// parityNamespace is a namespace of this run for the namespaced kinds' dry runs, deleted at the end.
func parityNamespace(t *testing.T, cs kubernetes.Interface) string {
	t.Helper()
	name := acctest.Name("validate-parity")
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}
	if _, err := cs.CoreV1().Namespaces().Create(context.Background(), ns, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.CoreV1().Namespaces().Delete(context.Background(), name, metav1.DeleteOptions{}) })
	return name
}
