package kube

import (
	"errors"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
)

// IsNotFound reports whether err means the object does not exist.
func IsNotFound(err error) bool { return apierrors.IsNotFound(err) }

// IsConflict reports whether err is a failed precondition or a write conflict.
func IsConflict(err error) bool { return apierrors.IsConflict(err) }

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
