package kube_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	corev1ac "k8s.io/client-go/applyconfigurations/core/v1"
	"k8s.io/client-go/rest"
	kueueac "sigs.k8s.io/kueue/client-go/applyconfiguration/kueue/v1beta2"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
)

var (
	configMaps      = kube.Kind{GVR: schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}, Kind: "ConfigMap", Namespaced: true, Requires: "Kubernetes"}
	resourceFlavors = kube.Kind{GVR: schema.GroupVersionResource{Group: "kueue.x-k8s.io", Version: "v1beta2", Resource: "resourceflavors"}, Kind: "ResourceFlavor", Requires: "Kueue v0.15 or newer"}
)

func requireAcc(t *testing.T) {
	t.Helper()
	acctest.RequireCluster(t)
	t.Parallel()
}

func adminClient(t *testing.T) *kube.Client {
	cfg := acctest.RestConfig(t)
	return kube.NewClient(func() (*rest.Config, error) { return cfg, nil }, "")
}

func TestClient_isLazy(t *testing.T) {
	calls := 0
	c := kube.NewClient(func() (*rest.Config, error) { calls++; return nil, errors.New("no cluster") }, "")
	if calls != 0 || c.FieldManager() != kube.DefaultFieldManager {
		t.Fatalf("NewClient loaded the configuration (%d calls) or field manager %q", calls, c.FieldManager())
	}
	_, err := c.Get(context.Background(), configMaps, "default", "x")
	if calls != 1 || err == nil || !strings.Contains(err.Error(), "no cluster") {
		t.Fatalf("first use: %d calls, err %v", calls, err)
	}
}

func TestAccClient_notInstalled(t *testing.T) {
	requireAcc(t)
	widgets := kube.Kind{GVR: schema.GroupVersionResource{Group: "widgets.example.com", Version: "v1", Resource: "widgets"}, Kind: "Widget", Requires: "Widget operator v1"}
	_, err := adminClient(t).Apply(context.Background(), widgets, map[string]any{
		"apiVersion": "widgets.example.com/v1", "kind": "Widget", "metadata": map[string]any{"name": acctest.Name("w")},
	})
	var notInstalled *kube.NotInstalledError
	if !errors.As(err, &notInstalled) {
		t.Fatalf("err = %v, want NotInstalledError", err)
	}
	want := "Widget operator v1 (widgets.example.com/v1) is not installed on this cluster"
	if !strings.Contains(err.Error(), want) {
		t.Fatalf("err = %q, want it to contain %q", err, want)
	}
}

func TestAccClient_forbiddenNamesVerbAndResource(t *testing.T) {
	requireAcc(t)
	ctx := context.Background()
	token := acctest.ServiceAccountToken(t, acctest.Name("no-rights"))
	cfg := rest.AnonymousClientConfig(acctest.RestConfig(t))
	cfg.BearerToken = token
	c := kube.NewClient(func() (*rest.Config, error) { return cfg, nil }, "")
	_, err := c.Apply(ctx, resourceFlavors, kueueac.ResourceFlavor(acctest.Name("forbidden")))
	want := `RBAC refused verb "patch" on resource "resourceflavors" (group "kueue.x-k8s.io") cluster-wide`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("err = %v, want it to contain %q", err, want)
	}
}

func TestAccClient_applyIsIdempotentAndDeleteWaits(t *testing.T) {
	requireAcc(t)
	ctx := context.Background()
	c := adminClient(t)
	name := acctest.Name("idempotent")
	cm := corev1ac.ConfigMap(name, "default").WithData(map[string]string{"k": "v"})
	first, err := c.Apply(ctx, configMaps, cm)
	if err != nil {
		t.Fatal(err)
	}
	second, err := c.Apply(ctx, configMaps, cm)
	if err != nil {
		t.Fatal(err)
	}
	if first.GetResourceVersion() != second.GetResourceVersion() {
		t.Errorf("re-applying the same object wrote it again: resourceVersion %s -> %s", first.GetResourceVersion(), second.GetResourceVersion())
	}
	if err := c.Delete(ctx, configMaps, "default", name, metav1.Preconditions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Get(ctx, configMaps, "default", name); !kube.IsNotFound(err) {
		t.Fatalf("after Delete, Get err = %v; want NotFound", err)
	}
	if err := c.Delete(ctx, configMaps, "default", name, metav1.Preconditions{}); err != nil {
		t.Fatalf("deleting an object already gone: %v", err)
	}
}

func TestAccClient_deleteTimeoutNamesFinalizers(t *testing.T) {
	requireAcc(t)
	ctx := context.Background()
	c := adminClient(t)
	name := acctest.Name("held")
	held := corev1ac.ConfigMap(name, "default").WithFinalizers("example.com/hold")
	if _, err := c.Apply(ctx, configMaps, held); err != nil {
		t.Fatal(err)
	}
	// A delete that ends having seen the object still there once.
	once, reader := afterOneRead(t, name)
	err := reader.Delete(once, configMaps, "default", name, metav1.Preconditions{})
	var still *kube.StillPresentError
	if !errors.As(err, &still) || !strings.Contains(err.Error(), "example.com/hold") {
		t.Fatalf("err = %v, want StillPresentError naming the finalizer", err)
	}
	// Release it; the object then goes.
	if _, err := c.Apply(ctx, configMaps, corev1ac.ConfigMap(name, "default").WithFinalizers()); err != nil {
		t.Fatal(err)
	}
	if err := c.Delete(ctx, configMaps, "default", name, metav1.Preconditions{}); err != nil {
		t.Fatal(err)
	}
}

func TestAccClient_missingNamespace(t *testing.T) {
	requireAcc(t)
	ns := acctest.Name("no-such-namespace")
	_, err := adminClient(t).Apply(context.Background(), configMaps, corev1ac.ConfigMap("x", ns))
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("namespace %q does not exist", ns)) {
		t.Fatalf("err = %v", err)
	}
}
