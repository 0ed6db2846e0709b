package faulttest

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
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

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
)

var crds = schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}

// Kueue's CRDs are removed between two applies: the plan, and an apply, fail with the install
// hint for every resource, and the state file is left byte for byte as it was. With the CRDs
// back (the objects went with them), the plan creates them again.
func TestFault_kueueCRDsRemovedBetweenApplies(t *testing.T) {
	requireOwnCluster(t)
	prefix := prefixFor("crds")
	ws := acctest.NewWorkspace(t, queuesConfig(prefix, 2, ""))
	ws.Must(t, "apply", "-auto-approve", "-input=false")
	t.Cleanup(func() { _, _, _ = ws.Run(t, "destroy", "-auto-approve", "-input=false") })
	statePath := filepath.Join(ws.Dir, "terraform.tfstate")
	before, err := os.ReadFile(statePath)
	if err != nil {
		t.Fatal(err)
	}

	removed := removeCRDs(t, "clusterqueues.kueue.x-k8s.io", "resourceflavors.kueue.x-k8s.io")
	hint := acctest.Words("Kueue v0.15 or newer (kueue.x-k8s.io/v1beta2) is not installed on this cluster: the API server does not serve kueue.x-k8s.io/v1beta2")
	for _, command := range [][]string{{"plan", "-input=false"}, {"apply", "-auto-approve", "-input=false"}} {
		out, _, err := ws.Run(t, command...)
		if err == nil {
			t.Fatalf("%s succeeded without Kueue's CRDs:\n%s", command[0], out)
		}
		// The flavors' reads fail; the queues, which depend on them, are not read.
		errs, hints := strings.Count(out, "Error: "), len(hint.FindAllString(out, -1))
		if errs < 2 || hints != errs {
			t.Errorf("%s: %d errors, %d of them with the install hint:\n%s", command[0], errs, hints, out)
		}
		after, err := os.ReadFile(statePath)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(before, after) {
			t.Errorf("%s changed the state file", command[0])
		}
	}

	restoreCRDs(t, removed)
	out, _, err := ws.Run(t, "plan", "-detailed-exitcode", "-input=false")
	if code := exitCode(err); code != 2 || !bytes.Contains([]byte(out), []byte("4 to add, 0 to change, 0 to destroy")) {
		t.Fatalf("with the CRDs back (and the objects gone with them), the plan should create all 4 (exit %d):\n%s", code, out)
	}
	ws.Must(t, "apply", "-auto-approve", "-input=false")
}

func exitCode(err error) int {
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &exit):
		return exit.ExitCode()
	}
	return -1
}

// removeCRDs deletes the CRDs, waits until they are gone, and returns them for restoreCRDs (also
// called when the test ends, so later tests find them).
func removeCRDs(t *testing.T, names ...string) []*unstructured.Unstructured {
	t.Helper()
	ctx := context.Background()
	client := dynamic.NewForConfigOrDie(admin).Resource(crds)
	var removed []*unstructured.Unstructured
	for _, name := range names {
		crd, err := client.Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		removed = append(removed, crd)
	}
	t.Cleanup(func() { restoreCRDs(t, removed) })
	for _, name := range names {
		if err := client.Delete(ctx, name, metav1.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
		err := wait.PollUntilContextTimeout(ctx, 250*time.Millisecond, time.Minute, true, func(ctx context.Context) (bool, error) {
			_, err := client.Get(ctx, name, metav1.GetOptions{})
			return apierrors.IsNotFound(err), nil
		})
		if err != nil {
			t.Fatalf("CRD %s not gone: %v", name, err)
		}
	}
	return removed
}

// restoreCRDs installs each CRD again, if it is missing, and waits until it is Established.
func restoreCRDs(t *testing.T, removed []*unstructured.Unstructured) {
	t.Helper()
	ctx := context.Background()
	client := dynamic.NewForConfigOrDie(admin).Resource(crds)
	for _, crd := range removed {
		if _, err := client.Get(ctx, crd.GetName(), metav1.GetOptions{}); err == nil {
			continue
		}
		fresh := &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": crd.GetAPIVersion(), "kind": crd.GetKind(),
			"metadata": map[string]any{"name": crd.GetName()},
			"spec":     crd.Object["spec"],
		}}
		if _, err := client.Create(ctx, fresh, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		err := wait.PollUntilContextTimeout(ctx, 250*time.Millisecond, time.Minute, true, func(ctx context.Context) (bool, error) {
			obj, err := client.Get(ctx, crd.GetName(), metav1.GetOptions{})
			if err != nil {
				return false, err
			}
			conditions, _, _ := unstructured.NestedSlice(obj.Object, "status", "conditions")
			for _, c := range conditions {
				if m, _ := c.(map[string]any); m["type"] == "Established" && m["status"] == "True" {
					return true, nil
				}
			}
			return false, nil
		})
		if err != nil {
			t.Fatalf("CRD %s not established again: %v", crd.GetName(), err)
		}
	}
}
