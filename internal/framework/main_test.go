package framework_test

import (
	"os"
	"testing"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
)

// The cycle's guarantees (ownership, never forgetting state) are shown on a local control plane of
// this package's own, with Kueue's CRDs and no controller: nothing else writes the objects.
func TestMain(m *testing.M) { os.Exit(acctest.Run(m)) }
