package moduletest

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/acctest"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/testcluster"
)

// providerVersion is the version the provider is built as into the mirror; the module requires
// at least 0.1.0.
const providerVersion = "0.1.0"

// cli is the Terraform or OpenTofu binary the tests run, with a CLI configuration that installs
// the provider from the package's own filesystem mirror (never the shared .cache/mirror).
type cli struct {
	path    string
	name    string // "Terraform" or "OpenTofu"
	version string
	config  string // for TF_CLI_CONFIG_FILE
}

var (
	cliOnce sync.Once
	theCLI  *cli
	cliErr  error
)

// requireCLI skips without TF_ACC, like every acceptance test, and otherwise returns the CLI,
// building the provider into the mirror on first use. It fails the test when the CLI is missing or
// too old for `terraform test`.
func requireCLI(t *testing.T) *cli {
	t.Helper()
	if os.Getenv("TF_ACC") == "" {
		t.Skip("runs Terraform against a cluster: set TF_ACC=1")
	}
	cliOnce.Do(func() { theCLI, cliErr = setUpCLI() })
	if cliErr != nil {
		t.Fatal(cliErr)
	}
	return theCLI
}

var versionLine = regexp.MustCompile(`^(Terraform|OpenTofu) v(\d+)\.(\d+)\.(\d+)`)

func setUpCLI() (*cli, error) {
	// As for the acceptance tests: TF_ACC_TERRAFORM_PATH, else the pinned Terraform.
	path := os.Getenv("TF_ACC_TERRAFORM_PATH")
	if path == "" {
		var err error
		if path, err = testcluster.Tool("terraform"); err != nil {
			return nil, err
		}
	}
	out, err := exec.Command(path, "version").Output()
	if err != nil {
		return nil, fmt.Errorf("running %s version: %w", path, err)
	}
	m := versionLine.FindStringSubmatch(string(out))
	if m == nil {
		return nil, fmt.Errorf("%s version printed %q, not a Terraform or OpenTofu version", path, firstLine(string(out)))
	}
	major, _ := strconv.Atoi(m[2])
	minor, _ := strconv.Atoi(m[3])
	c := &cli{path: path, name: m[1], version: strings.Join(m[2:5], ".")}
	if m[1] == "Terraform" && major == 1 && minor < 6 {
		return nil, fmt.Errorf("the module tests need `terraform test` of Terraform 1.6 or newer (or OpenTofu), but %s is %s: set TF_ACC_TERRAFORM_PATH", path, c.version)
	}
	if c.config, err = buildProvider(); err != nil {
		return nil, err
	}
	return c, nil
}

// buildProvider builds the provider from this repository into a filesystem mirror under the
// package's temporary directory, for both registries' addresses of mlplatform/mlplatform (Terraform
// resolves it on registry.terraform.io, OpenTofu on registry.opentofu.org), and writes a CLI
// configuration that takes it from there.
func buildProvider() (string, error) {
	mirror := filepath.Join(tmp, "mirror")
	platform := runtime.GOOS + "_" + runtime.GOARCH
	binary := "terraform-provider-mlplatform_v" + providerVersion
	var first string
	for _, host := range []string{"registry.terraform.io", "registry.opentofu.org"} {
		dir := filepath.Join(mirror, host, "mlplatform", "mlplatform", providerVersion, platform)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return "", err
		}
		if first != "" {
			if err := os.Link(first, filepath.Join(dir, binary)); err != nil {
				return "", err
			}
			continue
		}
		first = filepath.Join(dir, binary)
		if prebuilt := os.Getenv(acctest.ProviderBinaryEnv); prebuilt != "" {
			if err := copyFile(prebuilt, first); err != nil {
				return "", fmt.Errorf("the provider binary %s: %w", acctest.ProviderBinaryEnv, err)
			}
			continue
		}
		cmd := exec.Command("go", "build", "-ldflags", "-X main.version="+providerVersion, "-o", first, ".")
		cmd.Dir = repoRoot
		if out, err := cmd.CombinedOutput(); err != nil {
			return "", fmt.Errorf("building the provider: %w\n%s", err, out)
		}
	}
	config := filepath.Join(tmp, "cli.tfrc")
	rc := fmt.Sprintf(`provider_installation {
  filesystem_mirror {
    path    = %[1]q
    include = ["registry.terraform.io/mlplatform/*", "registry.opentofu.org/mlplatform/*"]
  }
  direct {
    exclude = ["registry.terraform.io/mlplatform/*", "registry.opentofu.org/mlplatform/*"]
  }
}
`, mirror)
	return config, os.WriteFile(config, []byte(rc), 0o600)
}

// copyFile copies the executable src to dst.
func copyFile(src, dst string) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, data, 0o755)
}

// run runs the CLI in dir with env added to a clean environment (no other cluster connection or
// CLI settings leak in) and returns its combined output.
func (c *cli) run(t *testing.T, dir string, env []string, args ...string) (string, error) {
	t.Helper()
	ctx := context.Background()
	if d, ok := t.Deadline(); ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, d.Add(-30*time.Second))
		defer cancel()
	}
	cmd := exec.CommandContext(ctx, c.path, args...)
	cmd.Dir = dir
	cmd.Env = append(acctest.CleanEnv(), "TF_CLI_CONFIG_FILE="+c.config, "TF_IN_AUTOMATION=1", "CHECKPOINT_DISABLE=1")
	cmd.Env = append(cmd.Env, env...)
	start := time.Now()
	out, err := cmd.CombinedOutput()
	t.Logf("%s %s (in %s): %s", filepath.Base(c.path), strings.Join(args, " "), rel(dir), time.Since(start).Round(100*time.Millisecond))
	return string(out), err
}

// must runs the CLI and fails the test with its output when it fails.
func (c *cli) must(t *testing.T, dir string, env []string, args ...string) string {
	t.Helper()
	out, err := c.run(t, dir, env, args...)
	if err != nil {
		t.Fatalf("%s %s failed: %v\n%s", c.name, strings.Join(args, " "), err, out)
	}
	return out
}

var testSummary = regexp.MustCompile(`Success! (\d+) passed, 0 failed`)

// test runs `test` for one file of modules/ml-platform/tests and fails unless every run block of
// the file passed, so a run that was skipped or a filter that matched nothing cannot pass.
func (c *cli) test(t *testing.T, module, file string, env []string, args ...string) {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(module, file))
	if err != nil {
		t.Fatal(err)
	}
	want := len(regexp.MustCompile(`(?m)^run "`).FindAll(src, -1))
	out := c.must(t, module, env, append([]string{"test", "-no-color", "-filter=" + file}, args...)...)
	m := testSummary.FindStringSubmatch(out)
	if m == nil || m[1] != strconv.Itoa(want) {
		t.Fatalf("%s test %s: want all %d runs passed\n%s", c.name, file, want, out)
	}
	t.Logf("%s %s: %s", c.name, file, m[0])
}

// workspace copies the module and the examples into a temporary directory with the repository's
// layout (the examples call ../../modules/ml-platform), so the CLI's working files and state stay
// out of the repository and runs never share them. It returns the copy's root.
func workspace(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	for _, dir := range []string{"modules/ml-platform", "examples/complete", "examples/multi-cluster"} {
		if err := copyTree(filepath.Join(repoRoot, dir), filepath.Join(root, dir)); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if name == ".terraform" || name == ".terraform.lock.hcl" || strings.HasSuffix(name, ".tfstate") || strings.Contains(name, ".tfstate.") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		r, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, r)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// rel shortens a workspace path for the log.
func rel(dir string) string {
	if i := strings.Index(dir, "/modules/"); i >= 0 {
		return dir[i+1:]
	}
	if i := strings.Index(dir, "/examples/"); i >= 0 {
		return dir[i+1:]
	}
	return dir
}
