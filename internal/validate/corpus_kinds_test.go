package validate_test

import (
	"context"
	"fmt"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/validate"
)

// maxDepth bounds how many properties below the object the corpus walks: Argo's schemas are
// huge (a template holds a whole pod spec), so they are sampled near the top.
func maxDepth(gk schema.GroupKind) int {
	if gk.Group == "argoproj.io" {
		return 6
	}
	return 12
}

// gvkOf is the group, version and kind of obj.
func gvkOf(obj map[string]any) schema.GroupVersionKind {
	return (&unstructured.Unstructured{Object: obj}).GroupVersionKind()
}

// servedVersion is version of crd, with its schema.
func servedVersion(crd *apiextensionsv1.CustomResourceDefinition, version string) (*apiextensionsv1.CustomResourceDefinitionVersion, error) {
	for i, v := range crd.Spec.Versions {
		if v.Name == version && v.Served && v.Schema != nil && v.Schema.OpenAPIV3Schema != nil {
			return &crd.Spec.Versions[i], nil
		}
	}
	return nil, fmt.Errorf("CRD %s serves no version %s with a schema", crd.Name, version)
}

// kindCorpus is the corpus of base's kind, from crd, with the CEL rules broken where it can.
// A namespaced kind's base object is put in namespace.
func kindCorpus(ctx context.Context, crd *apiextensionsv1.CustomResourceDefinition, base map[string]any, namespace string) (*corpus, map[string]string, error) {
	gvk := gvkOf(base)
	if crd.Spec.Scope == apiextensionsv1.NamespaceScoped {
		base = runtime.DeepCopyJSON(base)
		base["metadata"].(map[string]any)["namespace"] = namespace
	}
	v, err := servedVersion(crd, gvk.Version)
	if err != nil {
		return nil, nil, err
	}
	c := newCorpus(v.Schema.OpenAPIV3Schema, base, maxDepth(gvk.GroupKind()))
	c.scale(v.Subresources)
	c.cases = append(c.cases, handWritten(gvk.Kind, base)...)
	unbroken, err := c.breakRules(ctx)
	return c, unbroken, err
}

// TestCorpus_everyKindHasAValidBase needs no cluster: each kind the engine knows has a base
// object, which the engine accepts, and a corpus.
func TestCorpus_everyKindHasAValidBase(t *testing.T) {
	bases := map[schema.GroupKind]map[string]any{}
	for _, b := range baseObjects() {
		bases[gvkOf(b).GroupKind()] = b
	}
	for _, gk := range validate.EngineKinds() {
		base, ok := bases[gk]
		if !ok {
			t.Errorf("%s: no base object in corpus_base_test.go", gk)
			continue
		}
		crd, err := validate.EngineCRD(gk)
		if err != nil {
			t.Fatal(err)
		}
		c, unbroken, err := kindCorpus(context.Background(), crd, base, "parity")
		if err != nil {
			t.Fatal(err)
		}
		if errs, err := validate.CRDStep(context.Background(), c.base); err != nil || len(errs) > 0 {
			t.Errorf("%s: the base object is refused: %v %v", gk, err, errs)
		}
		t.Logf("%s: %d objects, %d schema nodes walked, %d not (deeper than %d), %d CEL rules, %d not broken",
			gk.Kind, len(c.cases)+1, c.walked, c.skipped, maxDepth(gk), len(c.rules), len(unbroken))
		checkRulesBroken(t, gk.Kind, unbroken)
	}
}

// checkRulesBroken lists the rules the corpus does not break and fails on any but a transition
// rule: the engine does not run it, or it needs a hand-written object (corpus_handwritten_test.go).
func checkRulesBroken(t *testing.T, kind string, unbroken map[string]string) {
	t.Helper()
	for r, why := range unbroken {
		if why == transitionRule {
			t.Logf("  %s rule not broken: %s (%s)", kind, r, why)
		} else {
			t.Errorf("%s rule not broken: %s (%s): does the engine run it? else add a hand-written object", kind, r, why)
		}
	}
}
