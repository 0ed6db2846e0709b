package monitoring_test

import (
	"os"
	"testing"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/testcluster"
)

// promtoolPath is the pinned promtool, built on first use by internal/testcluster/tools/build.sh.
// Its tests run with TF_ACC, as `make testacc` sets it, so that `make testunit` builds no tool.
func promtoolPath(t *testing.T) string {
	t.Helper()
	if os.Getenv("TF_ACC") == "" {
		t.Skip("runs Prometheus's promtool, built once by internal/testcluster/tools/build.sh: runs with TF_ACC, as make testacc sets it")
	}
	path, err := testcluster.Tool("promtool")
	if err != nil {
		t.Fatal(err)
	}
	return path
}
