package testcluster

import (
	"context"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Deleting a namespace deletes what is in it, custom resources too, and then the namespace, as the
// namespace controller does on a real cluster.
func TestDeletedNamespaceTakesItsObjects(t *testing.T) {
	c := client(t)
	ctx := context.Background()
	const ns = "controllers-delete"
	mustCreate(t, c, namespaces, map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": meta(ns)})
	mustCreate(t, c, localQueues, map[string]any{"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "LocalQueue",
		"metadata": map[string]any{"name": "training", "namespace": ns}, "spec": map[string]any{"clusterQueue": "none"}})
	if err := c.Resource(namespaces).Delete(ctx, ns, metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(time.Minute)
	for {
		_, err := c.Resource(namespaces).Get(ctx, ns, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("namespace %s still there a minute after its delete (err %v)", ns, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
	if _, err := c.Resource(localQueues).Namespace(ns).Get(ctx, "training", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Fatalf("LocalQueue %s/training outlived its namespace: %v", ns, err)
	}
}
