package framework

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Holders are named sorted whatever order a spec files them in: staying first, then leaving.
func TestDeleteHoldersDescribeSorted(t *testing.T) {
	h := DeleteHolders{Reason: "R", Remedy: "Fix."}
	now := metav1.Now()
	h.Add("Workload b", nil)
	h.Add("Workload z", &now)
	h.Add("Workload a", nil)
	h.Add("Workload y", &now)
	if got, want := h.describe(true), "R. Held by: Workload a, Workload b, Workload y (being deleted), Workload z (being deleted). Fix."; got != want {
		t.Errorf("describe(true) = %q, want %q", got, want)
	}
	if got, want := h.describe(false), "R. Held by: Workload a, Workload b. Fix."; got != want {
		t.Errorf("describe(false) = %q, want %q", got, want)
	}
}
