package faulttest

import (
	"regexp"
	"strings"
	"testing"
	"time"

	admissionv1 "k8s.io/api/admission/v1"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
)

// stopTimeout is each resource's create and delete timeout in the stop tests: while the API
// server is down the provider retries (connection refused, after it answered before; or, while it
// shuts down, 429 with Retry-After) until then.
const stopTimeout = "5s"

// The API server is told to stop (SIGTERM) in the middle of an apply of W100 (50 ResourceFlavors +
// 50 ClusterQueues), as it admits the 30th create, and stays down until the apply has failed:
// every resource that could not be written fails with an error naming its object and the fault,
// after retrying until its timeout; the state keeps every object that was written, and once the
// API server is back on the same etcd data, a second apply converges with every object created
// once and none lost. Then the same for a destroy, stopped at the 40th delete.
func TestFault_apiServerStopsDuringApplyAndDestroy(t *testing.T) {
	requireOwnCluster(t)
	prefix := prefixFor("stop")
	ws := acctest.NewWorkspace(t, queuesConfig(prefix, 50, stopTimeout))
	trigger := newWriteTrigger(t, prefix)
	// A failed test leaves it running for the next (and for the trigger's cleanup, which runs after).
	t.Cleanup(func() { _ = own.StartAPIServer() })

	written := stopWhen(t, ws, prefix, "apply", trigger.arm(admissionv1.Create, 30))
	if len(written) == 0 || len(written) == 100 {
		t.Fatalf("the API server stopped with %d of 100 objects written; want some but not all", len(written))
	}
	st := byName(t, ws.State(t))
	for name := range written {
		if _, ok := st[name]; !ok {
			t.Errorf("%s was written but is not in the state: the next apply would refuse it as someone else's", name)
		}
	}
	for name, e := range st {
		if uid, ok := written[name]; !ok || uid != e.UID {
			t.Errorf("the state holds %s (%s, uid %s), which the cluster does not (uid %q)", name, e.Address, e.UID, uid)
		}
	}
	t.Logf("%d objects written before the stop, %d in the state", len(written), len(st))

	// The rerun converges: all 100, each written object kept (same UID: not created twice).
	ws.Must(t, "apply", "-auto-approve", "-input=false", "-parallelism=10")
	live := liveQueues(t, prefix)
	st = byName(t, ws.State(t))
	if len(live) != 100 || len(st) != 100 {
		t.Fatalf("after the rerun: %d objects in the cluster and %d in the state; want 100 of each", len(live), len(st))
	}
	for name, uid := range written {
		if live[name] != uid {
			t.Errorf("%s was replaced by the rerun (uid %s, now %s)", name, uid, live[name])
		}
	}
	for name, e := range st {
		if e.UID != live[name] || e.Tainted {
			t.Errorf("%s: state uid %s (tainted %v), cluster uid %s", name, e.UID, e.Tainted, live[name])
		}
	}
	if out, _, err := ws.Run(t, "plan", "-detailed-exitcode", "-input=false"); err != nil {
		t.Fatalf("after the rerun, the plan is not empty: %v\n%s", err, out)
	}

	left := stopWhen(t, ws, prefix, "destroy", trigger.arm(admissionv1.Delete, 40))
	if len(left) == 0 || len(left) == 100 {
		t.Fatalf("the API server stopped with %d of 100 objects left; want some but not all", len(left))
	}
	st = byName(t, ws.State(t))
	for name := range left {
		if _, ok := st[name]; !ok {
			t.Errorf("%s is still in the cluster but was dropped from the state: nothing would delete it", name)
		}
	}
	t.Logf("%d objects left after the stop, %d in the state", len(left), len(st))
	ws.Must(t, "destroy", "-auto-approve", "-input=false", "-parallelism=10")
	if live := liveQueues(t, prefix); len(live) != 0 {
		t.Errorf("after the second destroy, %d objects are left: %v", len(live), live)
	}
	if st := ws.State(t); len(st) != 0 {
		t.Errorf("after the second destroy, the state holds %d resources", len(st))
	}
}

// faultError is what an error of a resource that met the stopped API server says: which object,
// and that the server kept refusing until the resource's timeout.
var faultError = regexp.MustCompile(`Error: (Applying|Deleting|Reading) (ResourceFlavor|ClusterQueue) \S+`)

// stopWhen runs `command -auto-approve` in ws, stops the API server when fired is closed, waits
// for the command to fail, checks its errors, starts the API server again, and returns the
// objects of prefix then in the cluster (name to UID).
func stopWhen(t *testing.T, ws *acctest.Workspace, prefix, command string, fired <-chan struct{}) map[string]string {
	t.Helper()
	done, wait := ws.Background(t, command, "-auto-approve", "-input=false", "-parallelism=10")
	start := time.Now()
	select {
	case <-fired:
	case <-done:
		out, err := wait()
		t.Fatalf("%s ended (%v) before the API server was told to stop:\n%s", command, err, out)
	}
	told := time.Now()
	if err := own.StopAPIServer(); err != nil {
		t.Fatal(err)
	}
	stopped := time.Now()
	t.Logf("%s: API server told to stop after %s, stopped %s later", command,
		told.Sub(start).Round(100*time.Millisecond), stopped.Sub(told).Round(100*time.Millisecond))
	out, err := wait()
	t.Logf("%s failed %s after the stop", command, time.Since(stopped).Round(100*time.Millisecond))
	if err == nil {
		t.Fatalf("%s succeeded with the API server stopped:\n%s", command, out)
	}
	errs := faultError.FindAllString(out, -1)
	if len(errs) == 0 {
		t.Fatalf("%s failed without an error naming an object:\n%s", command, out)
	}
	flat := strings.Join(strings.Fields(out), " ") // the CLI wraps long lines
	down := strings.Contains(flat, "connection refused") || strings.Contains(flat, "429 Too Many Requests (Retry-After")
	if !strings.Contains(flat, "until the resource's timeout") || !down {
		t.Errorf("%s's errors do not say that the API server refused requests until the timeout:\n%s", command, out)
	}
	t.Logf("%d errors, e.g. %s", len(errs), excerpt(out, errs[0]))
	if err := own.StartAPIServer(); err != nil {
		t.Fatal(err)
	}
	t.Logf("API server started again")
	return liveQueues(t, prefix)
}

// excerpt is the diagnostic of out that starts with first, up to its end.
func excerpt(out, first string) string {
	i := strings.Index(out, first)
	if i < 0 {
		return first
	}
	s := out[i:]
	if j := strings.Index(s[1:], "Error:"); j >= 0 {
		s = s[:j+1]
	}
	return strings.Join(strings.Fields(s), " ")
}
