package validate

import (
	"context"
	"slices"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// For the parity test (package validate_test, which needs acctest and so cannot be package
// validate: acctest imports the provider, which imports this package).

// EngineKinds are the group-kinds the engine holds a CRD of, sorted.
func EngineKinds() []schema.GroupKind {
	var out []schema.GroupKind
	for gk := range sources() {
		out = append(out, gk)
	}
	slices.SortFunc(out, func(a, b schema.GroupKind) int {
		if a.Group != b.Group {
			if a.Group < b.Group {
				return -1
			}
			return 1
		}
		if a.Kind < b.Kind {
			return -1
		}
		if a.Kind > b.Kind {
			return 1
		}
		return 0
	})
	return out
}

// BuiltinKinds are the built-in group-kinds the engine judges as the apiserver does, sorted: the
// ones the provider writes.
func BuiltinKinds() []schema.GroupKind {
	var out []schema.GroupKind
	for gk := range builtins {
		out = append(out, gk)
	}
	slices.SortFunc(out, func(a, b schema.GroupKind) int { return strings.Compare(a.String(), b.String()) })
	return out
}

// EngineCRD is the CRD the engine validates gk against.
func EngineCRD(gk schema.GroupKind) (*apiextensionsv1.CustomResourceDefinition, error) {
	return sources()[gk]()
}

// CRDStep is Object without the admission step: what the apiserver decides from the CRD alone,
// which is what a dry-run create judges when no webhook is installed (Argo has none at all).
func CRDStep(ctx context.Context, obj any) (field.ErrorList, error) {
	errs, _, _, err := checkCRD(ctx, obj, false)
	return errs, err
}
