package kueue_test

import (
	"os"
	"testing"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/testcluster"
)

// Kueue's real controller and webhooks run with the local control plane: queues must turn
// Active, workloads must be admitted, and the plan-time checks must agree with the webhooks.
func TestMain(m *testing.M) { os.Exit(acctest.Run(m, testcluster.WithKueue())) }
