package kube_test

import (
	"context"
	"net/http"
	"path"
	"sync/atomic"
	"testing"

	"k8s.io/client-go/rest"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
)

// afterOneRead is a client and a context for a wait or delete that must end unfinished, to show
// what it says then: the context ends as the client starts to read the object named name again
// after one whole read, so the wait ends having read it exactly once, however loaded the machine
// is. A short deadline could end it before its first read, and it would then say something else.
func afterOneRead(t *testing.T, name string) (context.Context, *kube.Client) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	var read atomic.Bool
	cfg := rest.CopyConfig(acctest.RestConfig(t))
	// The first wrapper is the innermost: it sees each attempt the client's retries make.
	cfg.Wrap(func(next http.RoundTripper) http.RoundTripper {
		return roundTripFunc(func(r *http.Request) (*http.Response, error) {
			if r.Method != http.MethodGet || path.Base(r.URL.Path) != name {
				return next.RoundTrip(r)
			}
			if read.Load() {
				cancel()
			}
			resp, err := next.RoundTrip(r)
			if err == nil && resp.StatusCode == http.StatusOK {
				read.Store(true)
			}
			return resp, err
		})
	})
	return ctx, kube.NewClient(func() (*rest.Config, error) { return cfg, nil }, "")
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
