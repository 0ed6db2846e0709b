package acctest

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/dynamic"
)

var crdsGVR = schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}

// crdTimeout bounds each wait for a CRD to go or to be served again.
const crdTimeout = time.Minute

// RemoveCRDs deletes the CRDs named (e.g. "clusterqueues.kueue.x-k8s.io"), and with them every
// object of their kinds, and waits until they are gone. restore installs each again, when it is
// missing, and waits until the API server serves it; it also runs when the test ends, so that later
// tests find them. Only on the test binary's own cluster (RequireOwnCluster).
func RemoveCRDs(t *testing.T, names ...string) (restore func()) {
	t.Helper()
	ctx := context.Background()
	crds := Dynamic(t).Resource(crdsGVR)
	var removed []*unstructured.Unstructured
	for _, name := range names {
		crd, err := crds.Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		removed = append(removed, crd)
	}
	restore = func() {
		t.Helper()
		for _, crd := range removed {
			if err := restoreCRD(t, crds, crd); err != nil {
				t.Fatalf("CRD %s: %v", crd.GetName(), err)
			}
		}
	}
	t.Cleanup(restore)
	for _, name := range names {
		if err := crds.Delete(ctx, name, metav1.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
		err := wait.PollUntilContextTimeout(ctx, 250*time.Millisecond, crdTimeout, true, func(ctx context.Context) (bool, error) {
			_, err := crds.Get(ctx, name, metav1.GetOptions{})
			if apierrors.IsNotFound(err) {
				return true, nil
			}
			return false, err
		})
		if err != nil {
			t.Fatalf("CRD %s not gone: %v", name, err)
		}
	}
	return restore
}

// restoreCRD creates crd again (its spec alone) unless it is there, and waits until it is
// Established and discovery lists its resource: clients, the provider's too, find kinds by
// discovery, which follows Established by a moment.
func restoreCRD(t *testing.T, crds dynamic.ResourceInterface, crd *unstructured.Unstructured) error {
	ctx := context.Background()
	_, err := crds.Get(ctx, crd.GetName(), metav1.GetOptions{})
	switch {
	case err == nil:
		return nil
	case !apierrors.IsNotFound(err):
		return err
	}
	fresh := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": crd.GetAPIVersion(), "kind": crd.GetKind(),
		"metadata": map[string]any{"name": crd.GetName()},
		"spec":     crd.Object["spec"],
	}}
	if _, err := crds.Create(ctx, fresh, metav1.CreateOptions{}); err != nil {
		return err
	}
	group, _, _ := unstructured.NestedString(crd.Object, "spec", "group")
	plural, _, _ := unstructured.NestedString(crd.Object, "spec", "names", "plural")
	disc := discovery.NewDiscoveryClientForConfigOrDie(RestConfig(t))
	err = wait.PollUntilContextTimeout(ctx, 250*time.Millisecond, crdTimeout, true, func(ctx context.Context) (bool, error) {
		obj, err := crds.Get(ctx, crd.GetName(), metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		if !established(obj) {
			return false, nil
		}
		for _, version := range servedVersions(obj) {
			list, err := disc.ServerResourcesForGroupVersion(group + "/" + version)
			if err != nil || !slices.ContainsFunc(list.APIResources, func(r metav1.APIResource) bool { return r.Name == plural }) {
				return false, nil //nolint:nilerr // not served yet: discovery answers NotFound until it is
			}
		}
		return true, nil
	})
	if err != nil {
		return fmt.Errorf("not served again within %s: %w", crdTimeout, err)
	}
	return nil
}

func established(crd *unstructured.Unstructured) bool {
	conditions, _, _ := unstructured.NestedSlice(crd.Object, "status", "conditions")
	return slices.ContainsFunc(conditions, func(c any) bool {
		m, _ := c.(map[string]any)
		return m["type"] == "Established" && m["status"] == "True"
	})
}

func servedVersions(crd *unstructured.Unstructured) []string {
	versions, _, _ := unstructured.NestedSlice(crd.Object, "spec", "versions")
	var out []string
	for _, v := range versions {
		if m, _ := v.(map[string]any); m["served"] == true {
			out = append(out, fmt.Sprint(m["name"]))
		}
	}
	return out
}
