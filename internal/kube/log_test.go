package kube

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-log/tflogtest"
)

const secret = "s3cr3t-t0ken"

// loggedCall makes one request with a bearer token and a token in the query string through
// logRequests, and returns the one log entry it wrote and the whole log.
func loggedCall(t *testing.T, url string) (entry map[string]any, log string) {
	t.Helper()
	var out bytes.Buffer
	ctx := tflogtest.RootLogger(context.Background(), &out)
	req, err := http.NewRequestWithContext(ctx, http.MethodPatch, url+"/apis/kueue.x-k8s.io/v1beta2/resourceflavors/a100?token="+secret, strings.NewReader(`{"password":"`+secret+`"}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+secret)
	if resp, err := logRequests(http.DefaultTransport).RoundTrip(req); err == nil {
		_ = resp.Body.Close()
	}
	entries, err := tflogtest.MultilineJSONDecode(bytes.NewReader(out.Bytes()))
	if err != nil || len(entries) != 1 {
		t.Fatalf("log entries %v (%v); want one", entries, err)
	}
	return entries[0], out.String()
}

func TestLogRequests(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusConflict)
	}))
	defer srv.Close()
	entry, log := loggedCall(t, srv.URL)
	want := map[string]any{
		"@level": "debug", "method": "PATCH", "path": "/apis/kueue.x-k8s.io/v1beta2/resourceflavors/a100", "status": float64(409),
	}
	for k, v := range want {
		if entry[k] != v {
			t.Errorf("%s = %v, want %v", k, entry[k], v)
		}
	}
	if _, ok := entry["duration_ms"].(float64); !ok {
		t.Errorf("no duration_ms in %v", entry)
	}
	if strings.Contains(log, secret) {
		t.Errorf("the log holds the token: %s", log)
	}
}

func TestLogRequests_transportError(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	srv.Close() // nothing listens: the call fails before any response
	entry, log := loggedCall(t, srv.URL)
	if entry["method"] != "PATCH" || entry["error"] == nil || entry["status"] != nil {
		t.Errorf("entry %v; want the method and the error, no status", entry)
	}
	if strings.Contains(log, secret) {
		t.Errorf("the log holds the token: %s", log)
	}
}
