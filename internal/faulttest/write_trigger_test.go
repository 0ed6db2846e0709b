package faulttest

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	admissionv1 "k8s.io/api/admission/v1"
	registrationv1 "k8s.io/api/admissionregistration/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic"
	"k8s.io/utils/ptr"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
)

// writeTrigger is a validating admission webhook (acctest.ServeValidatingWebhook) that the API
// server calls for every create and delete of a ResourceFlavor or ClusterQueue whose name starts
// with its prefix. It admits them all and counts them, and an armed trigger fires when the at-th
// of its operation is admitted. A test stops the API server on it at a known point of an apply or
// destroy: polling the cluster cannot find that point, as Terraform writes dozens of objects
// between two polls.
type writeTrigger struct {
	mu    sync.Mutex
	op    admissionv1.Operation // what the armed trigger counts
	at    int                   // the admission it fires on
	count int                   // admissions of op since it was armed
	fired chan struct{}         // nil when none is armed
}

// newWriteTrigger serves the webhook, registers it, and waits until the API server calls it. It is
// unregistered when the test ends; a test that stops the API server registers the cleanup that
// starts it again after this call, so that it runs first.
func newWriteTrigger(t *testing.T, prefix string) *writeTrigger {
	t.Helper()
	w := &writeTrigger{}
	flavors := dynamic.NewForConfigOrDie(admin).Resource(resourceFlavors)
	probe := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": resourceFlavors.GroupVersion().String(), "kind": "ResourceFlavor",
		"metadata": map[string]any{"name": prefix + "-probe"},
	}}
	acctest.ServeValidatingWebhook(t, admin, prefix+"-write-trigger", registrationv1.RuleWithOperations{
		Operations: []registrationv1.OperationType{registrationv1.Create, registrationv1.Delete},
		Rule: registrationv1.Rule{
			APIGroups:   []string{resourceFlavors.Group},
			APIVersions: []string{resourceFlavors.Version},
			Resources:   []string{resourceFlavors.Resource, clusterQueues.Resource},
			Scope:       ptr.To(registrationv1.ClusterScope),
		},
	}, fmt.Sprintf("request.name.startsWith(%q)", prefix+"-"), 10*time.Second,
		func(ctx context.Context) error {
			_, err := flavors.Create(ctx, probe, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
			return err
		}, w.admit)
	return w
}

// arm returns a channel that is closed once the at-th admission of op from now on is admitted.
func (w *writeTrigger) arm(op admissionv1.Operation, at int) <-chan struct{} {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.op, w.at, w.count, w.fired = op, at, 0, make(chan struct{})
	return w.fired
}

func (w *writeTrigger) admit(req *admissionv1.AdmissionRequest) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.fired != nil && req.Operation == w.op {
		if w.count++; w.count == w.at {
			close(w.fired)
			w.fired = nil
		}
	}
}
