package acctest

import (
	"context"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
)

// CollectGarbage waits until the object with UID owner is gone from namespace (its finalizers
// removed), then deletes the objects of the given resources there that it owned, as
// kube-controller-manager's garbage collector does: the local control plane runs no controller
// manager, so e.g. the Kueue Workload of a deleted pod would otherwise stay and hold quota.
func CollectGarbage(t *testing.T, namespace string, owner types.UID, ownerGVR schema.GroupVersionResource, ownerName string, resources ...schema.GroupVersionResource) {
	t.Helper()
	ctx := context.Background()
	client := Dynamic(t)
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(250 * time.Millisecond) {
		obj, err := client.Resource(ownerGVR).Namespace(namespace).Get(ctx, ownerName, metav1.GetOptions{})
		if apierrors.IsNotFound(err) || (err == nil && obj.GetUID() != owner) {
			break
		}
		if err != nil {
			t.Fatalf("get %s %s/%s: %v", ownerGVR.Resource, namespace, ownerName, err)
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s %s/%s is still there after 1m (finalizers %v)", ownerGVR.Resource, namespace, ownerName, obj.GetFinalizers())
		}
	}
	for _, r := range resources {
		list, err := client.Resource(r).Namespace(namespace).List(ctx, metav1.ListOptions{})
		if err != nil {
			t.Fatalf("list %s in %s: %v", r.Resource, namespace, err)
		}
		for _, o := range list.Items {
			for _, ref := range o.GetOwnerReferences() {
				if ref.UID != owner {
					continue
				}
				err := client.Resource(r).Namespace(namespace).Delete(ctx, o.GetName(), metav1.DeleteOptions{})
				if err != nil && !apierrors.IsNotFound(err) {
					t.Fatalf("delete %s %s/%s, owned by a deleted object: %v", r.Resource, namespace, o.GetName(), err)
				}
			}
		}
	}
}
