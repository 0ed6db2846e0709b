package kube

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflog"
	utilnet "k8s.io/apimachinery/pkg/util/net"
)

// RetryWindow bounds the retries of a call whose context has no deadline (reads during a plan);
// creates, updates and deletes retry until the resource's timeout instead.
const RetryWindow = time.Minute

// Backoff between attempts without a Retry-After: doubling from backoffBase up to backoffMax,
// with up to a quarter more at random so that parallel calls do not retry in step.
const (
	backoffBase = 250 * time.Millisecond
	backoffMax  = 8 * time.Second
)

// retryTransport retries what client-go leaves to the caller, in one place for every call the
// provider makes (reads, applies, deletes, discovery):
//   - an answer with Retry-After (429 from API Priority and Fairness, 503 from a server shutting
//     down or a load balancer, any 5xx): after the time the server asks for, or the backoff if
//     longer. client-go retries these too, but at most 10 times and regardless of how long the
//     operation may take;
//   - a connection reset or cut short, for requests that may safely be sent twice (GET, DELETE,
//     PUT, and server-side apply, which is idempotent; client-go retries only GET);
//   - a connection refused once the server has answered this provider before (an API server
//     restarting), with backoff. A server that never answered is a configuration error, reported
//     at once.
//
// It gives up when the next attempt would start after the request's deadline (the resource's
// timeout) or, without one, after RetryWindow, and says so: a fault that outlasts the timeout is
// reported as a timeout, with the last answer, also when the deadline passes during an attempt.
type retryTransport struct {
	next     http.RoundTripper
	answered *atomic.Bool // the server has answered at least once
}

func retrying(next http.RoundTripper) http.RoundTripper {
	return retryTransport{next: next, answered: new(atomic.Bool)}
}

// RetriesExhaustedError is a call that failed with a transient fault until its time ran out.
type RetriesExhaustedError struct {
	Attempts int
	Elapsed  time.Duration
	Deadline string // what bounded the retries
	Last     string // the last answer or error
}

func (e *RetriesExhaustedError) Error() string {
	return fmt.Sprintf("the API server kept failing for %s (%d attempts), until %s: last %s",
		e.Elapsed.Round(100*time.Millisecond), e.Attempts, e.Deadline, e.Last)
}

// Timeout makes the error a timeout for net.Error checks, as it is one.
func (e *RetriesExhaustedError) Timeout() bool { return true }

func (t retryTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	start := time.Now()
	deadline, bounded := ctx.Deadline()
	bound := "the resource's timeout (raise it in the resource's timeouts block)"
	if !bounded {
		deadline, bound = start.Add(RetryWindow), fmt.Sprintf("the provider's retry window of %s", RetryWindow)
	}
	last := "" // why the previous attempt failed
	for attempt := 1; ; attempt++ {
		resp, err := t.next.RoundTrip(req)
		if err == nil {
			t.answered.Store(true)
		}
		delay, why, retry := t.retryable(req, resp, err, attempt)
		if retry {
			last = why
		}
		if errors.Is(ctx.Err(), context.DeadlineExceeded) && last != "" && (retry || err != nil) {
			// The deadline passed during this attempt, which failed too, after or with a transient
			// fault: the fault outlasted the time, whether the attempt was cut or answered.
			discard(resp)
			return nil, &RetriesExhaustedError{Attempts: attempt, Elapsed: time.Since(start), Deadline: bound, Last: last}
		}
		if !retry || ctx.Err() != nil {
			return resp, err
		}
		discard(resp)
		if time.Now().Add(delay).After(deadline) {
			return nil, &RetriesExhaustedError{Attempts: attempt, Elapsed: time.Since(start), Deadline: bound, Last: why}
		}
		tflog.Warn(ctx, "Kubernetes API call failed with a transient fault; retrying", map[string]any{
			"method": req.Method, "path": req.URL.Path, "attempt": attempt, "fault": why, "retry_in_ms": delay.Milliseconds(),
		})
		if err := sleep(ctx, delay); err != nil {
			return nil, &RetriesExhaustedError{Attempts: attempt, Elapsed: time.Since(start), Deadline: bound, Last: why}
		}
		if req, err = rewound(req); err != nil {
			return nil, err
		}
	}
}

// discard drains and closes an answer that is not returned, so that its connection is reused.
func discard(resp *http.Response) {
	if resp != nil {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
		_ = resp.Body.Close()
	}
}

// retryable says whether to try again, after how long, and why.
func (t retryTransport) retryable(req *http.Request, resp *http.Response, err error, attempt int) (time.Duration, string, bool) {
	if err != nil {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return 0, "", false
		}
		replayable := req.Body == nil || req.GetBody != nil
		switch {
		case utilnet.IsConnectionRefused(err) && t.answered.Load() && replayable:
			return backoff(attempt), "error: " + err.Error(), true
		case !idempotent(req) || !replayable:
		case utilnet.IsConnectionReset(err) || utilnet.IsHTTP2ConnectionLost(err):
			// In words of its own: client-go retries a GET whose error reads like a reset, and the
			// retries are over.
			return backoff(attempt), "error: the connection was reset", true
		case utilnet.IsProbableEOF(err):
			return backoff(attempt), "error: the connection was closed before the answer", true
		case isNetTimeout(err):
			return backoff(attempt), "error: no answer in time", true
		}
		return 0, "", false
	}
	if resp.StatusCode != http.StatusTooManyRequests && resp.StatusCode < 500 {
		return 0, "", false
	}
	after, ok := retryAfter(resp)
	if !ok || (req.Body != nil && req.GetBody == nil) {
		return 0, "", false
	}
	// At least what the server asks for, and no less than the backoff: a server answering
	// Retry-After: 0 to each attempt is not asked again at once, time after time.
	return max(after, backoff(attempt)), fmt.Sprintf("answer: %s (Retry-After: %s)", resp.Status, resp.Header.Get("Retry-After")), true
}

// idempotent is a request that has the same effect sent twice as once.
func idempotent(req *http.Request) bool {
	switch req.Method {
	case http.MethodGet, http.MethodHead, http.MethodPut, http.MethodDelete:
		return true
	case http.MethodPatch:
		return req.Header.Get("Content-Type") == "application/apply-patch+yaml"
	}
	return false
}

func isNetTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// retryAfter is the wait a Retry-After header asks for (delay-seconds; an HTTP date is rare from an
// API server and taken as one second).
func retryAfter(resp *http.Response) (time.Duration, bool) {
	h := resp.Header.Get("Retry-After")
	if h == "" {
		return 0, false
	}
	if s, err := strconv.Atoi(h); err == nil && s >= 0 {
		return time.Duration(s) * time.Second, true
	}
	if when, err := http.ParseTime(h); err == nil {
		return max(time.Until(when), 0), true
	}
	return time.Second, true
}

func backoff(attempt int) time.Duration {
	d := backoffBase << min(attempt-1, 6)
	d = min(d, backoffMax)
	return d + rand.N(d/4+1) //nolint:gosec // jitter, not a secret
}

func sleep(ctx context.Context, d time.Duration) error {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-timer.C:
		return nil
	}
}

// rewound is req with its body ready to be sent again.
func rewound(req *http.Request) (*http.Request, error) {
	if req.Body == nil || req.GetBody == nil {
		return req, nil
	}
	body, err := req.GetBody()
	if err != nil {
		return nil, fmt.Errorf("retrying %s %s: %w", req.Method, req.URL.Path, err)
	}
	r := req.Clone(req.Context())
	r.Body = body
	return r, nil
}
