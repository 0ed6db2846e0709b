package validate

import (
	"context"
	"fmt"

	admissionv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/api/validate/content"
	metavalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// builtinKind is the apiserver's create validation of one built-in kind the provider writes (see
// internal/service/team/kinds.go and internal/kube/builtin_kinds.go): the kind's own Validate
// (its registry strategy in k8s.io/kubernetes, run on the object after defaulting), then, when
// that finds nothing, the generic metadata check every create gets (rest.ValidateCreate in
// k8s.io/apiserver). k8s.io/kubernetes is not importable here: a step calls the staging
// modules' functions where upstream does, and repeats inline, with the source line named, only
// the few lines upstream keeps in k8s.io/kubernetes (builtin_*.go).
type builtinKind struct {
	gv         schema.GroupVersion
	namespaced bool
	validate   func(ctx context.Context, u map[string]any) (field.ErrorList, error)
}

var builtins = map[schema.GroupKind]builtinKind{
	{Kind: "Namespace"}:                            {corev1.SchemeGroupVersion, false, validateNamespace},
	{Kind: "ServiceAccount"}:                       {corev1.SchemeGroupVersion, true, validateServiceAccount},
	{Kind: "ConfigMap"}:                            {corev1.SchemeGroupVersion, true, validateConfigMap},
	{Kind: "Secret"}:                               {corev1.SchemeGroupVersion, true, validateSecret},
	{Group: rbacv1.GroupName, Kind: "Role"}:        {rbacv1.SchemeGroupVersion, true, validateRole},
	{Group: rbacv1.GroupName, Kind: "RoleBinding"}: {rbacv1.SchemeGroupVersion, true, validateRoleBinding},
	{Group: admissionv1.GroupName, Kind: "ValidatingAdmissionPolicy"}:        {admissionv1.SchemeGroupVersion, false, validatePolicy},
	{Group: admissionv1.GroupName, Kind: "ValidatingAdmissionPolicyBinding"}: {admissionv1.SchemeGroupVersion, false, validatePolicyBinding},
}

// checkBuiltin judges u, an object of a built-in kind b, as a dry-run create would.
func checkBuiltin(ctx context.Context, b builtinKind, gvk schema.GroupVersionKind, u map[string]any) (field.ErrorList, error) {
	if gvk.GroupVersion() != b.gv {
		return nil, fmt.Errorf("the engine checks %s at %s only, not %s", gvk.GroupKind(), b.gv, gvk.Version)
	}
	errs, err := b.validate(ctx, u)
	if err != nil || len(errs) > 0 {
		return errs, err
	}
	// rest.ValidateCreate: "Do this *after* custom validation so that specific error messages are
	// shown whenever possible".
	meta := &metav1.ObjectMeta{}
	if err := fromMap(u["metadata"], meta); err != nil {
		return nil, err
	}
	return metavalidation.ValidateObjectMetaAccessor(meta, b.namespaced, pathSegmentName, field.NewPath("metadata")), nil
}

// pathSegmentName is apimachinery's deprecated path.ValidatePathSegmentName, which the apiserver
// passes there, for a name (not a prefix).
func pathSegmentName(name string, _ bool) []string { return content.IsPathSegmentName(name) }

// typed decodes u into upstream's typed object, as the apiserver decodes the request body.
func typed[T any](u map[string]any) (*T, error) {
	obj := new(T)
	if err := fromMap(u, obj); err != nil {
		return nil, err
	}
	return obj, nil
}

func fromMap(v any, into any) error {
	m, _ := v.(map[string]any)
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(m, into); err != nil {
		return convertError(fmt.Sprintf("%T", into), err)
	}
	return nil
}
