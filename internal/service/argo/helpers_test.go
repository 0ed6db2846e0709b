package argo_test

import (
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// trainTemplate is the generated "train" template of a live WorkflowTemplate.
func trainTemplate(t *testing.T, obj *unstructured.Unstructured) map[string]any {
	t.Helper()
	templates, _, err := unstructured.NestedSlice(obj.Object, "spec", "templates")
	if err != nil || len(templates) != 1 {
		t.Fatalf("spec.templates = %v (%v); want one", templates, err)
	}
	return templates[0].(map[string]any)
}

func str(t *testing.T, m map[string]any, path ...string) string {
	t.Helper()
	v, _, err := unstructured.NestedFieldNoCopy(m, path...)
	if err != nil {
		t.Fatalf("%v: %v", path, err)
	}
	s, _ := v.(string)
	return s
}
