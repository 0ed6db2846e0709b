package acctest

import (
	"context"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	typedcorev1 "k8s.io/client-go/kubernetes/typed/core/v1"
)

// Namespace creates namespace name of the test cluster unless it exists. One it created is
// deleted when the test ends, so that runs against a shared cluster leave none behind; give it a
// name of the test's own (Name).
func Namespace(t *testing.T, name string) {
	t.Helper()
	if !createNamespace(t, name) {
		return
	}
	t.Cleanup(func() {
		err := namespaces(t).Delete(context.Background(), name, metav1.DeleteOptions{})
		if err != nil && !apierrors.IsNotFound(err) {
			t.Errorf("delete namespace %s: %v", name, err)
		}
	})
}

// SharedNamespace creates namespace name of the test cluster unless it exists, and leaves it when
// the test ends: for a fixed namespace that other tests, running in parallel, use too (the GPU
// Operator's gpu-operator), which deleting would take from under them.
func SharedNamespace(t *testing.T, name string) {
	t.Helper()
	createNamespace(t, name)
}

// createNamespace creates namespace name and reports whether it did (false: it existed).
func createNamespace(t *testing.T, name string) bool {
	t.Helper()
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}
	_, err := namespaces(t).Create(context.Background(), ns, metav1.CreateOptions{})
	if apierrors.IsAlreadyExists(err) {
		return false
	}
	if err != nil {
		t.Fatalf("create namespace %s: %v", name, err)
	}
	return true
}

func namespaces(t *testing.T) typedcorev1.NamespaceInterface {
	t.Helper()
	return kubernetes.NewForConfigOrDie(RestConfig(t)).CoreV1().Namespaces()
}
