package faulttest

import (
	"context"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	admissionv1 "k8s.io/api/admission/v1"
	registrationv1 "k8s.io/api/admissionregistration/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/utils/ptr"
)

// writeTrigger is a validating admission webhook that the API server calls for every create and
// delete of a ResourceFlavor or ClusterQueue whose name starts with its prefix. It admits them all
// and counts them, and an armed trigger fires when the at-th of its operation is admitted. A test
// stops the API server on it at a known point of an apply or destroy: polling the cluster cannot
// find that point, as Terraform writes dozens of objects between two polls.
type writeTrigger struct {
	mu     sync.Mutex
	op     admissionv1.Operation // what the armed trigger counts
	at     int                   // the admission it fires on
	count  int                   // admissions of op since it was armed
	fired  chan struct{}         // nil when none is armed
	probed chan struct{}         // closed on the first dry-run request: the API server calls the webhook
}

// newWriteTrigger serves the webhook, registers it, and waits until the API server calls it. It is
// unregistered when the test ends; a test that stops the API server registers the cleanup that
// starts it again after this call, so that it runs first.
func newWriteTrigger(t *testing.T, prefix string) *writeTrigger {
	t.Helper()
	w := &writeTrigger{probed: make(chan struct{})}
	srv := httptest.NewTLSServer(http.HandlerFunc(w.serve))
	client := kubernetes.NewForConfigOrDie(admin).AdmissionregistrationV1().ValidatingWebhookConfigurations()
	cfg := &registrationv1.ValidatingWebhookConfiguration{
		ObjectMeta: metav1.ObjectMeta{Name: prefix + "-write-trigger"},
		Webhooks: []registrationv1.ValidatingWebhook{{
			Name: "write-trigger.faulttest.mlplatform.io",
			ClientConfig: registrationv1.WebhookClientConfig{
				URL:      ptr.To(srv.URL + "/validate"),
				CABundle: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}),
			},
			Rules: []registrationv1.RuleWithOperations{{
				Operations: []registrationv1.OperationType{registrationv1.Create, registrationv1.Delete},
				Rule: registrationv1.Rule{
					APIGroups:   []string{resourceFlavors.Group},
					APIVersions: []string{resourceFlavors.Version},
					Resources:   []string{resourceFlavors.Resource, clusterQueues.Resource},
					Scope:       ptr.To(registrationv1.ClusterScope),
				},
			}},
			MatchConditions: []registrationv1.MatchCondition{{
				Name: "this-test", Expression: fmt.Sprintf("request.name.startsWith(%q)", prefix+"-"),
			}},
			SideEffects:             ptr.To(registrationv1.SideEffectClassNone),
			AdmissionReviewVersions: []string{"v1"},
			FailurePolicy:           ptr.To(registrationv1.Fail),
			TimeoutSeconds:          ptr.To(int32(10)),
		}},
	}
	if _, err := client.Create(context.Background(), cfg, metav1.CreateOptions{}); err != nil {
		t.Fatalf("registering the write trigger: %v", err)
	}
	t.Cleanup(func() {
		_ = client.Delete(context.Background(), cfg.Name, metav1.DeleteOptions{})
		srv.Close()
	})
	w.waitCalled(t, prefix)
	return w
}

// waitCalled dry-runs the create of a flavor until the API server, which loads webhook
// configurations in the background, has called the webhook.
func (w *writeTrigger) waitCalled(t *testing.T, prefix string) {
	t.Helper()
	flavors := dynamic.NewForConfigOrDie(admin).Resource(resourceFlavors)
	probe := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": resourceFlavors.GroupVersion().String(), "kind": "ResourceFlavor",
		"metadata": map[string]any{"name": prefix + "-probe"},
	}}
	var last error
	err := wait.PollUntilContextTimeout(context.Background(), 100*time.Millisecond, 30*time.Second, true, func(ctx context.Context) (bool, error) {
		_, last = flavors.Create(ctx, probe, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
		select {
		case <-w.probed:
			return true, nil
		default:
			return false, nil
		}
	})
	if err != nil {
		t.Fatalf("the API server did not call the write trigger within 30s (last dry run: %v)", last)
	}
}

// arm returns a channel that is closed once the at-th admission of op from now on is admitted.
func (w *writeTrigger) arm(op admissionv1.Operation, at int) <-chan struct{} {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.op, w.at, w.count, w.fired = op, at, 0, make(chan struct{})
	return w.fired
}

func (w *writeTrigger) serve(rw http.ResponseWriter, r *http.Request) {
	var review admissionv1.AdmissionReview
	if err := json.NewDecoder(r.Body).Decode(&review); err != nil || review.Request == nil {
		http.Error(rw, fmt.Sprintf("not an AdmissionReview: %v", err), http.StatusBadRequest)
		return
	}
	req := review.Request
	w.mu.Lock()
	switch {
	case req.DryRun != nil && *req.DryRun:
		select {
		case <-w.probed:
		default:
			close(w.probed)
		}
	case w.fired != nil && req.Operation == w.op:
		if w.count++; w.count == w.at {
			close(w.fired)
			w.fired = nil
		}
	}
	w.mu.Unlock()
	review.Response = &admissionv1.AdmissionResponse{UID: req.UID, Allowed: true}
	review.Request = nil
	rw.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(rw).Encode(review)
}
