package kube

import (
	"context"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/wait"
)

// pollInterval is how often waits re-read an object: short, since each read is one GET.
const pollInterval = 250 * time.Millisecond

// WaitFor reads an object until done says so or ctx ends. It returns the last object read, so
// that a caller whose wait timed out can say what state the object was left in.
func (c *Client) WaitFor(ctx context.Context, k Kind, namespace, name string, done func(*unstructured.Unstructured) (bool, error)) (*unstructured.Unstructured, error) {
	if err := c.connect(); err != nil {
		return nil, err
	}
	var last *unstructured.Unstructured
	err := wait.PollUntilContextCancel(ctx, pollInterval, true, func(ctx context.Context) (bool, error) {
		obj, err := c.resource(k, namespace).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, describe(err, "get", k, namespace, name)
		}
		last = obj
		return done(obj)
	})
	return last, err
}

// List lists the objects of a kind; namespace "" lists all namespaces of a namespaced kind.
func (c *Client) List(ctx context.Context, k Kind, namespace string, opts metav1.ListOptions) (*unstructured.UnstructuredList, error) {
	if err := c.connect(); err != nil {
		return nil, err
	}
	out, err := c.dynamic.Resource(k.GVR).Namespace(namespace).List(ctx, opts)
	return out, describe(err, "list", k, namespace, "")
}

// Condition is one entry of an object's status.conditions.
type Condition struct {
	Type, Status, Reason, Message string
}

// FindCondition returns the status condition of the given type, if the object has one.
func FindCondition(obj *unstructured.Unstructured, conditionType string) (Condition, bool) {
	conds, _, _ := unstructured.NestedSlice(obj.Object, "status", "conditions")
	for _, raw := range conds {
		m, ok := raw.(map[string]any)
		if !ok || m["type"] != conditionType {
			continue
		}
		s := func(key string) string { v, _ := m[key].(string); return v }
		return Condition{Type: conditionType, Status: s("status"), Reason: s("reason"), Message: s("message")}, true
	}
	return Condition{}, false
}
