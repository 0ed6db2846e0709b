package validate_test

import (
	"os"
	"testing"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
)

// TestMain gives the parity test its cluster. No Kueue: that test compares the CRD step alone,
// and Kueue's admission webhooks would refuse objects its CRDs accept.
func TestMain(m *testing.M) { os.Exit(acctest.Run(m)) }
