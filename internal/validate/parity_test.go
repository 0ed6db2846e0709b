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
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/diff"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/validate"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/validate/parity"
)

// crdStep judges as the CRD step alone, the judge of this parity.
func crdStep(ctx context.Context, obj map[string]any) (field.ErrorList, error) {
	return validate.CRDStep(ctx, obj)
}

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
	namespace := parityNamespace(t, kubernetes.NewForConfigOrDie(cfg), "parity-crd")
	var objects, agreed int
	for _, base := range parity.BaseObjects() {
		gvk := parity.GVKOf(base)
		t.Run(gvk.Kind, func(t *testing.T) {
			crd, err := parity.ServedCRD(ctx, crds, gvk.GroupKind())
			if err != nil {
				t.Fatal(err)
			}
			sameSchema(t, crd, gvk)
			c, unbroken, err := parity.ForKind(ctx, crd, base, namespace, crdStep)
			if err != nil {
				t.Fatal(err)
			}
			gvr := gvk.GroupVersion().WithResource(crd.Spec.Names.Plural)
			cases := append([]parity.Case{{Change: "base object", Obj: c.Base}}, c.Cases...)
			var disagree, otherFields []string
			for _, cc := range cases {
				engine := parity.EngineVerdict(crdStep(ctx, cc.Obj))
				api, _, err := parity.APIServerVerdict(ctx, dyn, gvr, cc.Obj)
				if err != nil {
					t.Fatal(err)
				}
				if engine.Refused != api.Refused {
					disagree = append(disagree, fmt.Sprintf("%s:\n    engine: %s\n    apiserver: %s", cc, engine, api))
				} else if !slices.Equal(engine.Fields, api.Fields) {
					otherFields = append(otherFields, fmt.Sprintf("%s: engine %v, apiserver %v", cc, engine.Fields, api.Fields))
				}
			}
			objects += len(cases)
			agreed += len(cases) - len(disagree)
			t.Logf("%s: %d objects (%d schema nodes walked, %d deeper than %d not), %d CEL rules, %d not broken; verdicts agree on %d/%d",
				gvk.Kind, len(cases), c.Walked, c.Skipped, parity.MaxDepth(gvk.GroupKind()), len(c.Rules), len(unbroken), len(cases)-len(disagree), len(cases))
			parity.CheckRulesBroken(t, gvk.Kind, unbroken)
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

// parityNamespace is a namespace of this run and test for the namespaced kinds' dry runs,
// deleted at the test's end (each test its own: one's cleanup must not race another's create).
func parityNamespace(t *testing.T, cs kubernetes.Interface, test string) string {
	t.Helper()
	name := acctest.Name(test)
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}
	if _, err := cs.CoreV1().Namespaces().Create(context.Background(), ns, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.CoreV1().Namespaces().Delete(context.Background(), name, metav1.DeleteOptions{}) })
	return name
}
