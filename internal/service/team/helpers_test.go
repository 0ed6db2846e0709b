package team_test

import (
	"context"
	"fmt"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/queue"
)

const teamAddr = "mlplatform_team.test"

// teamConfig is a provider with default labels (pointed at host when set) and team "test" with
// body.
func teamConfig(host, body string) string {
	conn := ""
	if host != "" {
		conn = fmt.Sprintf("host = %q", host)
	}
	return teamConfigWith(conn, body, "")
}

// teamConfigWith is teamConfig with conn as the provider's connection settings, and more after the
// team.
func teamConfigWith(conn, body, more string) string {
	return fmt.Sprintf(`
provider "mlplatform" {
  %s
  # The team's own cost centre is written over this one.
  default_labels = { "mlplatform.io/platform" = "gpu", "mlplatform.io/cost-centre" = "platform" }
}

resource "mlplatform_team" "test" {
%s
}
%s`, conn, body, more)
}

// clusterQueue creates, outside Terraform, ClusterQueue name with a CPU flavor of its own and
// room for a few small jobs, selecting namespaces by selector (nil: none); both are deleted when
// the test ends.
func clusterQueue(t *testing.T, name string, selector map[string]any) {
	t.Helper()
	create(t, queue.ResourceFlavorKind, "", map[string]any{"name": name}, map[string]any{})
	spec := map[string]any{"resourceGroups": []any{map[string]any{
		"coveredResources": []any{"cpu"},
		"flavors":          []any{map[string]any{"name": name, "resources": []any{map[string]any{"name": "cpu", "nominalQuota": "4"}}}},
	}}}
	if selector != nil {
		spec["namespaceSelector"] = selector
	}
	create(t, queue.ClusterQueueKind, "", map[string]any{"name": name}, spec)
}

// create creates an object outside Terraform and deletes it when the test ends.
func create(t *testing.T, k kube.Kind, namespace string, meta, spec map[string]any) {
	t.Helper()
	obj := map[string]any{"apiVersion": k.GVR.GroupVersion().String(), "kind": k.Kind, "metadata": meta, "spec": spec}
	client := acctest.Dynamic(t).Resource(k.GVR).Namespace(namespace)
	name := meta["name"].(string)
	if _, err := client.Create(context.Background(), &unstructured.Unstructured{Object: obj}, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create %s %s: %v", k.Kind, name, err)
	}
	t.Cleanup(func() {
		if err := client.Delete(context.Background(), name, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
			t.Errorf("delete %s %s: %v", k.Kind, name, err)
		}
	})
}

// absent fails unless the object does not exist.
func absent(t *testing.T, k kube.Kind, namespace, name string) error {
	t.Helper()
	_, err := acctest.Dynamic(t).Resource(k.GVR).Namespace(namespace).Get(context.Background(), name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	return fmt.Errorf("%s %s/%s still exists", k.Kind, namespace, name)
}

var listAll = metav1.ListOptions{}
