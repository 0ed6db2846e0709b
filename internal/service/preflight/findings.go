package preflight

import (
	"context"
	"errors"
	"fmt"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
)

// finding is one setting the cluster runs otherwise than the platform needs, or a component the
// cluster lacks; fix says what to change, naming the Helm value where there is one.
type finding struct {
	Component, Setting, Wanted, Found, Fix string
}

// notFound is the finding for an object the cluster lacks: found says how (not found, or its API
// not served).
func notFound(component, what, found, fix string) finding {
	return finding{Component: component, Setting: what, Wanted: "present", Found: found, Fix: fix}
}

// reader reads the cluster for the checks. What cannot be read is not an error of the plan: a
// plan without a cluster must not fail. A refusal (e.g. 403) leaves that object unchecked and is
// told as a warning; any other failure (no cluster configured, connection refused, an unknown
// host) means no cluster to check, and nothing more is read.
type reader struct {
	client *kube.Client
	// unreachable is why the cluster could not be reached; set, every read returns unread.
	unreachable error
	// refused are the objects that could not be read, each with the reason.
	refused []string
}

// readResult is what a read found.
type readResult int

const (
	present   readResult = iota
	absent               // the object does not exist
	notServed            // its API is not served: the component is not installed
	unread               // it could not be read (recorded on the reader)
)

// describe is how a finding names a result other than present.
func (r readResult) describe() string {
	if r == notServed {
		return "API not served (not installed)"
	}
	return "not found"
}

// get reads one object into out (a typed object) and says what it found.
func (r *reader) get(ctx context.Context, k kube.Kind, namespace, name string, out any) readResult {
	if r.unreachable != nil {
		return unread
	}
	obj, err := r.client.Get(ctx, k, namespace, name)
	var notInstalled *kube.NotInstalledError
	switch {
	case err == nil:
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(obj.Object, out); err != nil {
			r.refused = append(r.refused, fmt.Sprintf("%s %s: %v", k.Kind, qualified(namespace, name), err))
			return unread
		}
		return present
	case kube.IsNotFound(err):
		return absent
	case errors.As(err, &notInstalled):
		return notServed
	case apierrors.IsForbidden(err):
		r.refused = append(r.refused, err.Error())
		return unread
	default:
		r.unreachable = err
		return unread
	}
}

// namespaceLabels are the labels of the namespaces selector selects; ok is false when they could
// not be read.
func (r *reader) namespaceLabels(ctx context.Context, selector string) (labels []map[string]string, ok bool) {
	if r.unreachable != nil {
		return nil, false
	}
	l, err := r.client.List(ctx, namespaceKind, "", metav1.ListOptions{LabelSelector: selector})
	switch {
	case err == nil:
		for _, ns := range l.Items {
			labels = append(labels, ns.GetLabels())
		}
		return labels, true
	case apierrors.IsForbidden(err):
		r.refused = append(r.refused, err.Error())
	default:
		r.unreachable = err
	}
	return nil, false
}

func qualified(namespace, name string) string {
	if namespace == "" {
		return name
	}
	return namespace + "/" + name
}

// join renders a list for a finding's wanted and found.
func join(items []string) string {
	if len(items) == 0 {
		return "(none)"
	}
	return strings.Join(items, ", ")
}
