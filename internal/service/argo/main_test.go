package argo_test

import (
	"os"
	"testing"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/testcluster"
)

// The local control plane serves the real Argo CRDs and runs Kueue's manager (pod integration) and
// Argo's workflow controller: runs of the templates are really queued, preempted and retried.
func TestMain(m *testing.M) { os.Exit(acctest.Run(m, testcluster.WithKueue(), testcluster.WithArgo())) }
