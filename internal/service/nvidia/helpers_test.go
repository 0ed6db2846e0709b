package nvidia_test

import (
	"fmt"
	"reflect"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
)

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
