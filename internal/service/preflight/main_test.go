package preflight_test

import (
	"os"
	"testing"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
)

// The preflight reads objects only: the local control plane's apiserver (with the GPU Operator's
// ClusterPolicy CRD) is enough; the tests write the objects the Helm charts would.
func TestMain(m *testing.M) { os.Exit(acctest.Run(m)) }
