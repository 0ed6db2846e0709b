package kube

import (
	"context"
	"encoding/json"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/utils/ptr"
)

// Apply writes obj (an upstream apply configuration or typed object with apiVersion, kind and
// metadata.name set) with server-side apply under the client's field manager.
//
// Force is on: Terraform is the source of truth for the fields it declares, so a field another
// manager took over (kubectl edit, a controller) is taken back instead of failing the apply with a
// conflict. Fields this manager never set are left to their owners.
func (c *Client) Apply(ctx context.Context, k Kind, obj any) (*unstructured.Unstructured, error) {
	return c.ApplyAs(ctx, k, obj, c.fieldManager)
}

// ApplyAs is Apply under another field manager: a resource that owns keys of a shared object (a
// ConfigMap other resources write to as well) applies them under a manager of its own, so that
// each resource's apply removes only the keys it wrote before.
func (c *Client) ApplyAs(ctx context.Context, k Kind, obj any, manager string) (*unstructured.Unstructured, error) {
	body, err := json.Marshal(obj)
	if err != nil {
		return nil, fmt.Errorf("encoding %s: %w", k, err)
	}
	var meta struct {
		Metadata struct{ Name, Namespace string } `json:"metadata"`
	}
	if err := json.Unmarshal(body, &meta); err != nil || meta.Metadata.Name == "" {
		return nil, fmt.Errorf("encoding %s: object has no metadata.name", k)
	}
	ns, name := meta.Metadata.Namespace, meta.Metadata.Name
	if err := c.EnsureServed(ctx, k); err != nil {
		return nil, err
	}
	force := true
	out, err := c.resource(k, ns).Patch(ctx, name, types.ApplyPatchType, body,
		metav1.PatchOptions{FieldManager: manager, Force: &force})
	if IsNotFound(err) {
		err = c.confirmNotFound(k, err)
	}
	if k.Namespaced && IsNotFound(err) {
		// An apply creates the object, so a NotFound can only be its namespace.
		return nil, fmt.Errorf("namespace %q does not exist: create it before the %s %s (e.g. with a kubernetes_namespace resource): %w",
			ns, k.Kind, name, err)
	}
	return out, describe(err, "patch", k, ns, name)
}

// Get reads one object. An object that does not exist, in an API the cluster serves, is an error
// for which IsNotFound is true; an API the cluster does not serve is a NotInstalledError.
func (c *Client) Get(ctx context.Context, k Kind, namespace, name string) (*unstructured.Unstructured, error) {
	if err := c.connect(); err != nil {
		return nil, err
	}
	out, err := c.resource(k, namespace).Get(ctx, name, metav1.GetOptions{})
	if IsNotFound(err) {
		err = c.confirmNotFound(k, err)
	}
	if IsNotFound(err) {
		return nil, err
	}
	return out, describe(err, "get", k, namespace, name)
}

// Delete deletes an object and waits until it is gone or ctx ends. The preconditions (the UID
// read, and the resourceVersion where nothing may have changed since) keep it from deleting an
// object that was replaced or changed since it was read: the server answers Conflict. An object
// already gone, in an API the cluster serves, is success. On timeout the error carries the
// finalizers still holding it.
func (c *Client) Delete(ctx context.Context, k Kind, namespace, name string, pre metav1.Preconditions) error {
	if err := c.connect(); err != nil {
		return err
	}
	opts := metav1.DeleteOptions{PropagationPolicy: ptr.To(metav1.DeletePropagationBackground), Preconditions: &pre}
	err := c.resource(k, namespace).Delete(ctx, name, opts)
	if IsNotFound(err) {
		err = c.confirmNotFound(k, err)
	}
	if IsNotFound(err) {
		return nil
	}
	if err != nil {
		return describe(err, "delete", k, namespace, name)
	}
	var last *unstructured.Unstructured
	err = wait.PollUntilContextCancel(ctx, pollInterval, true, func(ctx context.Context) (bool, error) {
		obj, err := c.resource(k, namespace).Get(ctx, name, metav1.GetOptions{})
		switch {
		case IsNotFound(err):
			return true, nil
		case err != nil && timedOut(ctx):
			return false, context.DeadlineExceeded // the time ran out during this read: a timeout, not an API error
		case err != nil:
			return false, describe(err, "get", k, namespace, name)
		}
		last = obj
		return false, nil
	})
	if err != nil && last != nil && timedOut(ctx) {
		return &StillPresentError{Kind: k, Namespace: namespace, Name: name, Finalizers: last.GetFinalizers(), cause: err}
	}
	return err
}

// StillPresentError is a delete that timed out; Finalizers are what still held the object.
type StillPresentError struct {
	Kind            Kind
	Namespace, Name string
	Finalizers      []string
	cause           error
}

func (e *StillPresentError) Error() string {
	msg := fmt.Sprintf("%s %s was not gone in time", e.Kind, qualified(e.Namespace, e.Name))
	if len(e.Finalizers) > 0 {
		msg += fmt.Sprintf("; finalizers still holding it: %v", e.Finalizers)
	}
	return msg + ": " + e.cause.Error()
}

func (e *StillPresentError) Unwrap() error { return e.cause }
