package acctest

import (
	"context"
	"testing"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/pricing"
)

// RunPoolsOnKWOK has the real Karpenter launch nodes, played by KWOK, for the NodePools the test
// has applied (testcluster.Cluster.RunPoolsOnKWOK; the package's TestMain starts its control plane
// WithNodes), until the returned stop is called: it stops Karpenter and puts the NodePools back as
// the provider wrote them. Call it before the test's destroy (e.g. deferred in a step's Check). It
// skips the test on KUBECONFIG's cluster, which has neither KWOK nor this Karpenter.
func RunPoolsOnKWOK(t *testing.T) (stop func()) {
	t.Helper()
	if cluster == nil {
		t.Skip("runs training jobs on nodes that Karpenter launches and KWOK plays: only on the test binary's own local control plane, not on KUBECONFIG's cluster")
	}
	originals, err := cluster.RunPoolsOnKWOK(t.Context(), pricing.DefaultRegion)
	stop = func() {
		if err := cluster.StopPoolsOnKWOK(context.Background(), originals); err != nil {
			t.Error(err)
		}
	}
	if err != nil {
		stop()
		t.Fatal(err)
	}
	return stop
}
