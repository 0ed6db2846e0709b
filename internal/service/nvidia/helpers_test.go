package nvidia_test

import (
	"context"
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/yaml"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
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

// ensureNamespace creates a namespace of the test cluster unless it exists.
func ensureNamespace(t *testing.T, name string) {
	t.Helper()
	ns := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": name},
	}}
	_, err := acctest.Dynamic(t).Resource(schema.GroupVersionResource{Version: "v1", Resource: "namespaces"}).
		Create(context.Background(), ns, metav1.CreateOptions{})
	if err != nil && !apierrors.IsAlreadyExists(err) {
		t.Fatalf("create namespace %s: %v", name, err)
	}
}

// configMapYAML parses one data key of a live ConfigMap as YAML into plain Go values, the way
// mig-parted and the device plugin read it (sigs.k8s.io/yaml: YAML to JSON to Go).
func configMapYAML(t *testing.T, namespace, name, key string) map[string]any {
	t.Helper()
	live := acctest.Get(t, kube.ConfigMapKind, namespace, name)
	text, found, err := unstructured.NestedString(live.Object, "data", key)
	if err != nil || !found {
		t.Fatalf("ConfigMap %s/%s has no data key %q (err=%v): %v", namespace, name, key, err, live.Object["data"])
	}
	var out map[string]any
	if err := yaml.Unmarshal([]byte(text), &out); err != nil {
		t.Fatalf("ConfigMap %s/%s key %s is not YAML: %v\n%s", namespace, name, key, err, text)
	}
	return out
}

// expectYAML compares parsed YAML with what is expected, written as YAML too.
func expectYAML(got map[string]any, want string) error {
	var w map[string]any
	if err := yaml.Unmarshal([]byte(want), &w); err != nil {
		return fmt.Errorf("bad expectation: %w", err)
	}
	if !reflect.DeepEqual(got, w) {
		g, _ := yaml.Marshal(got)
		return fmt.Errorf("ConfigMap content:\n%s\nwant:\n%s", g, want)
	}
	return nil
}

// planFails runs a plan of config against a stand-in API server that counts requests, and
// expects it to fail with the pattern want and to make no API call. Terraform wraps long
// messages, so each space in want matches any run of whitespace. It runs Terraform, so only
// with TF_ACC (as resource.Test does), though it needs no cluster.
func planFails(t *testing.T, config func(host string) string, want string) {
	t.Helper()
	acctest.PlanWithoutAPICalls(t, config, regexp.MustCompile(strings.ReplaceAll(want, " ", `\s+`)))
}
