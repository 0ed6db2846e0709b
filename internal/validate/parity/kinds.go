package parity

import (
	"context"
	"fmt"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// MaxDepth bounds how many properties below the object the corpus walks: Argo's schemas are
// huge (a template holds a whole pod spec), so they are sampled near the top.
func MaxDepth(gk schema.GroupKind) int {
	if gk.Group == "argoproj.io" {
		return 6
	}
	return 12
}

// GVKOf is the group, version and kind of obj.
func GVKOf(obj map[string]any) schema.GroupVersionKind {
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

// Judge is an engine's judgement of an object: its refusals (none when accepted), or an error
// when it cannot judge it.
type Judge func(ctx context.Context, obj map[string]any) (field.ErrorList, error)

// ForKind is the corpus of base's kind, from crd, with the CEL rules broken where it can (judge
// picks the objects that break them). A namespaced kind's base object is put in namespace. The
// rules no object breaks are returned with why.
func ForKind(ctx context.Context, crd *apiextensionsv1.CustomResourceDefinition, base map[string]any, namespace string, judge Judge) (*Corpus, map[string]string, error) {
	gvk := GVKOf(base)
	if crd.Spec.Scope == apiextensionsv1.NamespaceScoped {
		base = runtime.DeepCopyJSON(base)
		base["metadata"].(map[string]any)["namespace"] = namespace
	}
	v, err := servedVersion(crd, gvk.Version)
	if err != nil {
		return nil, nil, err
	}
	c := newCorpus(v.Schema.OpenAPIV3Schema, base, MaxDepth(gvk.GroupKind()))
	c.scale(v.Subresources)
	c.Cases = append(c.Cases, handWritten(gvk.Kind, base)...)
	unbroken, err := c.breakRules(ctx, judge)
	return c, unbroken, err
}

// CheckRulesBroken lists the rules the corpus does not break and fails on any but a transition
// rule: the engine does not run it, or it needs a hand-written object (handwritten.go).
func CheckRulesBroken(t testing.TB, kind string, unbroken map[string]string) {
	t.Helper()
	for r, why := range unbroken {
		if why == TransitionRule {
			t.Logf("  %s rule not broken: %s (%s)", kind, r, why)
		} else {
			t.Errorf("%s rule not broken: %s (%s): does the engine run it? else add a hand-written object", kind, r, why)
		}
	}
}
