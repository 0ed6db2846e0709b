package validate_test

import (
	"encoding/base64"
	"strings"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// The corpus of TestAccParity_BuiltinKinds: for each built-in kind the provider writes (the
// engine's, TestBuiltinCorpus_everyBuiltinKind), a valid object like the provider's and changes
// to it, each judged on a fresh copy.

type builtinKindCorpus struct {
	kind  string
	gvr   schema.GroupVersionResource
	base  func() map[string]any
	cases []builtinCase
}

type builtinCase struct {
	name   string
	change func(obj map[string]any)
	gap    string // why the engine does not cover the rule the case breaks; "" when it does
}

func builtinCorpus(namespace, prefix string) []builtinKindCorpus {
	core := schema.GroupVersion{Version: "v1"}
	rbac := schema.GroupVersion{Group: "rbac.authorization.k8s.io", Version: "v1"}
	adm := schema.GroupVersion{Group: "admissionregistration.k8s.io", Version: "v1"}
	obj := func(gv schema.GroupVersion, kind, ns string, extra map[string]any) func() map[string]any {
		return func() map[string]any {
			meta := map[string]any{"name": prefix + "-obj", "labels": map[string]any{"mlplatform.io/team": "nlp"},
				"annotations": map[string]any{"mlplatform.io/owner": "mlplatform_team.nlp"}}
			if ns != "" {
				meta["namespace"] = ns
			}
			o := map[string]any{"apiVersion": gv.String(), "kind": kind, "metadata": meta}
			for k, v := range runtime.DeepCopyJSON(extra) {
				o[k] = v
			}
			return o
		}
	}
	rule := map[string]any{"apiGroups": []any{"argoproj.io"}, "resources": []any{"workflowtaskresults"}, "verbs": []any{"create", "patch"}}
	return []builtinKindCorpus{
		{"Namespace", core.WithResource("namespaces"), obj(core, "Namespace", "", nil),
			append(metadataCases(prefix, 63), namespaceCases()...)},
		{"ServiceAccount", core.WithResource("serviceaccounts"), obj(core, "ServiceAccount", namespace, nil),
			metadataCases(prefix, 253)},
		{"ConfigMap", core.WithResource("configmaps"), obj(core, "ConfigMap", namespace, map[string]any{
			"data": map[string]any{"config.yaml": "version: v1\n"}}),
			append(metadataCases(prefix, 253), configMapCases()...)},
		{"Secret", core.WithResource("secrets"), obj(core, "Secret", namespace, map[string]any{
			"type": "Opaque", "data": map[string]any{"kubeconfig": "eA=="}}),
			append(metadataCases(prefix, 253), secretCases()...)},
		{"Role", rbac.WithResource("roles"), obj(rbac, "Role", namespace, map[string]any{"rules": []any{rule}}),
			append(metadataCases(prefix, 0), roleCases()...)},
		{"RoleBinding", rbac.WithResource("rolebindings"), obj(rbac, "RoleBinding", namespace, map[string]any{
			"roleRef": map[string]any{"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": "mlplatform-team-member"},
			"subjects": []any{
				map[string]any{"kind": "ServiceAccount", "name": "training-workflow", "namespace": namespace},
				map[string]any{"apiGroup": "rbac.authorization.k8s.io", "kind": "Group", "name": "nlp-engineers"},
				map[string]any{"apiGroup": "rbac.authorization.k8s.io", "kind": "User", "name": "alice@example.com"},
			}}),
			append(metadataCases(prefix, 0), roleBindingCases()...)},
		{"ValidatingAdmissionPolicy", adm.WithResource("validatingadmissionpolicies"), obj(adm, "ValidatingAdmissionPolicy", "", projectPolicy()),
			append(metadataCases(prefix, 253), policyCases()...)},
		{"ValidatingAdmissionPolicyBinding", adm.WithResource("validatingadmissionpolicybindings"), obj(adm, "ValidatingAdmissionPolicyBinding", "", map[string]any{
			"spec": map[string]any{"policyName": "mlplatform-require-project-nlp", "validationActions": []any{"Deny"},
				"matchResources": map[string]any{"namespaceSelector": map[string]any{"matchLabels": map[string]any{"kubernetes.io/metadata.name": "nlp"}}}}}),
			append(metadataCases(prefix, 253), policyBindingCases()...)},
	}
}

// metadataCases break what every kind's metadata check sees. nameLimit is the name's length
// limit (0: none, RBAC's path segment names). A finalizer name that is neither standard nor
// qualified is refused by core validation's ValidateObjectMeta (core and RBAC kinds), not by
// apimachinery's (the admissionregistration kinds).
func metadataCases(prefix string, nameLimit int) []builtinCase {
	set := func(v any, path ...string) func(map[string]any) {
		return func(o map[string]any) { setPath(o, v, path...) }
	}
	labels := func(k, v string) func(map[string]any) {
		return set(map[string]any{"mlplatform.io/team": "nlp", k: v}, "metadata", "labels")
	}
	limit, long := nameLimit, nameLimit+1
	if nameLimit == 0 {
		limit, long = 253, 300
	}
	return []builtinCase{
		{name: "base object", change: func(map[string]any) {}},
		{name: "name at the length limit", change: set(prefix+strings.Repeat("a", limit-len(prefix)), "metadata", "name")},
		{name: "name too long", change: set(prefix+strings.Repeat("a", long-len(prefix)), "metadata", "name")},
		{name: "name upper case", change: set(prefix+"-Team", "metadata", "name")},
		{name: "name with '_'", change: set(prefix+"_team", "metadata", "name")},
		{name: "name with '.'", change: set(prefix+".team", "metadata", "name")},
		{name: "name ending in '-'", change: set(prefix+"-", "metadata", "name")},
		{name: "name with '/'", change: set(prefix+"/team", "metadata", "name")},
		{name: "name with '%'", change: set(prefix+"%team", "metadata", "name")},
		{name: "name '..'", change: set("..", "metadata", "name")},
		{name: "label key with a space", change: labels("bad key", "x")},
		{name: "label key name too long", change: labels("example.com/"+strings.Repeat("k", 64), "x")},
		{name: "label key prefix too long", change: labels(strings.Repeat("p", 254)+"/k", "x")},
		{name: "label key prefix upper case", change: labels("Example.com/k", "x")},
		{name: "label value too long", change: labels("k", strings.Repeat("v", 64))},
		{name: "label value at the limit", change: labels("k", strings.Repeat("v", 63))},
		{name: "label value with a space", change: labels("k", "a b")},
		{name: "label value starting with '-'", change: labels("k", "-v")},
		{name: "label value empty", change: labels("k", "")},
		{name: "annotation key with a space", change: set(map[string]any{"bad key": "x"}, "metadata", "annotations")},
		{name: "annotations at the size limit", change: set(map[string]any{"k": strings.Repeat("x", 256*1024-1)}, "metadata", "annotations")},
		{name: "annotations over the size limit", change: set(map[string]any{"k": strings.Repeat("x", 256*1024)}, "metadata", "annotations")},
		{name: "finalizer qualified", change: set([]any{"example.com/cleanup"}, "metadata", "finalizers")},
		{name: "finalizer standard", change: set([]any{"orphan"}, "metadata", "finalizers")},
		{name: "finalizer with a space", change: set([]any{"example.com/clean up"}, "metadata", "finalizers")},
		{name: "finalizer neither standard nor qualified (refused by core validation only)", change: set([]any{"cleanup"}, "metadata", "finalizers")},
		{name: "finalizer twice", change: set([]any{"example.com/a", "example.com/a"}, "metadata", "finalizers")},
	}
}

func namespaceCases() []builtinCase {
	set := func(v any) func(map[string]any) {
		return func(o map[string]any) { setPath(o, v, "spec", "finalizers") }
	}
	return []builtinCase{
		{name: "spec finalizer kubernetes", change: set([]any{"kubernetes"})},
		{name: "spec finalizer qualified", change: set([]any{"example.com/x"})},
		{name: "spec finalizer neither standard nor qualified", change: set([]any{"custom"})},
		{name: "spec finalizer with a space", change: set([]any{"example.com/a b"})},
	}
}

func configMapCases() []builtinCase {
	data := func(field string, m map[string]any) func(map[string]any) {
		return func(o map[string]any) { o[field] = m }
	}
	return []builtinCase{
		{name: "key with '_', '-' and '.'", change: data("data", map[string]any{"_a-b.c": "x"})},
		{name: "key with a space", change: data("data", map[string]any{"a b": "x"})},
		{name: "key with '/'", change: data("data", map[string]any{"a/b": "x"})},
		{name: "key '..'", change: data("data", map[string]any{"..": "x"})},
		{name: "key starting with '..'", change: data("data", map[string]any{"..a": "x"})},
		{name: "key too long", change: data("data", map[string]any{strings.Repeat("k", 254): "x"})},
		{name: "key at the length limit", change: data("data", map[string]any{strings.Repeat("k", 253): "x"})},
		{name: "binaryData key bad", change: data("binaryData", map[string]any{"a b": "eA=="})},
		{name: "key in data and binaryData", change: data("binaryData", map[string]any{"config.yaml": "eA=="})},
		{name: "data at the size limit", change: data("data", map[string]any{"a": strings.Repeat("x", 1<<20)})},
		{name: "data over the size limit", change: data("data", map[string]any{"a": strings.Repeat("x", 1<<19), "b": strings.Repeat("x", 1<<19+1)})},
	}
}

func secretCases() []builtinCase {
	data := func(m map[string]any) func(map[string]any) {
		return func(o map[string]any) { o["data"] = m }
	}
	return []builtinCase{
		{name: "secret key with a space", change: data(map[string]any{"a b": "eA=="})},
		{name: "secret key '..'", change: data(map[string]any{"..": "eA=="})},
		{name: "secret data over the size limit", change: data(map[string]any{"a": base64.StdEncoding.EncodeToString(make([]byte, 1<<20+1))})},
	}
}

func roleCases() []builtinCase {
	rules := func(r ...map[string]any) func(map[string]any) {
		return func(o map[string]any) {
			l := make([]any, len(r))
			for i := range r {
				l[i] = r[i]
			}
			o["rules"] = l
		}
	}
	return []builtinCase{
		{name: "no rules", change: rules()},
		{name: "empty verbs", change: rules(map[string]any{"apiGroups": []any{""}, "resources": []any{"pods"}, "verbs": []any{}})},
		{name: "no apiGroups", change: rules(map[string]any{"resources": []any{"pods"}, "verbs": []any{"get"}})},
		{name: "no resources", change: rules(map[string]any{"apiGroups": []any{""}, "verbs": []any{"get"}})},
		{name: "nothing but verbs, in the second rule", change: rules(
			map[string]any{"apiGroups": []any{""}, "resources": []any{"pods"}, "verbs": []any{"get"}}, map[string]any{"verbs": []any{"get"}})},
		{name: "non-resource URLs in a namespaced role", change: rules(map[string]any{"nonResourceURLs": []any{"/healthz"}, "verbs": []any{"get"}})},
		{name: "non-resource URLs with resources", change: rules(map[string]any{"nonResourceURLs": []any{"/healthz"}, "apiGroups": []any{""},
			"resources": []any{"pods"}, "verbs": []any{"get"}})},
		{name: "wildcards", change: rules(map[string]any{"apiGroups": []any{"*"}, "resources": []any{"*"}, "verbs": []any{"*"}})},
	}
}

func roleBindingCases() []builtinCase {
	ref := func(k string, v any) func(map[string]any) {
		return func(o map[string]any) { setPath(o, v, "roleRef", k) }
	}
	subject := func(s map[string]any) func(map[string]any) {
		return func(o map[string]any) { o["subjects"] = append(o["subjects"].([]any), s) }
	}
	return []builtinCase{
		{name: "roleRef apiGroup empty (defaulted)", change: ref("apiGroup", "")},
		{name: "roleRef apiGroup other", change: ref("apiGroup", "example.com")},
		{name: "roleRef kind ClusterRole", change: ref("kind", "ClusterRole")},
		{name: "roleRef kind other", change: ref("kind", "Policy")},
		{name: "roleRef name empty", change: ref("name", "")},
		{name: "roleRef name with '/'", change: ref("name", "a/b")},
		{name: "roleRef name upper case", change: ref("name", "Member")},
		{name: "no subjects", change: func(o map[string]any) { delete(o, "subjects") }},
		{name: "subject kind other", change: subject(map[string]any{"kind": "Robot", "name": "r2"})},
		{name: "subject name empty", change: subject(map[string]any{"apiGroup": "rbac.authorization.k8s.io", "kind": "User", "name": ""})},
		{name: "service account name upper case", change: subject(map[string]any{"kind": "ServiceAccount", "name": "Runner", "namespace": "nlp"})},
		{name: "service account with apiGroup", change: subject(map[string]any{"apiGroup": "rbac.authorization.k8s.io", "kind": "ServiceAccount", "name": "runner"})},
		{name: "service account without namespace", change: subject(map[string]any{"kind": "ServiceAccount", "name": "runner"})},
		{name: "user without apiGroup (defaulted)", change: subject(map[string]any{"kind": "User", "name": "bob"})},
		{name: "group with apiGroup other", change: subject(map[string]any{"apiGroup": "example.com", "kind": "Group", "name": "ops"})},
		{name: "user name with spaces and ':'", change: subject(map[string]any{"kind": "User", "name": "system:serviceaccount:a b"})},
	}
}

// projectPolicy is what mlplatform_team writes (internal/service/team/team_policy.go).
func projectPolicy() map[string]any {
	return map[string]any{"spec": map[string]any{
		"failurePolicy": "Fail",
		"matchConstraints": map[string]any{"resourceRules": []any{map[string]any{
			"operations": []any{"CREATE"}, "apiGroups": []any{""}, "apiVersions": []any{"v1"}, "resources": []any{"pods"}}}},
		"variables": []any{map[string]any{"name": "projectLabel", "expression": `"mlplatform.io/project"`}},
		"validations": []any{map[string]any{
			"expression": "has(object.metadata.labels) && variables.projectLabel in object.metadata.labels && " +
				"object.metadata.labels[variables.projectLabel] != ''",
			"message": "pods in namespace nlp must carry the label mlplatform.io/project", "reason": "Forbidden"}},
	}}
}

func policyCases() []builtinCase {
	set := func(v any, path ...string) func(map[string]any) {
		return func(o map[string]any) { setPath(o, v, path...) }
	}
	variable := func(name, expr string) func(map[string]any) {
		return set([]any{map[string]any{"name": name, "expression": expr}}, "spec", "variables")
	}
	validation := func(v map[string]any) func(map[string]any) { return set([]any{v}, "spec", "validations") }
	notCovered := "not covered: upstream's check lives in k8s.io/kubernetes and the provider writes a constant there"
	return []builtinCase{
		{name: "project label with odd characters", change: variable("projectLabel", `"example.com/a_b.c-d"`)},
		{name: "variable expression does not parse", change: variable("projectLabel", `"unterminated`)},
		{name: "variable expression empty", change: variable("projectLabel", " ")},
		{name: "variable name not an identifier", change: variable("project-label", `"k"`)},
		{name: "variable name reserved", change: variable("in", `"k"`)},
		{name: "variable unused by a rule", change: variable("other", `"k"`)},
		{name: "rule names a missing variable", change: validation(map[string]any{"expression": "variables.nope == 'x'"})},
		{name: "rule does not parse", change: validation(map[string]any{"expression": "object.metadata.labels["})},
		{name: "rule is not a bool", change: validation(map[string]any{"expression": "'yes'"})},
		{name: "rule empty", change: validation(map[string]any{"expression": ""})},
		{name: "rule uses authorizer", change: validation(map[string]any{"expression": "authorizer.group('').resource('pods').check('get').allowed()"})},
		{name: "message with a line break", change: validation(map[string]any{"expression": "true", "message": "one\ntwo"})},
		{name: "message blank", change: validation(map[string]any{"expression": "true", "message": "  "})},
		{name: "messageExpression not a string", change: validation(map[string]any{"expression": "true", "messageExpression": "1"})},
		{name: "messageExpression blank", change: validation(map[string]any{"expression": "true", "messageExpression": " "})},
		{name: "reason other", change: validation(map[string]any{"expression": "true", "reason": "Conflict"})},
		{name: "reason Invalid", change: validation(map[string]any{"expression": "true", "reason": "Invalid"})},
		{name: "no validations", change: func(o map[string]any) { delete(o["spec"].(map[string]any), "validations") }},
		{name: "namespaceSelector label value bad", change: set(map[string]any{"matchLabels": map[string]any{"team": "a b"}},
			"spec", "matchConstraints", "namespaceSelector")},
		{name: "objectSelector operator bad", change: set(map[string]any{"matchExpressions": []any{
			map[string]any{"key": "team", "operator": "Like", "values": []any{"nlp"}}}}, "spec", "matchConstraints", "objectSelector")},
		{name: "failurePolicy other", change: set("Sometimes", "spec", "failurePolicy"), gap: notCovered},
		{name: "matchPolicy other", change: set("Sloppy", "spec", "matchConstraints", "matchPolicy"), gap: notCovered},
		{name: "no matchConstraints", change: func(o map[string]any) { delete(o["spec"].(map[string]any), "matchConstraints") }, gap: notCovered},
		{name: "resource rule operation other", change: set([]any{map[string]any{"operations": []any{"PATCH"}, "apiGroups": []any{""},
			"apiVersions": []any{"v1"}, "resources": []any{"pods"}}}, "spec", "matchConstraints", "resourceRules"), gap: notCovered},
		{name: "resource rule without resources", change: set([]any{map[string]any{"operations": []any{"CREATE"}, "apiGroups": []any{""},
			"apiVersions": []any{"v1"}}}, "spec", "matchConstraints", "resourceRules"), gap: notCovered},
		{name: "matchCondition does not parse", change: set([]any{map[string]any{"name": "c", "expression": "("}}, "spec", "matchConditions"),
			gap: "not covered: the provider writes no matchConditions"},
		{name: "auditAnnotation key bad", change: set([]any{map[string]any{"key": "a b", "valueExpression": "'x'"}}, "spec", "auditAnnotations"),
			gap: "not covered: the provider writes no auditAnnotations"},
	}
}

func policyBindingCases() []builtinCase {
	set := func(v any, path ...string) func(map[string]any) {
		return func(o map[string]any) { setPath(o, v, path...) }
	}
	selector := func(v any) func(map[string]any) { return set(v, "spec", "matchResources", "namespaceSelector") }
	notCovered := "not covered: upstream's check lives in k8s.io/kubernetes and the provider writes a constant there"
	return []builtinCase{
		{name: "policyName with '_'", change: set("team_policy", "spec", "policyName")},
		{name: "policyName empty", change: set("", "spec", "policyName")},
		{name: "policyName too long", change: set(strings.Repeat("p", 254), "spec", "policyName")},
		{name: "namespace selector value too long", change: selector(map[string]any{"matchLabels": map[string]any{"kubernetes.io/metadata.name": strings.Repeat("n", 64)}})},
		{name: "namespace selector key bad", change: selector(map[string]any{"matchLabels": map[string]any{"bad key": "nlp"}})},
		{name: "namespace selector In without values", change: selector(map[string]any{"matchExpressions": []any{
			map[string]any{"key": "team", "operator": "In"}}})},
		{name: "namespace selector Exists with values", change: selector(map[string]any{"matchExpressions": []any{
			map[string]any{"key": "team", "operator": "Exists", "values": []any{"x"}}}})},
		{name: "object selector value bad", change: set(map[string]any{"matchLabels": map[string]any{"team": "-x"}}, "spec", "matchResources", "objectSelector")},
		{name: "no matchResources", change: func(o map[string]any) { delete(o["spec"].(map[string]any), "matchResources") }},
		{name: "validationActions empty", change: set([]any{}, "spec", "validationActions"), gap: notCovered},
		{name: "validationActions Deny and Warn", change: set([]any{"Deny", "Warn"}, "spec", "validationActions"), gap: notCovered},
		{name: "validationActions other", change: set([]any{"Block"}, "spec", "validationActions"), gap: notCovered},
		{name: "paramRef without name or selector", change: set(map[string]any{"parameterNotFoundAction": "Deny"}, "spec", "paramRef"),
			gap: "not covered: the provider writes no paramRef"},
	}
}

// setPath sets obj's field at path, making the maps on the way.
func setPath(obj map[string]any, v any, path ...string) {
	m := obj
	for _, k := range path[:len(path)-1] {
		next, ok := m[k].(map[string]any)
		if !ok {
			next = map[string]any{}
			m[k] = next
		}
		m = next
	}
	m[path[len(path)-1]] = v
}
