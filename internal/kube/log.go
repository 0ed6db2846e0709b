package kube

import (
	"net/http"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// logRequests wraps a client transport so that every API call is logged at DEBUG through tflog,
// which makes `TF_LOG=debug` show what the provider asked of the cluster and how long it took.
// tflog finds Terraform's logger in the request's context: client-go hands the caller's ctx to
// the http.Request, so calls made with context.TODO (client-go's discovery) are not logged.
func logRequests(next http.RoundTripper) http.RoundTripper { return loggingTransport{next: next} }

type loggingTransport struct{ next http.RoundTripper }

// RoundTrip logs the method, the path (which names the resource and object), the status and the
// time to the response headers. Never headers (Authorization), bodies (whole objects, secrets
// among them) or the query string (nothing of use there, and a credential may be put in it).
func (t loggingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	start := time.Now()
	resp, err := t.next.RoundTrip(req)
	fields := map[string]any{
		"method":      req.Method,
		"path":        req.URL.Path,
		"duration_ms": time.Since(start).Milliseconds(),
	}
	if err != nil {
		fields["error"] = err.Error()
		tflog.Debug(req.Context(), "Kubernetes API call failed", fields)
		return resp, err
	}
	fields["status"] = resp.StatusCode
	tflog.Debug(req.Context(), "Kubernetes API call", fields)
	return resp, nil
}
