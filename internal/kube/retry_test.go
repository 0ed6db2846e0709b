package kube

import (
	"net"
	"net/http"
	"os"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// What the retrying transport retries, and after how long; the fault tests (internal/faulttest)
// show it against a real API server behind a faulty proxy and a stopped one.
//
//nolint:bodyclose // the answers have no body: the classifier reads status and headers only
func TestRetryable(t *testing.T) {
	refused := &net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}
	reset := &net.OpError{Op: "read", Net: "tcp", Err: os.NewSyscallError("read", syscall.ECONNRESET)}
	answer := func(code int, retryAfter string) *http.Response {
		r := &http.Response{StatusCode: code, Status: http.StatusText(code), Header: http.Header{}}
		if retryAfter != "" {
			r.Header.Set("Retry-After", retryAfter)
		}
		return r
	}
	request := func(method, contentType string) *http.Request {
		r, _ := http.NewRequest(method, "https://example.com/apis/x", nil)
		if contentType != "" {
			r.Header.Set("Content-Type", contentType)
		}
		return r
	}
	get, apply := request(http.MethodGet, ""), request(http.MethodPatch, "application/apply-patch+yaml")
	mergePatch, post := request(http.MethodPatch, "application/merge-patch+json"), request(http.MethodPost, "")
	for _, tc := range []struct {
		name     string
		answered bool
		req      *http.Request
		resp     *http.Response
		err      error
		retry    bool
		wait     time.Duration // the least wait: Retry-After, or the first backoff
	}{
		{"429 with Retry-After", true, apply, answer(429, "3"), nil, true, 3 * time.Second},
		{"503 with Retry-After", true, get, answer(503, "1"), nil, true, time.Second},
		{"500 with Retry-After", true, get, answer(500, "2"), nil, true, 2 * time.Second},
		{"Retry-After: 0 waits the backoff", true, get, answer(429, "0"), nil, true, backoffBase},
		{"503 without Retry-After is final", true, get, answer(503, ""), nil, false, 0},
		{"403 is final", true, apply, answer(403, "1"), nil, false, 0},
		{"404 is an answer", true, get, answer(404, ""), nil, false, 0},
		{"refused after an answer: restarting", true, apply, nil, refused, true, backoffBase},
		{"refused before any answer: misconfigured", false, get, nil, refused, false, 0},
		{"reset of a read", true, get, nil, reset, true, backoffBase},
		{"reset of a server-side apply", true, apply, nil, reset, true, backoffBase},
		{"reset of a merge patch is final", true, mergePatch, nil, reset, false, 0},
		{"reset of a create is final", true, post, nil, reset, false, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rt := retryTransport{answered: new(atomic.Bool)}
			rt.answered.Store(tc.answered)
			wait, why, retry := rt.retryable(tc.req, tc.resp, tc.err, 1)
			if retry != tc.retry {
				t.Fatalf("retry = %v (%s); want %v", retry, why, tc.retry)
			}
			if retry && (wait < tc.wait || wait > max(tc.wait, backoffBase+backoffBase/4) || why == "") {
				t.Errorf("wait %s (%s); want %s", wait, why, tc.wait)
			}
		})
	}
}

func TestBackoffGrowsToItsCap(t *testing.T) {
	for attempt, least := range map[int]time.Duration{1: backoffBase, 2: 2 * backoffBase, 3: 4 * backoffBase, 20: backoffMax} {
		if got := backoff(attempt); got < least || got > least+least/4 {
			t.Errorf("backoff(%d) = %s; want %s to %s", attempt, got, least, least+least/4)
		}
	}
}
