package argo_test

import (
	"context"
	"fmt"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
)

// providerBlock is a provider with a billing default label, pointed at host when it is set.
func providerBlock(host string) string {
	conn := ""
	if host != "" {
		conn = fmt.Sprintf("host = %q", host)
	}
	return fmt.Sprintf(`
provider "mlplatform" {
  %s
  default_labels = { "billing.mlplatform.io/cost-centre" = "cc-1234" }
}
`, conn)
}

var namespacesGVR = schema.GroupVersionResource{Version: "v1", Resource: "namespaces"}

// ensureNamespace creates a namespace of the test cluster, deleted when the test ends.
func ensureNamespace(t *testing.T, name string) {
	t.Helper()
	ns := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": name},
	}}
	namespaces := acctest.Dynamic(t).Resource(namespacesGVR)
	_, err := namespaces.Create(context.Background(), ns, metav1.CreateOptions{})
	if apierrors.IsAlreadyExists(err) {
		return
	}
	if err != nil {
		t.Fatalf("create namespace %s: %v", name, err)
	}
	t.Cleanup(func() {
		if err := namespaces.Delete(context.Background(), name, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
			t.Errorf("delete namespace %s: %v", name, err)
		}
	})
}

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
