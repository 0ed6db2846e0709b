package validate

import (
	"context"
	"fmt"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// BenchmarkValidateCompile is what a provider process pays once per kind: parsing the CRD and
// building its structural schema, schema validator and CEL programs (a ClusterQueue, and the
// largest CRD written, Argo's WorkflowTemplate).
func BenchmarkValidateCompile(b *testing.B) {
	for _, k := range copiedKinds {
		if k.Kind != "ClusterQueue" && k.Kind != "WorkflowTemplate" {
			continue
		}
		src := sources()[k.GroupKind]
		version := "v1beta2"
		if k.Group == argoGroup {
			version = "v1alpha1"
		}
		b.Run(k.Kind, func(b *testing.B) {
			for b.Loop() {
				if _, err := compile(src, version); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkValidate100Objects validates a W100 plan's objects: 50 ClusterQueues and 50
// NodePools, compiled once before.
func BenchmarkValidate100Objects(b *testing.B) {
	var objs []map[string]any
	for i := range 50 {
		cq := clusterQueue(nil)
		cq["metadata"] = map[string]any{"name": fmt.Sprintf("team-%d", i)}
		objs = append(objs, cq, nodePool(map[string]any{"key": "node.kubernetes.io/instance-type", "operator": "In", "values": []any{"p4d.24xlarge"}}))
	}
	ctx := context.Background()
	for _, o := range objs[:2] {
		if _, err := Object(ctx, o); err != nil {
			b.Fatal(err)
		}
	}
	for b.Loop() {
		for _, o := range objs {
			if errs, err := Object(ctx, o); err != nil || len(errs) > 0 {
				b.Fatal(err, errs)
			}
		}
	}
}

// BenchmarkAdmission is the admission steps alone (BenchmarkValidate100Objects includes them): the
// W100 plan's Kueue objects (50 ResourceFlavors, 50 ClusterQueues) through Kueue's validating
// webhooks, then through its mutating ones, and one WorkflowTemplate through Argo's validator.
func BenchmarkAdmission(b *testing.B) {
	ctx := context.Background()
	var kueue []map[string]any
	for i := range 50 {
		rf := resourceFlavor(map[string]any{"nodeLabels": map[string]any{"gpu": fmt.Sprintf("a100-%d", i)}})
		cq := clusterQueue(nil)
		cq["metadata"] = map[string]any{"name": fmt.Sprintf("team-%d", i)}
		kueue = append(kueue, rf, cq)
	}
	run := func(b *testing.B, objs []map[string]any) {
		us := make([]map[string]any, len(objs))
		gvks := make([]schema.GroupVersionKind, len(objs))
		for i, o := range objs {
			us[i], gvks[i] = o, schema.FromAPIVersionAndKind(o["apiVersion"].(string), o["kind"].(string))
		}
		for b.Loop() {
			for i, u := range us {
				if errs, err := admit(ctx, gvks[i], u); err != nil || len(errs) > 0 {
					b.Fatal(err, errs)
				}
			}
		}
	}
	b.Run("W100Kueue", func(b *testing.B) { run(b, kueue) })
	// The mutating webhooks before the CRD step, on a fresh copy each time: on its own result a
	// defaulter changes nothing, and the handler then patches nothing.
	b.Run("W100KueueMutating", func(b *testing.B) {
		for b.Loop() {
			for _, o := range kueue {
				gvk := schema.FromAPIVersionAndKind(o["apiVersion"].(string), o["kind"].(string))
				u, err := toJSONMap(o)
				if err != nil {
					b.Fatal(err)
				}
				if _, errs, err := mutate(ctx, gvk, u); err != nil || len(errs) > 0 {
					b.Fatal(err, errs)
				}
			}
		}
	})
	b.Run("WorkflowTemplate", func(b *testing.B) { run(b, []map[string]any{workflowTemplate("train", "trainer:1")}) })
}

// BenchmarkValidate100BuiltinObjects is the built-in kinds' step on 100 objects: what 12 teams
// write (namespace, service account, two Roles and RoleBindings, the project policy and its
// binding) and 4 GPU Operator ConfigMaps.
func BenchmarkValidate100BuiltinObjects(b *testing.B) {
	var objs []map[string]any
	for i := range 12 {
		ns := fmt.Sprintf("team-%d", i)
		role := map[string]any{"rules": []any{map[string]any{"apiGroups": []any{"argoproj.io"}, "resources": []any{"workflows"}, "verbs": []any{"get", "create"}}}}
		binding := map[string]any{"roleRef": map[string]any{"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": "member"},
			"subjects": []any{map[string]any{"kind": "ServiceAccount", "name": "runner", "namespace": ns}, map[string]any{"kind": "Group", "name": "nlp"}}}
		objs = append(objs,
			builtinObject("v1", "Namespace", "", ns, nil),
			builtinObject("v1", "ServiceAccount", ns, "runner", nil),
			builtinObject("rbac.authorization.k8s.io/v1", "Role", ns, "member", role),
			builtinObject("rbac.authorization.k8s.io/v1", "Role", ns, "executor", role),
			builtinObject("rbac.authorization.k8s.io/v1", "RoleBinding", ns, "member", binding),
			builtinObject("rbac.authorization.k8s.io/v1", "RoleBinding", ns, "executor", binding),
			builtinObject("admissionregistration.k8s.io/v1", "ValidatingAdmissionPolicy", "", "require-project-"+ns,
				policySpecWith(`"mlplatform.io/project"`, "has(object.metadata.labels) && variables.projectLabel in object.metadata.labels")),
			builtinObject("admissionregistration.k8s.io/v1", "ValidatingAdmissionPolicyBinding", "", "require-project-"+ns, map[string]any{"spec": map[string]any{
				"policyName": "require-project-" + ns, "validationActions": []any{"Deny"},
				"matchResources": map[string]any{"namespaceSelector": map[string]any{"matchLabels": map[string]any{"kubernetes.io/metadata.name": ns}}}}}))
	}
	for i := range 4 {
		objs = append(objs, builtinObject("v1", "ConfigMap", "gpu-operator", fmt.Sprintf("config-%d", i), map[string]any{
			"data": map[string]any{"config.yaml": "version: v1\nmig-configs:\n  all-1g.10gb: []\n"}}))
	}
	ctx := context.Background()
	run := func(b *testing.B, objs []map[string]any) {
		for b.Loop() {
			for _, o := range objs {
				if errs, err := Object(ctx, o); err != nil || len(errs) > 0 {
					b.Fatal(err, errs)
				}
			}
		}
	}
	b.Run("All", func(b *testing.B) { run(b, objs) })
	b.Run("Policies", func(b *testing.B) {
		var policies []map[string]any
		for _, o := range objs {
			if o["kind"] == "ValidatingAdmissionPolicy" {
				policies = append(policies, o)
			}
		}
		run(b, policies)
	})
}
