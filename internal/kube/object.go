package kube

import (
	"context"
	"encoding/json"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/utils/ptr"
)

// Apply writes obj (an upstream apply configuration or typed object with apiVersion, kind and
// metadata.name set) with server-side apply under the client's field manager, with force.
func (c *Client) Apply(ctx context.Context, k Kind, obj any) (*unstructured.Unstructured, error) {
	return c.ApplyWith(ctx, k, obj, ApplyOptions{Force: true})
}

// ApplyOptions say under which field manager an apply writes and on what condition.
type ApplyOptions struct {
	// Manager is the field manager; "" is the client's.
	Manager string
	// Force takes over fields another manager owns instead of failing with a conflict: Terraform is
	// the source of truth for the fields it declares on objects it owns, so a field someone changed
	// (kubectl edit) is taken back. Without it a conflict is an error (FieldConflicts).
	Force bool
	// UID, when set, writes only over the object with this UID: an object deleted and created again
	// since it was read is a conflict, never written over (nor created).
	UID types.UID
	// ResourceVersion, when set, writes only over the object as it was at this version: a write by
	// anyone in between is a conflict (IsConflict), to be read again and decided again.
	ResourceVersion string
}

// ApplyWith is Apply with options.
func (c *Client) ApplyWith(ctx context.Context, k Kind, obj any, opts ApplyOptions) (*unstructured.Unstructured, error) {
	body, err := json.Marshal(obj)
	if err != nil {
		return nil, fmt.Errorf("encoding %s: %w", k, err)
	}
	var doc map[string]any
	if err := json.Unmarshal(body, &doc); err != nil {
		return nil, fmt.Errorf("encoding %s: %w", k, err)
	}
	meta, _ := doc["metadata"].(map[string]any)
	name, _ := meta["name"].(string)
	if name == "" {
		return nil, fmt.Errorf("encoding %s: object has no metadata.name", k)
	}
	ns, _ := meta["namespace"].(string)
	if opts.UID != "" || opts.ResourceVersion != "" {
		// The apiserver takes both from the applied object as preconditions of the write.
		if opts.UID != "" {
			meta["uid"] = string(opts.UID)
		}
		if opts.ResourceVersion != "" {
			meta["resourceVersion"] = opts.ResourceVersion
		}
		if body, err = json.Marshal(doc); err != nil {
			return nil, fmt.Errorf("encoding %s: %w", k, err)
		}
	}
	if opts.Manager == "" {
		opts.Manager = c.fieldManager
	}
	if err := c.EnsureServed(ctx, k); err != nil {
		return nil, err
	}
	out, err := c.resource(k, ns).Patch(ctx, name, types.ApplyPatchType, body,
		metav1.PatchOptions{FieldManager: opts.Manager, Force: &opts.Force})
	if IsNotFound(err) {
		err = c.confirmNotFound(k, err)
	}
	if k.Namespaced && IsNotFound(err) {
		// An apply creates the object, so a NotFound can only be its namespace.
		return nil, fmt.Errorf("namespace %q does not exist: create it before the %s %s (e.g. with a kubernetes_namespace resource): %w",
			ns, k.Kind, name, err)
	}
	if opts.UID != "" && isImmutableUID(err) {
		// Another object of that name: the one the UID named is gone.
		err = apierrors.NewConflict(k.GVR.GroupResource(), name, err)
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
