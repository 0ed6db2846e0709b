package validate

import (
	"context"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// clusterQueue is a valid ClusterQueue with one resource group, changed by edit.
func clusterQueue(edit func(spec map[string]any)) map[string]any {
	spec := map[string]any{
		"namespaceSelector": map[string]any{},
		"resourceGroups": []any{map[string]any{
			"coveredResources": []any{"cpu", "nvidia.com/gpu"},
			"flavors": []any{map[string]any{
				"name": "a100",
				"resources": []any{
					map[string]any{"name": "cpu", "nominalQuota": "96"},
					map[string]any{"name": "nvidia.com/gpu", "nominalQuota": 8},
				},
			}},
		}},
	}
	if edit != nil {
		edit(spec)
	}
	return map[string]any{
		"apiVersion": "kueue.x-k8s.io/v1beta2",
		"kind":       "ClusterQueue",
		"metadata":   map[string]any{"name": "team-a"},
		"spec":       spec,
	}
}

func resourceGroup(spec map[string]any) map[string]any {
	return spec["resourceGroups"].([]any)[0].(map[string]any)
}

// mustValidate runs the engine and fails on an error of the engine itself.
func mustValidate(t *testing.T, obj any) field.ErrorList {
	t.Helper()
	errs, err := Object(context.Background(), obj)
	if err != nil {
		t.Fatal(err)
	}
	return errs
}

// wantErrors checks that errs are exactly the upstream errors want, as the apiserver prints them.
func wantErrors(t *testing.T, errs field.ErrorList, want ...string) {
	t.Helper()
	var got []string
	for _, e := range errs {
		got = append(got, e.Error())
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("errors:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// notChecked is what the apiserver adds when an error leaves the CEL rules unchecked.
const notChecked = "<nil>: Invalid value: null: some validation rules were not checked because the object was invalid; " +
	"correct the existing errors to complete validation"

func TestObject_validClusterQueue(t *testing.T) {
	wantErrors(t, mustValidate(t, clusterQueue(nil)))
}

func TestObject_clusterQueueEnum(t *testing.T) {
	errs := mustValidate(t, clusterQueue(func(spec map[string]any) { spec["queueingStrategy"] = "LIFO" }))
	wantErrors(t, errs,
		`spec.queueingStrategy: Unsupported value: "LIFO": supported values: "StrictFIFO", "BestEffortFIFO"`,
		notChecked)
	if errs[0].Type != field.ErrorTypeNotSupported {
		t.Errorf("type %s, want NotSupported", errs[0].Type)
	}
}

func TestObject_clusterQueueMaxItems(t *testing.T) {
	errs := mustValidate(t, clusterQueue(func(spec map[string]any) {
		rg := resourceGroup(spec)
		covered := []any{}
		for i := range 65 {
			covered = append(covered, "example.com/r"+string(rune('a'+i%26))+string(rune('a'+i/26)))
		}
		rg["coveredResources"] = covered
	}))
	wantErrors(t, errs,
		"spec.resourceGroups[0].coveredResources: Too many: 65: must have at most 64 items",
		notChecked)
}

func TestObject_clusterQueueCELRule(t *testing.T) {
	errs := mustValidate(t, clusterQueue(func(spec map[string]any) {
		r := resourceGroup(spec)["flavors"].([]any)[0].(map[string]any)["resources"].([]any)[1].(map[string]any)
		r["borrowingLimit"] = "4"
	}))
	wantErrors(t, errs, `spec: Invalid value: borrowingLimit must be nil when cohort is empty`)
	withCohort := clusterQueue(func(spec map[string]any) {
		spec["cohortName"] = "research"
		r := resourceGroup(spec)["flavors"].([]any)[0].(map[string]any)["resources"].([]any)[1].(map[string]any)
		r["borrowingLimit"] = "4"
	})
	wantErrors(t, mustValidate(t, withCohort))
}

func TestObject_clusterQueueCELRuleOnAListItem(t *testing.T) {
	errs := mustValidate(t, clusterQueue(func(spec map[string]any) {
		resourceGroup(spec)["coveredResources"] = []any{"cpu", "nvidia.com/gpu", "memory"}
	}))
	wantErrors(t, errs,
		`spec.resourceGroups[0]: Invalid value: flavors must have the same number of resources as the coveredResources`)
}

func TestObject_defaultsBeforeValidating(t *testing.T) {
	// stopPolicy defaults to None, which the enum accepts; the caller's object is not changed.
	obj := clusterQueue(nil)
	wantErrors(t, mustValidate(t, &unstructured.Unstructured{Object: obj}))
	if _, set := obj["spec"].(map[string]any)["stopPolicy"]; set {
		t.Error("the caller's object was defaulted")
	}
}

func TestObject_metadata(t *testing.T) {
	obj := clusterQueue(nil)
	obj["metadata"] = map[string]any{"name": "Team_A", "labels": map[string]any{"team": "a b"}}
	errs := mustValidate(t, obj)
	if len(errs) != 2 || errs[0].Field != "metadata.name" || errs[1].Field != "metadata.labels" {
		t.Errorf("errors %v, want metadata.name and metadata.labels", errs)
	}
}

func nodePool(requirement map[string]any) map[string]any {
	return map[string]any{
		"apiVersion": "karpenter.sh/v1",
		"kind":       "NodePool",
		"metadata":   map[string]any{"name": "a100-spot"},
		"spec": map[string]any{"template": map[string]any{"spec": map[string]any{
			"nodeClassRef": map[string]any{"group": "karpenter.k8s.aws", "kind": "EC2NodeClass", "name": "gpu"},
			"requirements": []any{requirement},
		}}},
	}
}

func TestObject_nodePoolCELRule(t *testing.T) {
	valid := map[string]any{"key": "node.kubernetes.io/instance-type", "operator": "In", "values": []any{"p4d.24xlarge", "p4de.24xlarge"}, "minValues": 2}
	wantErrors(t, mustValidate(t, nodePool(valid)))
	invalid := map[string]any{"key": "node.kubernetes.io/instance-type", "operator": "In", "values": []any{"p4d.24xlarge"}, "minValues": 2}
	wantErrors(t, mustValidate(t, nodePool(invalid)),
		`spec.template.spec.requirements: Invalid value: requirements with 'minValues' must have at least that many values specified in the 'values' field`)
}

func TestObject_workflowTemplateSchema(t *testing.T) {
	obj := map[string]any{
		"apiVersion": "argoproj.io/v1alpha1",
		"kind":       "WorkflowTemplate",
		"metadata":   map[string]any{"name": "train", "namespace": "nlp"},
		"spec": map[string]any{
			"entrypoint": "train",
			"templates": []any{map[string]any{
				"name":      "train",
				"container": map[string]any{"image": "trainer:1", "args": "--epochs=3"},
			}},
		},
	}
	wantErrors(t, mustValidate(t, obj),
		`spec.templates[0].container.args: Invalid value: "string": spec.templates[0].container.args in body must be of type array: "string"`)
	obj["spec"].(map[string]any)["templates"].([]any)[0].(map[string]any)["container"].(map[string]any)["args"] = []any{"--epochs=3"}
	wantErrors(t, mustValidate(t, obj))
}

func TestObject_unknownKind(t *testing.T) {
	// A built-in kind the provider does not write has no step.
	pod := map[string]any{"apiVersion": "v1", "kind": "Pod", "metadata": map[string]any{"name": "x"}}
	if _, err := Object(context.Background(), pod); err == nil {
		t.Error("a Pod was judged; the engine has no step for it")
	}
	if Known(schema.GroupKind{Kind: "Pod"}) || !Known(schema.GroupKind{Group: "karpenter.k8s.aws", Kind: "EC2NodeClass"}) ||
		!Known(schema.GroupKind{Kind: "ConfigMap"}) {
		t.Error("Known is wrong")
	}
}
