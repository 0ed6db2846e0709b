package kube

import (
	"errors"
	"fmt"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// IsNotFound reports whether err means the object does not exist.
func IsNotFound(err error) bool { return apierrors.IsNotFound(err) }

// IsConflict reports whether err is a failed precondition or a write conflict.
func IsConflict(err error) bool { return apierrors.IsConflict(err) }

// isImmutableUID reports whether err refuses an apply whose metadata.uid is not the object's: how
// the apiserver answers a UID precondition on an object that was replaced.
func isImmutableUID(err error) bool {
	var status apierrors.APIStatus
	if !apierrors.IsInvalid(err) || !errors.As(err, &status) || status.Status().Details == nil {
		return false
	}
	for _, c := range status.Status().Details.Causes {
		if c.Field == "metadata.uid" {
			return true
		}
	}
	return false
}

// FieldConflict is a field that a server-side apply without force would take from another
// manager, which owns it with another value.
type FieldConflict struct {
	Field   string // e.g. ".metadata.labels.app.kubernetes.io/managed-by"
	Manager string // the manager that owns it, as the apiserver names it
}

// FieldConflicts are the conflicts that refused an apply without force; none when err is not one.
func FieldConflicts(err error) []FieldConflict {
	var status apierrors.APIStatus
	if !apierrors.IsConflict(err) || !errors.As(err, &status) || status.Status().Details == nil {
		return nil
	}
	var out []FieldConflict
	for _, c := range status.Status().Details.Causes {
		if c.Type != metav1.CauseTypeFieldManagerConflict {
			continue
		}
		// The message reads: conflict with "helm" using v1 (or: conflict with "kubectl-edit").
		manager := c.Message
		if _, rest, ok := strings.Cut(c.Message, `conflict with "`); ok {
			manager, _, _ = strings.Cut(rest, `"`)
		}
		out = append(out, FieldConflict{Field: c.Field, Manager: manager})
	}
	return out
}

// describe adds to an API error what was being done, and for RBAC refusals which verb on which
// resource was refused, so that the fix (a Role rule) can be read off the message.
func describe(err error, verb string, k Kind, namespace, name string) error {
	if err == nil {
		return nil
	}
	var notInstalled *NotInstalledError
	if errors.As(err, &notInstalled) {
		return err
	}
	obj := k.String()
	if name != "" {
		obj += " " + qualified(namespace, name)
	}
	if apierrors.IsForbidden(err) {
		scope := "cluster-wide"
		if k.Namespaced && namespace != "" {
			scope = "in namespace " + namespace
		}
		return fmt.Errorf("the cluster's RBAC refused verb %q on resource %q (group %q) %s for %s; grant it to the provider's credentials: %w",
			verb, k.GVR.Resource, k.GVR.Group, scope, obj, err)
	}
	return fmt.Errorf("%s %s: %w", verb, obj, err)
}

func qualified(namespace, name string) string {
	if namespace == "" {
		return name
	}
	return namespace + "/" + name
}
