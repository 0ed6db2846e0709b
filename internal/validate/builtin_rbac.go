package validate

import (
	"context"

	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/api/validate/content"
	metavalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Role and RoleBinding, as k8s.io/kubernetes v1.35 pkg/apis/rbac/validation/validation.go checks
// them (pkg/registry/rbac/{role,rolebinding}/strategy.go). RoleBinding's strategy also runs
// declarative validation with migration checks, which in 1.35 returns the same errors.

// rbacName is ValidateRBACName (validation.go:33): names are only path segments.
func rbacName(name string, _ bool) []string { return content.IsPathSegmentName(name) }

// validateRole is ValidateRole (validation.go:37).
func validateRole(_ context.Context, u map[string]any) (field.ErrorList, error) {
	role, err := typed[rbacv1.Role](u)
	if err != nil {
		return nil, err
	}
	errs := kubeObjectMeta(&role.ObjectMeta, true, rbacName)
	for i, rule := range role.Rules {
		errs = append(errs, policyRule(rule, true, field.NewPath("rules").Index(i))...)
	}
	return errs, nil
}

// policyRule is ValidatePolicyRule (validation.go:107).
func policyRule(rule rbacv1.PolicyRule, namespaced bool, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if len(rule.Verbs) == 0 {
		errs = append(errs, field.Required(p.Child("verbs"), "verbs must contain at least one value"))
	}
	if len(rule.NonResourceURLs) > 0 {
		if namespaced {
			errs = append(errs, field.Invalid(p.Child("nonResourceURLs"), rule.NonResourceURLs, "namespaced rules cannot apply to non-resource URLs"))
		}
		if len(rule.APIGroups) > 0 || len(rule.Resources) > 0 || len(rule.ResourceNames) > 0 {
			errs = append(errs, field.Invalid(p.Child("nonResourceURLs"), rule.NonResourceURLs, "rules cannot apply to both regular resources and non-resource URLs"))
		}
		return errs
	}
	if len(rule.APIGroups) == 0 {
		errs = append(errs, field.Required(p.Child("apiGroups"), "resource rules must supply at least one api group"))
	}
	if len(rule.Resources) == 0 {
		errs = append(errs, field.Required(p.Child("resources"), "resource rules must supply at least one resource"))
	}
	return errs
}

// validateRoleBinding is ValidateRoleBinding (validation.go:131) after rbac/v1's defaults
// (pkg/apis/rbac/v1/defaults.go:33-49: roleRef.apiGroup, and a subject's apiGroup by its kind).
func validateRoleBinding(_ context.Context, u map[string]any) (field.ErrorList, error) {
	rb, err := typed[rbacv1.RoleBinding](u)
	if err != nil {
		return nil, err
	}
	if rb.RoleRef.APIGroup == "" {
		rb.RoleRef.APIGroup = rbacv1.GroupName
	}
	for i := range rb.Subjects {
		if s := &rb.Subjects[i]; s.APIGroup == "" && (s.Kind == rbacv1.UserKind || s.Kind == rbacv1.GroupKind) {
			s.APIGroup = rbacv1.GroupName
		}
	}
	errs := kubeObjectMeta(&rb.ObjectMeta, true, rbacName)
	ref := field.NewPath("roleRef")
	if rb.RoleRef.APIGroup != rbacv1.GroupName {
		errs = append(errs, field.NotSupported(ref.Child("apiGroup"), rb.RoleRef.APIGroup, []string{rbacv1.GroupName}))
	}
	switch rb.RoleRef.Kind {
	case "Role", "ClusterRole":
	default:
		errs = append(errs, field.NotSupported(ref.Child("kind"), rb.RoleRef.Kind, []string{"Role", "ClusterRole"}))
	}
	if rb.RoleRef.Name == "" {
		errs = append(errs, field.Required(ref.Child("name"), ""))
	} else {
		for _, msg := range rbacName(rb.RoleRef.Name, false) {
			errs = append(errs, field.Invalid(ref.Child("name"), rb.RoleRef.Name, msg))
		}
	}
	for i, s := range rb.Subjects {
		errs = append(errs, bindingSubject(s, field.NewPath("subjects").Index(i))...)
	}
	return errs, nil
}

// bindingSubject is ValidateRoleBindingSubject (validation.go:225) of a namespaced binding.
func bindingSubject(s rbacv1.Subject, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if s.Name == "" {
		errs = append(errs, field.Required(p.Child("name"), ""))
	}
	switch s.Kind {
	case rbacv1.ServiceAccountKind:
		if s.Name != "" {
			for _, msg := range metavalidation.ValidateServiceAccountName(s.Name, false) {
				errs = append(errs, field.Invalid(p.Child("name"), s.Name, msg))
			}
		}
		if s.APIGroup != "" {
			errs = append(errs, field.NotSupported(p.Child("apiGroup"), s.APIGroup, []string{""}))
		}
	case rbacv1.UserKind, rbacv1.GroupKind:
		if s.APIGroup != rbacv1.GroupName {
			errs = append(errs, field.NotSupported(p.Child("apiGroup"), s.APIGroup, []string{rbacv1.GroupName}))
		}
	default:
		errs = append(errs, field.NotSupported(p.Child("kind"), s.Kind, []string{rbacv1.ServiceAccountKind, rbacv1.UserKind, rbacv1.GroupKind}))
	}
	return errs
}
