package acctest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/terraform"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
)

// Out-of-band changes and checks, made the way kubectl and other controllers make them.

// Get reads an object of the test cluster, failing the test if it is missing.
func Get(t *testing.T, k kube.Kind, namespace, name string) *unstructured.Unstructured {
	t.Helper()
	obj, err := Dynamic(t).Resource(k.GVR).Namespace(namespace).Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		t.Fatalf("get %s %s: %v", k, name, err)
	}
	return obj
}

// SetLabel changes a label with an update, as `kubectl label --overwrite` does.
func SetLabel(t *testing.T, k kube.Kind, namespace, name, key, value string) {
	t.Helper()
	obj := Get(t, k, namespace, name)
	labels := obj.GetLabels()
	if labels == nil {
		labels = map[string]string{}
	}
	labels[key] = value
	obj.SetLabels(labels)
	if _, err := Dynamic(t).Resource(k.GVR).Namespace(namespace).Update(context.Background(), obj, metav1.UpdateOptions{FieldManager: "kubectl-label"}); err != nil {
		t.Fatalf("label %s %s: %v", k, name, err)
	}
}

// ApplyAs server-side applies a partial object under another field manager, as a controller
// adding its own fields would.
func ApplyAs(t *testing.T, manager string, k kube.Kind, namespace string, obj map[string]any) {
	t.Helper()
	body, err := json.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	name := obj["metadata"].(map[string]any)["name"].(string)
	_, err = Dynamic(t).Resource(k.GVR).Namespace(namespace).Patch(context.Background(), name, types.ApplyPatchType, body, metav1.PatchOptions{FieldManager: manager})
	if err != nil {
		t.Fatalf("apply %s %s as %s: %v", k, name, manager, err)
	}
}

// Delete deletes an object outside Terraform.
func Delete(t *testing.T, k kube.Kind, namespace, name string) {
	t.Helper()
	if err := Dynamic(t).Resource(k.GVR).Namespace(namespace).Delete(context.Background(), name, metav1.DeleteOptions{}); err != nil {
		t.Fatalf("delete %s %s: %v", k, name, err)
	}
}

// Gone fails unless reading the object answers NotFound: any other error proves nothing.
func Gone(t *testing.T, k kube.Kind, namespace, name string) error {
	_, err := Dynamic(t).Resource(k.GVR).Namespace(namespace).Get(t.Context(), name, metav1.GetOptions{})
	switch {
	case err == nil:
		return fmt.Errorf("%s %s still exists", k.Kind, objectName(namespace, name))
	case apierrors.IsNotFound(err):
		return nil
	default:
		return fmt.Errorf("checking that %s %s is gone: %w", k.Kind, objectName(namespace, name), err)
	}
}

func objectName(namespace, name string) string {
	if namespace == "" {
		return name
	}
	return namespace + "/" + name
}

// CheckDestroyed is a CheckDestroy that every resource of type tfType is gone from the cluster.
func CheckDestroyed(t *testing.T, tfType string, k kube.Kind) func(*terraform.State) error {
	return func(s *terraform.State) error {
		for _, rs := range s.RootModule().Resources {
			if rs.Type != tfType {
				continue
			}
			ns := rs.Primary.Attributes["namespace"]
			_, err := Dynamic(t).Resource(k.GVR).Namespace(ns).Get(context.Background(), rs.Primary.Attributes["name"], metav1.GetOptions{})
			if err == nil {
				return fmt.Errorf("%s %s still exists after destroy", k, rs.Primary.ID)
			}
			if !apierrors.IsNotFound(err) {
				return fmt.Errorf("checking %s %s after destroy: %w", k, rs.Primary.ID, err)
			}
		}
		return nil
	}
}

// UnreachableCluster is an API server stand-in that answers every request with 503 and counts
// them: a test that plans against it proves the plan made no API call.
func UnreachableCluster(t *testing.T) (host string, requests func() int64) {
	t.Helper()
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		http.Error(w, "unreachable", http.StatusServiceUnavailable)
	}))
	t.Cleanup(srv.Close)
	return srv.URL, n.Load
}
