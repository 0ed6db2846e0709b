package kube

import (
	"context"
	"errors"
	"net"
	"net/http"
	"os"
	"strings"
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

// A deadline that passes during an attempt after a transient fault is the fault outlasting the
// time, said as such with the fault, not a bare "context deadline exceeded": on a loaded machine
// the last attempt before the deadline may still be on its way when it passes.
func TestRoundTrip_deadlineDuringARetry(t *testing.T) {
	attempts := 0
	rt := retryTransport{answered: new(atomic.Bool), next: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		attempts++
		if attempts == 1 {
			return &http.Response{StatusCode: http.StatusServiceUnavailable, Status: "503 Service Unavailable",
				Header: http.Header{"Retry-After": {"0"}}, Body: http.NoBody}, nil
		}
		<-r.Context().Done() // the second attempt is on its way until the deadline
		return nil, r.Context().Err()
	})}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "https://example.com/apis/x", nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = rt.RoundTrip(req) //nolint:bodyclose // no answer on this path
	var exhausted *RetriesExhaustedError
	if !errors.As(err, &exhausted) || exhausted.Attempts != attempts || !strings.Contains(err.Error(), "503 Service Unavailable") {
		t.Fatalf("err = %v after %d attempts; want the 503 reported as outlasting the deadline", err, attempts)
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
