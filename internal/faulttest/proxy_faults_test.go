package faulttest

import (
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
)

// The proxy answers the first 20 requests 429 (Retry-After: 1), the next 20 503 (Retry-After: 1),
// and resets the next 20 connections (counted, not timed: every fault is met however slowly a
// loaded machine sends the requests); it resets the first server-side apply of every object
// whenever it comes, and delays every request by 100 ms throughout: the apply of 20 objects (10
// ResourceFlavors, 10 ClusterQueues) succeeds once the faults stop, every retry after a 429 or 503
// waited for the Retry-After, and reset reads and writes were sent again.
func TestFault_throttledAndResetThenSucceeds(t *testing.T) {
	requireCluster(t)
	prefix := prefixFor("proxy")
	var mu sync.Mutex
	patchesReset := map[string]bool{}
	const each = 20 // requests per fault
	proxy := newFaultProxy(t, 100*time.Millisecond, func(r *http.Request, nth int) *fault {
		if r.Method == http.MethodPatch {
			// The first server-side apply of each object loses its connection, whenever it comes.
			mu.Lock()
			defer mu.Unlock()
			if !patchesReset[r.URL.Path] {
				patchesReset[r.URL.Path] = true
				return &fault{reset: true}
			}
		}
		switch {
		case nth <= each:
			return &fault{status: http.StatusTooManyRequests, retryAfter: 1}
		case nth <= 2*each:
			return &fault{status: http.StatusServiceUnavailable, retryAfter: 1}
		case nth <= 3*each:
			return &fault{reset: true}
		}
		return nil
	})
	ws := acctest.NewWorkspace(t, queuesConfig(prefix, 10, ""), proxy.env()...)
	t.Cleanup(func() { _, _, _ = ws.Direct().Run(t, "destroy", "-auto-approve", "-input=false") })
	ws.Must(t, "apply", "-auto-approve", "-input=false", "-parallelism=10")
	if live := liveQueues(t, prefix); len(live) != 20 {
		t.Fatalf("%d objects in the cluster; want 20", len(live))
	}

	events := proxy.recorded()
	counts := map[int]int{}
	resetThenPassed := 0
	for i, e := range events {
		if e.passed {
			continue
		}
		counts[e.status]++
		// The next request for the same object and verb.
		for _, next := range events[i+1:] {
			if next.key != e.key {
				continue
			}
			if e.status != 0 {
				// Its arrival, less the proxy's latency, is when the provider sent it.
				if waited := next.at.Sub(e.at) - 100*time.Millisecond; waited < 950*time.Millisecond {
					t.Errorf("%s was retried %s after a %d with Retry-After: 1", e.key, waited, e.status)
				}
			} else if next.passed {
				resetThenPassed++
			}
			break
		}
	}
	t.Logf("faults: %d answered 429, %d answered 503, %d connections reset (%d of them then passed); %d requests in all",
		counts[http.StatusTooManyRequests], counts[http.StatusServiceUnavailable], counts[0], resetThenPassed, len(events))
	if counts[http.StatusTooManyRequests] == 0 || counts[http.StatusServiceUnavailable] == 0 || counts[0] == 0 || resetThenPassed == 0 {
		t.Errorf("not every fault was met and survived: %v, %d resets then passed", counts, resetThenPassed)
	}
	// Every object's first write was reset, and every object was written.
	written := map[string]bool{}
	for _, e := range events {
		if e.passed && e.status/100 == 2 && strings.HasPrefix(e.key, "PATCH ") {
			written[strings.TrimPrefix(e.key, "PATCH ")] = true
		}
	}
	if len(patchesReset) != 20 || len(written) != 20 {
		t.Errorf("%d objects' first write was reset and %d objects were written; want 20 of each", len(patchesReset), len(written))
	}
	for p := range patchesReset {
		if !written[p] {
			t.Errorf("the write of %s was reset and never retried", p)
		}
	}
	if out, _, err := ws.Run(t, "plan", "-detailed-exitcode", "-input=false"); err != nil {
		t.Fatalf("after the apply, the plan is not empty: %v\n%s", err, out)
	}
}

// The proxy answers every write 503 with Retry-After: 1, for good: the apply fails when the
// resource's create timeout (4s) ends, with an error saying so and what the server answered, and
// nothing is in the state. That it gives up at the timeout is counted, not timed: each attempt
// after the first waits at least the Retry-After, so no more than 5 fit in 4s, however slow the
// machine; the proxy saw as many as the error reports; and a provider that keeps writing is
// stopped at twice that many.
func TestFault_throttlingOutlastsTheTimeout(t *testing.T) {
	requireCluster(t)
	prefix := prefixFor("timeout")
	const timeout, retryAfter = 4 * time.Second, time.Second
	const most = int(timeout/retryAfter) + 1 // attempts: the first, then one per Retry-After
	var writes atomic.Int32
	runaway := make(chan struct{})
	var once sync.Once
	proxy := newFaultProxy(t, 0, func(r *http.Request, _ int) *fault {
		if r.Method != http.MethodPatch {
			return nil
		}
		if int(writes.Add(1)) > 2*most {
			once.Do(func() { close(runaway) })
		}
		return &fault{status: http.StatusServiceUnavailable, retryAfter: int(retryAfter / time.Second)}
	})
	ws := acctest.NewWorkspace(t, queuesConfig(prefix, 1, timeout.String()), proxy.env()...)
	start := time.Now()
	done, wait := ws.Background(t, "apply", "-auto-approve", "-input=false", "-target=mlplatform_resource_flavor.f")
	select {
	case <-done:
	case <-runaway:
		t.Fatalf("the provider kept writing past its create timeout of %s: %d attempts so far, each answered 503 with Retry-After: 1", timeout, writes.Load())
	}
	out, err := wait()
	flat := strings.Join(strings.Fields(out), " ")
	if err == nil {
		t.Fatalf("the apply succeeded while every write was refused:\n%s", out)
	}
	want := regexp.MustCompile(`Error: Applying ResourceFlavor ` + prefix + `-f0 .*kept failing for \d+(\.\d)?s \((\d+) attempts\), until the resource's timeout .*: last answer: 503 Service Unavailable \(Retry-After: 1\)`)
	m := want.FindStringSubmatch(flat)
	if m == nil {
		t.Fatalf("the error does not say the write kept failing until the timeout, with the 503:\n%s", out)
	}
	attempts, _ := strconv.Atoi(m[2])
	t.Logf("the apply failed after %s: %d attempts, %d writes through the proxy", time.Since(start).Round(100*time.Millisecond), attempts, writes.Load())
	if seen := int(writes.Load()); attempts != seen || attempts > most {
		t.Errorf("the error counts %d attempts and the proxy saw %d writes; want the same, and no more than %d in %s with Retry-After: 1", attempts, seen, most, timeout)
	}
	if st := ws.State(t); len(st) != 0 {
		t.Errorf("the state holds %d resources; want none", len(st))
	}
	if live := liveQueues(t, prefix); len(live) != 0 {
		t.Errorf("the cluster holds %v; want nothing", live)
	}
}
