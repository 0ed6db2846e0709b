package validate

import (
	"context"
	"slices"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// The built-in kinds' step: what a team and the NVIDIA ConfigMaps write is accepted, and a
// mistake is refused at the field the apiserver names (TestAccParity_BuiltinKinds proves the
// verdicts against a real apiserver).
func TestBuiltinKinds(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name   string
		obj    map[string]any
		fields []string // nil: accepted
	}{
		{"namespace", builtinObject("v1", "Namespace", "", "nlp", nil), nil},
		{"namespace name", builtinObject("v1", "Namespace", "", "NLP", nil), []string{"metadata.name"}},
		{"label value", builtinObject("v1", "Namespace", "", "nlp", map[string]any{
			"metadata": map[string]any{"name": "nlp", "labels": map[string]any{"team": "a b"}}}), []string{"metadata.labels"}},
		{"annotations size", builtinObject("v1", "ServiceAccount", "nlp", "runner", map[string]any{
			"metadata": map[string]any{"name": "runner", "namespace": "nlp", "annotations": map[string]any{"a": strings.Repeat("x", 256*1024)}}}),
			[]string{"metadata.annotations"}},
		{"configmap key", builtinObject("v1", "ConfigMap", "gpu-operator", "mig", map[string]any{"data": map[string]any{"a b": "x"}}),
			[]string{"data[a b]"}},
		{"configmap size", builtinObject("v1", "ConfigMap", "gpu-operator", "mig", map[string]any{"data": map[string]any{"a": strings.Repeat("x", 1<<20+1)}}),
			[]string{"[]"}}, // upstream's field.NewPath(""), the whole object
		{"secret", builtinObject("v1", "Secret", "kueue-system", "worker-a", map[string]any{"data": map[string]any{"kubeconfig": "eA=="}}), nil},
		{"secret key", builtinObject("v1", "Secret", "kueue-system", "worker-a", map[string]any{"data": map[string]any{"kube config": "eA=="}}),
			[]string{"data[kube config]"}},
		{"role", builtinObject("rbac.authorization.k8s.io/v1", "Role", "nlp", "Member_Role", map[string]any{
			"rules": []any{map[string]any{"apiGroups": []any{""}, "resources": []any{"pods"}, "verbs": []any{"get"}}}}), nil},
		{"role verbs", builtinObject("rbac.authorization.k8s.io/v1", "Role", "nlp", "member", map[string]any{
			"rules": []any{map[string]any{"apiGroups": []any{""}, "resources": []any{"pods"}}}}), []string{"rules[0].verbs"}},
		{"binding defaults", builtinObject("rbac.authorization.k8s.io/v1", "RoleBinding", "nlp", "member", map[string]any{
			"roleRef":  map[string]any{"kind": "Role", "name": "member"},
			"subjects": []any{map[string]any{"kind": "User", "name": "alice"}, map[string]any{"kind": "ServiceAccount", "name": "runner", "namespace": "nlp"}}}), nil},
		{"binding subject", builtinObject("rbac.authorization.k8s.io/v1", "RoleBinding", "nlp", "member", map[string]any{
			"roleRef":  map[string]any{"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": "member"},
			"subjects": []any{map[string]any{"kind": "ServiceAccount", "name": "Runner"}}}), []string{"subjects[0].name"}},
		{"policy", builtinObject("admissionregistration.k8s.io/v1", "ValidatingAdmissionPolicy", "", "p", policySpecWith(`"mlplatform.io/project"`, "has(object.metadata.labels)")), nil},
		{"policy variable", builtinObject("admissionregistration.k8s.io/v1", "ValidatingAdmissionPolicy", "", "p", policySpecWith(`"unterminated`, "true")),
			[]string{"spec.variables[0].expression"}},
		{"policy rule", builtinObject("admissionregistration.k8s.io/v1", "ValidatingAdmissionPolicy", "", "p", policySpecWith(`"k"`, "variables.nope == 1")),
			[]string{"spec.validations[0].expression"}},
		{"binding selector", builtinObject("admissionregistration.k8s.io/v1", "ValidatingAdmissionPolicyBinding", "", "p", map[string]any{"spec": map[string]any{
			"policyName": "p", "validationActions": []any{"Deny"},
			"matchResources": map[string]any{"namespaceSelector": map[string]any{"matchLabels": map[string]any{"kubernetes.io/metadata.name": "-nlp"}}}}}),
			[]string{"spec.matchResources.namespaceSelector.matchLabels"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			gk := schema.FromAPIVersionAndKind(tc.obj["apiVersion"].(string), tc.obj["kind"].(string)).GroupKind()
			if !Known(gk) {
				t.Fatalf("Known(%s) = false", gk)
			}
			errs, err := Object(ctx, tc.obj)
			if err != nil {
				t.Fatal(err)
			}
			var fields []string
			for _, e := range errs {
				fields = append(fields, e.Field)
			}
			slices.Sort(fields)
			if !slices.Equal(slices.Compact(fields), tc.fields) {
				t.Errorf("fields %q, want %q: %v", fields, tc.fields, errs)
			}
		})
	}
}

// builtinObject is an object of a built-in kind with extra's top-level fields over its
// metadata.
func builtinObject(apiVersion, kind, namespace, name string, extra map[string]any) map[string]any {
	meta := map[string]any{"name": name}
	if namespace != "" {
		meta["namespace"] = namespace
	}
	obj := map[string]any{"apiVersion": apiVersion, "kind": kind, "metadata": meta}
	for k, v := range extra {
		obj[k] = v
	}
	return obj
}

// policySpecWith is the spec of a team's project policy with the variable's expression and the
// rule given.
func policySpecWith(variable, rule string) map[string]any {
	return map[string]any{"spec": map[string]any{
		"failurePolicy": "Fail",
		"matchConstraints": map[string]any{"resourceRules": []any{map[string]any{
			"operations": []any{"CREATE"}, "apiGroups": []any{""}, "apiVersions": []any{"v1"}, "resources": []any{"pods"}}}},
		"variables":   []any{map[string]any{"name": "projectLabel", "expression": variable}},
		"validations": []any{map[string]any{"expression": rule, "message": "pods must name their project", "reason": "Forbidden"}},
	}}
}
