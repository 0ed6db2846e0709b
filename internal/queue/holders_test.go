package queue

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// A Workload that cannot be read fails the look instead of being left out: it may hold quota.
func TestHoldingRefusesWhatItCannotRead(t *testing.T) {
	admitted := workload("admitted", map[string]any{"admission": map[string]any{"clusterQueue": "cq"}})
	pending := workload("pending", map[string]any{})
	got, err := holding([]unstructured.Unstructured{admitted, pending})
	if err != nil || len(got) != 1 || got[0].Name != "admitted" {
		t.Fatalf("holding = %v, %v; want the admitted Workload alone", got, err)
	}
	garbled := workload("garbled", map[string]any{"admission": "not an object"})
	if got, err := holding([]unstructured.Unstructured{admitted, garbled}); err == nil || !strings.Contains(err.Error(), "garbled") {
		t.Fatalf("holding with an unreadable Workload = %v, %v; want an error naming it", got, err)
	}
}

func workload(name string, status map[string]any) unstructured.Unstructured {
	return unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "Workload",
		"metadata": map[string]any{"name": name, "namespace": "team"},
		"status":   status,
	}}
}
