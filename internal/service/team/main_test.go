package team_test

import (
	"os"
	"testing"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/testcluster"
)

// The local control plane runs kube-controller-manager's namespace controller, so that a destroyed
// team's namespace really goes, and Kueue's manager, so that queued jobs are really admitted.
func TestMain(m *testing.M) {
	os.Exit(acctest.Run(m, testcluster.WithControllers(), testcluster.WithKueue()))
}
