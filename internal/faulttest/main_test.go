package faulttest

import (
	"fmt"
	"os"
	"testing"

	"k8s.io/client-go/rest"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/testcluster"
)

var (
	// admin is an admin client configuration of the cluster: KUBECONFIG's, or own's.
	admin *rest.Config
	// own is the package's own local control plane, nil with KUBECONFIG: the tests that stop the
	// API server or remove CRDs need it.
	own *testcluster.Cluster
)

func TestMain(m *testing.M) { os.Exit(runTests(m)) }

func runTests(m *testing.M) int {
	if os.Getenv("TF_ACC") == "" {
		return m.Run() // every test skips
	}
	dir, err := os.MkdirTemp("", "mlplatform-faulttest-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	defer acctest.RemoveBuiltProvider()
	if err := setUp(dir); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	code := m.Run()
	if own != nil {
		if err := own.Stop(); err != nil {
			fmt.Fprintln(os.Stderr, "stopping the local control plane:", err)
		}
	}
	return code
}

// setUp sets what the workspaces (acctest.Workspace) run: TF_ACC_TERRAFORM_PATH, else the pinned
// Terraform, and the cluster in KUBE_CONFIG_PATHS: KUBECONFIG's, else a local control plane.
func setUp(dir string) error {
	if os.Getenv("TF_ACC_TERRAFORM_PATH") == "" {
		tf, err := testcluster.Tool("terraform")
		if err != nil {
			return err
		}
		_ = os.Setenv("TF_ACC_TERRAFORM_PATH", tf)
	}
	if acctest.NoCluster() {
		return nil
	}
	kubeconfig := os.Getenv("KUBECONFIG")
	if kubeconfig == "" {
		var err error
		if own, err = testcluster.Start(dir); err != nil {
			return err
		}
		kubeconfig = own.Kubeconfig
	}
	var err error
	admin, err = acctest.Connect(kubeconfig)
	return err
}

// requireCluster skips without TF_ACC and fails when the cluster could not be set up.
func requireCluster(t *testing.T) {
	t.Helper()
	if os.Getenv("TF_ACC") == "" {
		t.Skip("runs Terraform against a cluster: set TF_ACC=1")
	}
	acctest.SkipWithoutCluster(t)
	if admin == nil {
		t.Fatal("no cluster: TestMain did not set one up")
	}
}

// requireOwnCluster is requireCluster for tests that stop the API server or remove CRDs: never
// on KUBECONFIG's cluster, which others use and whose API server the test does not control.
func requireOwnCluster(t *testing.T) {
	t.Helper()
	requireCluster(t)
	if own == nil {
		t.Skip("stops the API server or removes CRDs: runs only on the test's own local control plane, not on KUBECONFIG's cluster")
	}
}
