package webhookparity_test

import (
	"os"
	"testing"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/testcluster"
)

// TestMain runs the local control plane with Kueue's manager, whose webhooks the engine's
// admission step must agree with.
func TestMain(m *testing.M) { os.Exit(acctest.Run(m, testcluster.WithKueue())) }
