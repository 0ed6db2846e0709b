// Package acctest is what every acceptance test shares: the provider factories, one cluster per
// test binary (KUBECONFIG when set, else a local control plane), and a client for out-of-band
// changes.
package acctest

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/provider"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/testcluster"
)

// ProviderFactories serve the provider in-process to Terraform, as the binary serves it.
var ProviderFactories = map[string]func() (tfprotov6.ProviderServer, error){
	"mlplatform": func() (tfprotov6.ProviderServer, error) { return provider.NewServer("test")(), nil },
}

var restConfig *rest.Config

// ownCluster is true when the cluster is this test binary's own local control plane, cluster.
var (
	ownCluster bool
	cluster    *testcluster.Cluster
)

// OwnCluster reports whether the cluster is this test binary's own local control plane, whose
// controllers run on this machine and reach its apiserver at the address the tests use.
func OwnCluster() bool { return ownCluster }

// RequireOwnCluster skips a test that changes the cluster for everyone (e.g. deletes a CRD)
// unless the cluster is this test binary's own control plane, never a shared one (KUBECONFIG).
func RequireOwnCluster(t *testing.T) {
	t.Helper()
	PreCheck(t)
	if !ownCluster {
		t.Skip("changes the cluster for every user (deletes a CRD): runs only on the test binary's own control plane, not on KUBECONFIG's")
	}
}

// NoCluster reports whether this run has no cluster by request (testcluster.NoClusterEnv=none,
// `make test-quick`): the tests that need Terraform but no cluster (plan-time refusals, plans
// without API calls, the validators' corpora) run, those that need one skip, and no control plane
// starts.
func NoCluster() bool { return os.Getenv(testcluster.NoClusterEnv) == "none" }

// SkipWithoutCluster skips a test that needs a cluster when the run has none by request
// (NoCluster); any other missing cluster is the caller's to fail on.
func SkipWithoutCluster(t testing.TB) {
	t.Helper()
	if NoCluster() {
		t.Skip("needs a cluster, and this run has none (" + testcluster.NoClusterEnv + "=none, make test-quick)")
	}
}

// Run is TestMain for packages with acceptance tests. With TF_ACC set it connects to the cluster
// named by KUBECONFIG or, if none, starts a local control plane with opts (e.g.
// testcluster.WithKueue()) for the whole test binary, and points the provider at it through
// KUBE_CONFIG_PATHS; with NoCluster, it starts none. It also finds Terraform for terraform-plugin-testing when
// TF_ACC_TERRAFORM_PATH is not set (set it to OpenTofu's tofu to run the tests on OpenTofu).
// Without TF_ACC it only runs the tests: unit tests need
// neither Terraform nor a cluster, and every test that runs Terraform skips.
func Run(m *testing.M, opts ...testcluster.Option) int {
	if os.Getenv("TF_ACC") == "" {
		return m.Run()
	}
	defer RemoveBuiltProvider()
	if err := findTerraform(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if err := setProviderAddress(os.Getenv("TF_ACC_TERRAFORM_PATH")); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if NoCluster() {
		return m.Run()
	}
	kubeconfig := os.Getenv("KUBECONFIG")
	if kubeconfig == "" {
		dir, err := os.MkdirTemp("", "mlplatform-acc-")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		defer os.RemoveAll(dir)
		c, err := testcluster.Start(dir, opts...)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		defer func() { _ = c.Stop() }()
		kubeconfig = c.Kubeconfig
		ownCluster, cluster = true, c
	}
	if _, err := Connect(kubeconfig); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return m.Run()
}

// Connect points the helpers (RestConfig, Dynamic, ...) and the provider (KUBE_CONFIG_PATHS) at
// the cluster that kubeconfig names, and returns its admin client configuration. Run calls it; a
// TestMain of its own (faulttest's) calls it too.
func Connect(kubeconfig string) (*rest.Config, error) {
	cfg, err := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(
		&clientcmd.ClientConfigLoadingRules{Precedence: filepath.SplitList(kubeconfig)}, nil).ClientConfig()
	if err != nil {
		return nil, fmt.Errorf("loading KUBECONFIG %q: %w", kubeconfig, err)
	}
	restConfig = cfg
	_ = os.Unsetenv("KUBE_CONFIG_PATH")
	_ = os.Setenv("KUBE_CONFIG_PATHS", kubeconfig)
	return rest.CopyConfig(cfg), nil
}

func findTerraform() error {
	if os.Getenv("TF_ACC_TERRAFORM_PATH") != "" {
		return nil
	}
	tf, err := testcluster.Tool("terraform")
	if err != nil {
		return err
	}
	return os.Setenv("TF_ACC_TERRAFORM_PATH", tf)
}

// setProviderAddress sets the address under which terraform-plugin-testing serves the provider to
// the CLI at path: the one the CLI gives `mlplatform` in a configuration without
// required_providers (an import step's), registry.terraform.io/hashicorp/mlplatform for
// Terraform and registry.opentofu.org/hashicorp/mlplatform for OpenTofu. By default the harness
// also serves it as registry.terraform.io/-/mlplatform, for Terraform 0.12, an address OpenTofu
// refuses.
func setProviderAddress(path string) error {
	if os.Getenv(resource.EnvTfAccProviderNamespace) == "" {
		_ = os.Setenv(resource.EnvTfAccProviderNamespace, "hashicorp")
	}
	if os.Getenv(resource.EnvTfAccProviderHost) != "" {
		return nil
	}
	cmd := exec.Command(path, "version")
	cmd.Env = append(os.Environ(), "CHECKPOINT_DISABLE=1")
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("running %s version: %w", path, err)
	}
	if bytes.HasPrefix(out, []byte("OpenTofu ")) {
		_ = os.Setenv(resource.EnvTfAccProviderHost, "registry.opentofu.org")
	}
	return nil
}

// Dynamic is a client of the test cluster for out-of-band changes and checks. It fails the test
// when called outside an acceptance test.
func Dynamic(t testing.TB) dynamic.Interface {
	t.Helper()
	SkipWithoutCluster(t)
	if restConfig == nil {
		t.Fatal("acctest.Dynamic needs TF_ACC and acctest.Run as TestMain")
	}
	return dynamic.NewForConfigOrDie(restConfig)
}

// PreCheck fails a test that needs a cluster when none was set up, so a misconfigured run cannot
// pass by skipping; it skips only when the run has no cluster by request (NoCluster).
func PreCheck(t *testing.T) {
	t.Helper()
	SkipWithoutCluster(t)
	if restConfig == nil {
		t.Fatal("no cluster: acceptance tests need TF_ACC=1 and acctest.Run as TestMain")
	}
}

// RequireCluster is PreCheck for a test that does its own setup before, or instead of,
// resource.Test: it skips without TF_ACC, as resource.Test would, and fails when TF_ACC is set
// but no cluster was set up.
func RequireCluster(t *testing.T) {
	t.Helper()
	if os.Getenv(resource.EnvTfAcc) == "" {
		t.Skip("needs a cluster: set TF_ACC=1")
	}
	PreCheck(t)
}

// RestConfig is the admin client configuration of the test cluster.
func RestConfig(t testing.TB) *rest.Config {
	t.Helper()
	SkipWithoutCluster(t)
	if restConfig == nil {
		t.Fatal("acctest.RestConfig needs TF_ACC and acctest.Run as TestMain")
	}
	return rest.CopyConfig(restConfig)
}
