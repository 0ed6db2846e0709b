package kube_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
)

// gadgetGroup is this run's own API group: a CRD's name is <plural>.<group>, and runs sharing a
// cluster must not install or remove each other's.
var gadgetGroup = acctest.Name("test") + ".mlplatform.io"

var (
	crds    = kube.Kind{GVR: schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}, Kind: "CustomResourceDefinition"}
	gadgets = kube.Kind{GVR: schema.GroupVersionResource{Group: gadgetGroup, Version: "v1", Resource: "gadgets"}, Kind: "Gadget", Requires: "the test's Gadget CRD"}
)

// installGadgets installs a CRD with a status subresource that no controller reconciles, on any
// cluster, so that only the test writes its status.
func installGadgets(t *testing.T, c *kube.Client) {
	t.Helper()
	ctx := context.Background()
	anything := map[string]any{"type": "object", "x-kubernetes-preserve-unknown-fields": true}
	crd := map[string]any{
		"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
		"metadata": map[string]any{"name": "gadgets." + gadgetGroup},
		"spec": map[string]any{
			"group": gadgetGroup, "scope": "Cluster",
			"names": map[string]any{"plural": "gadgets", "singular": "gadget", "kind": "Gadget"},
			"versions": []any{map[string]any{"name": "v1", "served": true, "storage": true,
				"subresources": map[string]any{"status": map[string]any{}},
				"schema": map[string]any{"openAPIV3Schema": map[string]any{"type": "object", "properties": map[string]any{
					"spec": anything, "status": anything}}}}},
		},
	}
	if _, err := c.Apply(ctx, crds, crd); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := c.Delete(context.Background(), crds, "", "gadgets."+gadgetGroup, metav1.Preconditions{}); err != nil {
			t.Errorf("removing the Gadget CRD: %v", err)
		}
	})
	waitCtx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if _, err := c.WaitConditionTrue(waitCtx, crds, "", "gadgets."+gadgetGroup, "Established"); err != nil {
		t.Fatal(err)
	}
	// Established comes before discovery lists the new API; the client finds kinds by discovery.
	for err := c.EnsureServed(waitCtx, gadgets); err != nil; err = c.EnsureServed(waitCtx, gadgets) {
		if waitCtx.Err() != nil {
			t.Fatalf("the Gadget CRD is Established but not served: %v", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func gadget(name, mode string) map[string]any {
	return map[string]any{"apiVersion": gadgetGroup + "/v1", "kind": "Gadget",
		"metadata": map[string]any{"name": name}, "spec": map[string]any{"mode": mode}}
}

// waitReady waits for the gadget's Ready condition, for up to a minute: it returns as soon as the
// condition holds, so the minute only bounds a failure.
func waitReady(c *kube.Client, name string) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err := c.WaitConditionTrue(ctx, gadgets, "", name, "Ready")
	return err
}

// waitUnready is a wait for the gadget's Ready condition that ends after one read of the gadget
// (afterOneRead): what a wait that times out says of the gadget as it is now.
func waitUnready(t *testing.T, name string) error {
	ctx, c := afterOneRead(t, name)
	_, err := c.WaitConditionTrue(ctx, gadgets, "", name, "Ready")
	return err
}

func TestAccClient_waitConditionTrueForTheAppliedGeneration(t *testing.T) {
	requireAcc(t)
	ctx := context.Background()
	c := adminClient(t)
	installGadgets(t, c)
	name := acctest.Name("wait-generation")
	if _, err := c.Apply(ctx, gadgets, gadget(name, "a")); err != nil {
		t.Fatal(err)
	}

	var notReady *kube.NotReadyError
	if err := waitUnready(t, name); !errors.As(err, &notReady) || !strings.Contains(err.Error(), "no controller reported its Ready condition") {
		t.Fatalf("before any status: err = %v; want no controller reported", err)
	}

	// The "controller" reports Ready for generation 1.
	obj := acctest.Get(t, gadgets, "", name)
	conds := []any{map[string]any{"type": "Ready", "status": "True", "reason": "Reconciled", "message": "All set",
		"observedGeneration": obj.GetGeneration()}}
	if err := unstructured.SetNestedSlice(obj.Object, conds, "status", "conditions"); err != nil {
		t.Fatal(err)
	}
	if _, err := acctest.Dynamic(t).Resource(gadgets.GVR).UpdateStatus(ctx, obj, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := waitReady(c, name); err != nil {
		t.Fatalf("Ready=True for the current generation: %v", err)
	}

	// A spec change makes generation 2, which the controller has not reported on.
	if _, err := c.Apply(ctx, gadgets, gadget(name, "b")); err != nil {
		t.Fatal(err)
	}
	err := waitUnready(t, name)
	if want := "Ready=True (Reconciled: All set) for generation 1, not yet for the applied generation 2"; err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("after a spec change: err = %v; want it to contain %q", err, want)
	}
}
