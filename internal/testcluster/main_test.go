package testcluster

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/dynamic"
)

// cluster is the control plane with Kueue and Argo that all tests here share; nil without TF_ACC
// or with KUBECONFIG set. clusterDir holds its logs.
var (
	cluster    *Cluster
	clusterDir string
)

func TestMain(m *testing.M) { os.Exit(runTests(m)) }

func runTests(m *testing.M) int {
	if os.Getenv("TF_ACC") == "" || os.Getenv(NoClusterEnv) == "none" {
		return m.Run() // the tests skip: they test the local control plane
	}
	if os.Getenv("KUBECONFIG") != "" {
		// The acceptance tests use that cluster; this package tests only the local control plane.
		fmt.Println("KUBECONFIG is set: skipping the local control plane's tests")
		return m.Run()
	}
	dir, err := os.MkdirTemp("", "testcluster-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	hostKueueEtcBefore = hostKueueEtc()
	start := time.Now()
	clusterDir = dir
	if cluster, err = Start(dir, WithControllers(), WithKueue(), WithArgo(), WithNodes()); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Printf("control plane, controllers, Kueue, Argo, kube-scheduler and KWOK ready in %s\n", time.Since(start).Round(100*time.Millisecond))
	code := m.Run()
	if err := cluster.Stop(); err != nil {
		fmt.Fprintln(os.Stderr, "stopping:", err)
	}
	if code == 0 {
		_ = os.RemoveAll(dir)
	} else {
		fmt.Fprintf(os.Stderr, "logs (kueue, argo, controllers, scheduler, kwok, karpenter): %s/*.log\n", dir)
	}
	return code
}

// hostKueueEtcBefore is what the host's /etc/kueue held before Kueue's manager started.
var hostKueueEtcBefore string

// hostKueueEtc describes the host's /etc/kueue tree: every path with its size and time, or
// "absent".
func hostKueueEtc() string {
	var b strings.Builder
	err := filepath.WalkDir("/etc/kueue", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "%s %d %s\n", path, info.Size(), info.ModTime())
		return nil
	})
	if errors.Is(err, fs.ErrNotExist) {
		return "absent"
	}
	if err != nil {
		return "unreadable: " + err.Error()
	}
	return b.String()
}

// Kueue's manager reads its metrics certificate from a fixed path under /etc; the harness serves
// it from a temporary directory in a private mount namespace, so the host's /etc is never written.
func TestKueueWritesNothingOnTheHost(t *testing.T) {
	if cluster == nil {
		t.Skip("needs the local control plane: set TF_ACC=1 without KUBECONFIG")
	}
	if after := hostKueueEtc(); after != hostKueueEtcBefore {
		t.Fatalf("the host's /etc/kueue changed while Kueue's manager ran:\nbefore: %s\nafter:  %s", hostKueueEtcBefore, after)
	}
}

func kueueGVR(resource string) schema.GroupVersionResource {
	return schema.GroupVersionResource{Group: "kueue.x-k8s.io", Version: "v1beta2", Resource: resource}
}

var (
	flavors       = kueueGVR("resourceflavors")
	clusterQueues = kueueGVR("clusterqueues")
	localQueues   = kueueGVR("localqueues")
	workloads     = kueueGVR("workloads")
	jobs          = schema.GroupVersionResource{Group: "batch", Version: "v1", Resource: "jobs"}
	namespaces    = schema.GroupVersionResource{Version: "v1", Resource: "namespaces"}
)

func client(t *testing.T) dynamic.Interface {
	t.Helper()
	if cluster == nil {
		t.Skip("acceptance test of the local control plane: set TF_ACC=1 and unset KUBECONFIG")
	}
	c, err := dynamic.NewForConfig(cluster.Config)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// create creates an object from its manifest (apiVersion, kind, metadata, spec).
func create(c dynamic.Interface, gvr schema.GroupVersionResource, obj map[string]any) error {
	u := &unstructured.Unstructured{Object: obj}
	_, err := c.Resource(gvr).Namespace(u.GetNamespace()).Create(context.Background(), u, metav1.CreateOptions{})
	return err
}

func mustCreate(t *testing.T, c dynamic.Interface, gvr schema.GroupVersionResource, obj map[string]any) {
	t.Helper()
	if err := create(c, gvr, obj); err != nil {
		t.Fatalf("creating %s: %v", gvr.Resource, err)
	}
}

// condition is the status, reason and message of a condition of obj ("" if absent).
func condition(obj *unstructured.Unstructured, typ string) (status, reason, message string) {
	conds, _, _ := unstructured.NestedSlice(obj.Object, "status", "conditions")
	for _, c := range conds {
		if m, ok := c.(map[string]any); ok && m["type"] == typ {
			s, _ := m["status"].(string)
			r, _ := m["reason"].(string)
			msg, _ := m["message"].(string)
			return s, r, msg
		}
	}
	return "", "", ""
}

// eventually polls check for up to two minutes; check returns whether it is done and what it saw.
func eventually(t *testing.T, what string, check func() (bool, string)) {
	t.Helper()
	eventuallyWithin(t, 2*time.Minute, what, check)
}

// eventuallyWithin is eventually for up to within.
func eventuallyWithin(t *testing.T, within time.Duration, what string, check func() (bool, string)) {
	t.Helper()
	var saw string
	err := wait.PollUntilContextTimeout(t.Context(), 250*time.Millisecond, within, true, func(context.Context) (bool, error) {
		var done bool
		done, saw = check()
		return done, nil
	})
	if err != nil {
		t.Fatalf("%s: not within %s (%v); last seen: %s", what, within, err, saw)
	}
}

// notYet is what a poll saw when a read answered NotFound; any other error fails the test.
func notYet(t *testing.T, err error) string {
	t.Helper()
	if !apierrors.IsNotFound(err) {
		t.Fatal(err)
	}
	return err.Error()
}

// waitCondition waits until the named cluster-scoped object has the condition with status and reason.
func waitCondition(t *testing.T, c dynamic.Interface, gvr schema.GroupVersionResource, name, typ, status, reason string) {
	t.Helper()
	eventually(t, fmt.Sprintf("%s %s %s=%s (%s)", gvr.Resource, name, typ, status, reason), func() (bool, string) {
		obj, err := c.Resource(gvr).Get(context.Background(), name, metav1.GetOptions{})
		if err != nil {
			return false, notYet(t, err)
		}
		s, r, m := condition(obj, typ)
		return s == status && r == reason, fmt.Sprintf("%s=%q reason %q: %s", typ, s, r, m)
	})
}
