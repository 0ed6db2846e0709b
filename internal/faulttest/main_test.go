package faulttest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/testcluster"
)

var (
	// tfPath is the CLI the tests run: TF_ACC_TERRAFORM_PATH, else the pinned Terraform.
	tfPath string
	// cliConfig is a CLI configuration whose dev_overrides take the provider from the binary
	// built for this run.
	cliConfig string
	// kubeconfig is KUBECONFIG's cluster, or own's; admin its admin client configuration.
	kubeconfig string
	admin      *rest.Config
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

func setUp(dir string) error {
	if tfPath = os.Getenv("TF_ACC_TERRAFORM_PATH"); tfPath == "" {
		var err error
		if tfPath, err = testcluster.Tool("terraform"); err != nil {
			return err
		}
	}
	if err := buildProvider(dir); err != nil {
		return err
	}
	if kubeconfig = os.Getenv("KUBECONFIG"); kubeconfig == "" {
		var err error
		if own, err = testcluster.Start(dir); err != nil {
			return err
		}
		kubeconfig = own.Kubeconfig
	}
	var err error
	admin, err = clientcmd.NewNonInteractiveDeferredLoadingClientConfig(
		&clientcmd.ClientConfigLoadingRules{Precedence: filepath.SplitList(kubeconfig)}, nil).ClientConfig()
	if err != nil {
		return fmt.Errorf("loading KUBECONFIG %q: %w", kubeconfig, err)
	}
	return nil
}

// buildProvider builds the provider into dir and writes a CLI configuration that overrides
// mlplatform/mlplatform (under both registries' addresses) with it: the CLI runs the binary a
// user runs, a new process for each command, with no `init`.
func buildProvider(dir string) error {
	bin := filepath.Join(dir, "bin")
	cmd := exec.Command("go", "build", "-o", filepath.Join(bin, "terraform-provider-mlplatform"), ".")
	cmd.Dir = "../.."
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("building the provider: %w\n%s", err, out)
	}
	cliConfig = filepath.Join(dir, "cli.tfrc")
	rc := fmt.Sprintf(`provider_installation {
  dev_overrides {
    "registry.terraform.io/mlplatform/mlplatform" = %[1]q
    "registry.opentofu.org/mlplatform/mlplatform" = %[1]q
  }
  direct {}
}
`, bin)
	return os.WriteFile(cliConfig, []byte(rc), 0o600)
}

// requireCluster skips without TF_ACC and fails when the cluster could not be set up.
func requireCluster(t *testing.T) {
	t.Helper()
	if os.Getenv("TF_ACC") == "" {
		t.Skip("runs Terraform against a cluster: set TF_ACC=1")
	}
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

// cleanEnv is the environment without what could point the CLI or the provider elsewhere.
func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, "KUBE_") || strings.HasPrefix(name, "TF_") || strings.HasPrefix(name, "TOFU_") || name == "KUBECONFIG" {
			continue
		}
		env = append(env, kv)
	}
	return env
}
