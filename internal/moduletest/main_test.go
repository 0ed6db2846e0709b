package moduletest

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/testcluster"
)

var (
	// repoRoot is the repository's root; tmp holds the provider mirror and the clusters' files.
	repoRoot, tmp string

	clusterOnce sync.Once
	// kubeconfig is the cluster the single-cluster tests use: KUBECONFIG's, or the package's own
	// local control plane (own), started on first use and stopped after the tests.
	kubeconfig string
	own        *testcluster.Cluster
	clusterErr error
)

func TestMain(m *testing.M) { os.Exit(runTests(m)) }

func runTests(m *testing.M) int {
	root, err := filepath.Abs("../..")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	repoRoot = root
	if tmp, err = os.MkdirTemp("", "mlplatform-moduletest-"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(tmp)
	code := m.Run()
	if own != nil {
		if err := own.Stop(); err != nil {
			fmt.Fprintln(os.Stderr, "stopping the local control plane:", err)
		}
	}
	return code
}

// requireCluster returns the kubeconfig of the cluster for single-cluster tests: KUBECONFIG's
// when set (as for the acceptance tests), else a local control plane running kube-controller-
// manager's namespace controller (a team's destroy waits for its namespace to go), Kueue's
// controller manager (queues turn Active), Argo's workflow controller, kube-scheduler and KWOK,
// shared by the package's tests.
func requireCluster(t *testing.T) string {
	t.Helper()
	acctest.SkipWithoutCluster(t)
	clusterOnce.Do(func() {
		if kubeconfig = os.Getenv("KUBECONFIG"); kubeconfig != "" {
			return
		}
		// Argo's workflow controller and nodes too, for the runs of examples/complete.
		own, clusterErr = startCluster(filepath.Join(tmp, "cluster"), testcluster.WithArgo(), testcluster.WithNodes())
		if clusterErr == nil {
			kubeconfig = own.Kubeconfig
		}
	})
	if clusterErr != nil {
		t.Fatal(clusterErr)
	}
	return kubeconfig
}

// requireOwnCluster is requireCluster for tests that use fixed names (the examples): they run
// only on the package's own control plane, never on a shared one.
func requireOwnCluster(t *testing.T) string {
	t.Helper()
	if os.Getenv("KUBECONFIG") != "" {
		t.Skip("applies an example with fixed names: runs only on the test's own local control plane, not on KUBECONFIG's cluster")
	}
	return requireCluster(t)
}

// startCluster starts a local control plane with clusterOptions(extra...).
func startCluster(dir string, extra ...testcluster.Option) (*testcluster.Cluster, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	return testcluster.Start(dir, clusterOptions(extra...)...)
}

// clusterOptions are the package's control planes' options: the namespace controller and Kueue,
// and what extra asks.
func clusterOptions(extra ...testcluster.Option) []testcluster.Option {
	return append([]testcluster.Option{testcluster.WithControllers(), testcluster.WithKueue()}, extra...)
}
