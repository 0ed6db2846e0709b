package argo_test

import (
	"os"
	"testing"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/testcluster"
)

// The local control plane serves the real Argo CRDs and runs Kueue's manager (pod integration),
// Argo's workflow controller, kube-scheduler and KWOK (Karpenter when a test starts it): runs of
// the templates are really queued, placed on nodes, preempted and retried.
func TestMain(m *testing.M) {
	os.Exit(acctest.Run(m, testcluster.WithKueue(), testcluster.WithArgo(), testcluster.WithNodes()))
}
