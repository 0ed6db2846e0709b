package acctest

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
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/utils/ptr"
)

// ValidatingWebhook is a validating admission webhook served by the test: the API server calls
// admit for every request that rule and the CEL match expression select (dry runs excepted), and
// admits what it allows. It lets a test see, hold or count the writes of a Terraform run at the
// moment they reach the API server, which polling cannot.
type ValidatingWebhook struct {
	admit  func(*admissionv1.AdmissionRequest)
	probed chan struct{}
	once   sync.Once
}

// ServeValidatingWebhook serves admit as a webhook named name, registers it with the API server
// behind cfg and waits until the API server calls it: probe must send a dry-run request that the
// rule and match select (the API server loads webhook configurations in the background). It is
// unregistered when the test ends. timeout is how long the API server waits for admit.
func ServeValidatingWebhook(t *testing.T, cfg *rest.Config, name string, rule registrationv1.RuleWithOperations, match string,
	timeout time.Duration, probe func(context.Context) error, admit func(*admissionv1.AdmissionRequest),
) {
	t.Helper()
	w := &ValidatingWebhook{admit: admit, probed: make(chan struct{})}
	srv := httptest.NewTLSServer(http.HandlerFunc(w.serve))
	client := kubernetes.NewForConfigOrDie(cfg).AdmissionregistrationV1().ValidatingWebhookConfigurations()
	conf := &registrationv1.ValidatingWebhookConfiguration{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Webhooks: []registrationv1.ValidatingWebhook{{
			Name: "test.acctest.mlplatform.io",
			ClientConfig: registrationv1.WebhookClientConfig{
				URL:      ptr.To(srv.URL + "/validate"),
				CABundle: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}),
			},
			Rules:                   []registrationv1.RuleWithOperations{rule},
			MatchConditions:         []registrationv1.MatchCondition{{Name: "this-test", Expression: match}},
			SideEffects:             ptr.To(registrationv1.SideEffectClassNone),
			AdmissionReviewVersions: []string{"v1"},
			FailurePolicy:           ptr.To(registrationv1.Fail),
			TimeoutSeconds:          ptr.To(int32(timeout / time.Second)),
		}},
	}
	if _, err := client.Create(context.Background(), conf, metav1.CreateOptions{}); err != nil {
		t.Fatalf("registering webhook %s: %v", name, err)
	}
	t.Cleanup(func() {
		_ = client.Delete(context.Background(), conf.Name, metav1.DeleteOptions{})
		srv.Close()
	})
	var last error
	err := wait.PollUntilContextTimeout(context.Background(), 100*time.Millisecond, 30*time.Second, true, func(ctx context.Context) (bool, error) {
		last = probe(ctx)
		select {
		case <-w.probed:
			return true, nil
		default:
			return false, nil
		}
	})
	if err != nil {
		t.Fatalf("the API server did not call webhook %s within 30s (last dry run: %v)", name, last)
	}
}

func (w *ValidatingWebhook) serve(rw http.ResponseWriter, r *http.Request) {
	var review admissionv1.AdmissionReview
	if err := json.NewDecoder(r.Body).Decode(&review); err != nil || review.Request == nil {
		http.Error(rw, fmt.Sprintf("not an AdmissionReview: %v", err), http.StatusBadRequest)
		return
	}
	req := review.Request
	if req.DryRun != nil && *req.DryRun {
		w.once.Do(func() { close(w.probed) })
	} else {
		w.admit(req)
	}
	review.Response = &admissionv1.AdmissionResponse{UID: req.UID, Allowed: true}
	review.Request = nil
	rw.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(rw).Encode(review)
}

// Barrier is an admit function that holds each of the first n requests until n have arrived (or
// wait has passed), then lets them all through at once: n writers that each read an object and
// then write it are made to write at the same moment, after every read. met says whether they
// did: whether all n arrived before wait let one through alone.
func Barrier(n int, wait time.Duration) (admit func(*admissionv1.AdmissionRequest), met func() bool) {
	var mu sync.Mutex
	count, alone := 0, false
	all := make(chan struct{})
	return func(*admissionv1.AdmissionRequest) {
			mu.Lock()
			count++
			if count == n {
				close(all)
			}
			mine := count
			mu.Unlock()
			if mine <= n {
				select {
				case <-all:
				case <-time.After(wait):
					mu.Lock()
					alone = true
					mu.Unlock()
				}
			}
		}, func() bool {
			mu.Lock()
			defer mu.Unlock()
			return count >= n && !alone
		}
}
