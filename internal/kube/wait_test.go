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
	kueuev1beta2 "sigs.k8s.io/kueue/apis/kueue/v1beta2"
	kueueac "sigs.k8s.io/kueue/client-go/applyconfiguration/kueue/v1beta2"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/kube"
)

var clusterQueues = kube.Kind{GVR: schema.GroupVersionResource{Group: "kueue.x-k8s.io", Version: "v1beta2", Resource: "clusterqueues"}, Kind: "ClusterQueue"}

// waitActive waits briefly for the queue's Active condition; nothing but the test writes status
// here (this package runs no Kueue controller).
func waitActive(c *kube.Client, name string) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_, err := c.WaitConditionTrue(ctx, clusterQueues, "", name, "Active")
	return err
}

func TestAccClient_waitConditionTrueForTheAppliedGeneration(t *testing.T) {
	requireAcc(t)
	ctx := context.Background()
	c := adminClient(t)
	name := "wait-generation"
	t.Cleanup(func() { _ = c.Delete(context.Background(), clusterQueues, "", name) })
	if _, err := c.Apply(ctx, clusterQueues, kueueac.ClusterQueue(name).WithSpec(kueueac.ClusterQueueSpec().WithQueueingStrategy(kueuev1beta2.BestEffortFIFO))); err != nil {
		t.Fatal(err)
	}

	var notReady *kube.NotReadyError
	if err := waitActive(c, name); !errors.As(err, &notReady) || !strings.Contains(err.Error(), "no controller reported its Active condition") {
		t.Fatalf("before any status: err = %v; want no controller reported", err)
	}

	// The controller reports Active for generation 1.
	obj := acctest.Get(t, clusterQueues, "", name)
	conds := []any{map[string]any{"type": "Active", "status": "True", "reason": "Ready", "message": "Can admit new workloads",
		"lastTransitionTime": time.Now().UTC().Format(time.RFC3339), "observedGeneration": obj.GetGeneration()}}
	if err := unstructured.SetNestedSlice(obj.Object, conds, "status", "conditions"); err != nil {
		t.Fatal(err)
	}
	if _, err := acctest.Dynamic(t).Resource(clusterQueues.GVR).UpdateStatus(ctx, obj, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := waitActive(c, name); err != nil {
		t.Fatalf("Active=True for the current generation: %v", err)
	}

	// A spec change makes generation 2, which the controller has not reported on.
	if _, err := c.Apply(ctx, clusterQueues, kueueac.ClusterQueue(name).WithSpec(kueueac.ClusterQueueSpec().WithQueueingStrategy(kueuev1beta2.StrictFIFO))); err != nil {
		t.Fatal(err)
	}
	err := waitActive(c, name)
	if want := "Active=True (Ready: Can admit new workloads) for generation 1, not yet for the applied generation 2"; err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("after a spec change: err = %v; want it to contain %q", err, want)
	}
}
