package acctest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// WorkspaceProviders is the terraform block a Workspace's configuration starts with: the
// provider at the address the CLI configuration of this run serves it under.
const WorkspaceProviders = `terraform {
  required_providers {
    mlplatform = { source = "mlplatform/mlplatform" }
  }
}
`

// Workspace is a directory holding one root module and its state, on which the CLI
// (TF_ACC_TERRAFORM_PATH: terraform or tofu) runs the provider binary built for this test run, as
// a user's CLI does: a new provider process for each command, no `init`. Two workspaces are two
// users, or two states, declaring objects on one cluster; commands may run in parallel.
type Workspace struct {
	Dir string
	env []string
	// provider is the CLI configuration that says which provider binary runs; "" for this run's.
	provider string
}

// NewWorkspace writes config into a new directory. env adds to a clean environment; without it
// the provider connects to the test cluster (KUBE_CONFIG_PATHS).
func NewWorkspace(t *testing.T, config string, env ...string) *Workspace {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	if len(env) == 0 {
		env = clusterEnv()
	}
	return &Workspace{Dir: dir, env: env}
}

// Direct is the workspace with the provider connected to the test cluster itself.
func (w *Workspace) Direct() *Workspace {
	return &Workspace{Dir: w.Dir, env: clusterEnv(), provider: w.provider}
}

// WithProviderAt is the workspace running the provider as git revision rev built it (for an
// upgrade from an earlier version), or this run's with rev "".
func (w *Workspace) WithProviderAt(t *testing.T, rev string) *Workspace {
	t.Helper()
	provider := ""
	if rev != "" {
		provider = providerAt(t, rev)
	}
	return &Workspace{Dir: w.Dir, env: w.env, provider: provider}
}

// WriteConfig replaces the workspace's configuration.
func (w *Workspace) WriteConfig(t *testing.T, config string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(w.Dir, "main.tf"), []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
}

func clusterEnv() []string { return []string{"KUBE_CONFIG_PATHS=" + os.Getenv("KUBE_CONFIG_PATHS")} }

// CLIPath is the CLI the workspaces run.
func CLIPath() string { return os.Getenv("TF_ACC_TERRAFORM_PATH") }

// Command is the CLI with args in the workspace, in a clean environment.
func (w *Workspace) Command(ctx context.Context, t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.CommandContext(ctx, CLIPath(), args...)
	cmd.Dir = w.Dir
	provider := w.provider
	if provider == "" {
		provider = cliConfig(t)
	}
	cmd.Env = append(CleanEnv(), "TF_CLI_CONFIG_FILE="+provider, "TF_IN_AUTOMATION=1", "CHECKPOINT_DISABLE=1")
	cmd.Env = append(cmd.Env, w.env...)
	return cmd
}

// Run runs the CLI with args (and -no-color) and returns its output, how long it took and its
// error.
func (w *Workspace) Run(t *testing.T, args ...string) (string, time.Duration, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	start := time.Now()
	out, err := w.Command(ctx, t, append(args, "-no-color")...).CombinedOutput()
	took := time.Since(start)
	t.Logf("%s %s: %s", filepath.Base(CLIPath()), strings.Join(args, " "), took.Round(100*time.Millisecond))
	return string(out), took, err
}

// Must runs the CLI and fails the test when it fails.
func (w *Workspace) Must(t *testing.T, args ...string) string {
	t.Helper()
	out, _, err := w.Run(t, args...)
	if err != nil {
		t.Fatalf("%s %s failed: %v\n%s", filepath.Base(CLIPath()), strings.Join(args, " "), err, out)
	}
	return out
}

// Background starts the CLI; wait returns its output and error.
func (w *Workspace) Background(t *testing.T, args ...string) (done <-chan struct{}, wait func() (string, error)) {
	t.Helper()
	var out bytes.Buffer
	cmd := w.Command(context.Background(), t, append(args, "-no-color")...)
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ch := make(chan struct{})
	var err error
	go func() { err = cmd.Wait(); close(ch) }()
	t.Cleanup(func() {
		select {
		case <-ch:
		default:
			_ = cmd.Process.Kill()
			<-ch
		}
	})
	return ch, func() (string, error) { <-ch; return out.String(), err }
}

// StateEntry is one resource instance in a workspace's state file.
type StateEntry struct {
	Address string
	Name    string // the object's name (its `name` attribute)
	UID     string
	Tainted bool
}

// State reads the workspace's state file (local backend): every resource instance by address.
func (w *Workspace) State(t *testing.T) map[string]StateEntry {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(w.Dir, "terraform.tfstate"))
	if os.IsNotExist(err) {
		return map[string]StateEntry{}
	}
	if err != nil {
		t.Fatal(err)
	}
	var st struct {
		Resources []struct {
			Mode, Type, Name string
			Instances        []struct {
				IndexKey   any    `json:"index_key"`
				Status     string `json:"status"`
				Attributes struct {
					Name string `json:"name"`
					UID  string `json:"uid"`
				} `json:"attributes"`
			} `json:"instances"`
		} `json:"resources"`
	}
	if err := json.Unmarshal(data, &st); err != nil {
		t.Fatal(err)
	}
	out := map[string]StateEntry{}
	for _, r := range st.Resources {
		if r.Mode != "managed" {
			continue
		}
		for _, i := range r.Instances {
			addr := r.Type + "." + r.Name
			if i.IndexKey != nil {
				b, _ := json.Marshal(i.IndexKey)
				addr += "[" + string(b) + "]"
			}
			out[addr] = StateEntry{Address: addr, Name: i.Attributes.Name, UID: i.Attributes.UID, Tainted: i.Status == "tainted"}
		}
	}
	return out
}

// CleanEnv is the test's environment without what could point the CLI or the provider elsewhere
// (a cluster connection, a CLI configuration, Terraform variables).
func CleanEnv() []string {
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

var (
	buildsMu sync.Mutex
	builds   = map[string]string{} // git revision ("" for the working tree) -> CLI configuration
)

// cliConfig is a CLI configuration whose dev_overrides take mlplatform/mlplatform (under both
// registries' addresses) from the provider binary built, once per test binary, for this run.
func cliConfig(t *testing.T) string {
	t.Helper()
	return providerAt(t, "")
}

// providerAt is cliConfig for the provider of git revision rev ("" for the working tree).
func providerAt(t *testing.T, rev string) string {
	t.Helper()
	buildsMu.Lock()
	defer buildsMu.Unlock()
	if rc, ok := builds[rev]; ok {
		return rc
	}
	rc, err := buildProvider(rev)
	if err != nil {
		t.Fatal(err)
	}
	builds[rev] = rc
	return rc
}

// RemoveBuiltProvider removes the provider binaries the workspaces ran: TestMain calls it once the
// tests are done.
func RemoveBuiltProvider() {
	buildsMu.Lock()
	defer buildsMu.Unlock()
	for _, rc := range builds {
		_ = os.RemoveAll(filepath.Dir(rc))
	}
}

// ProviderBinaryEnv names a provider binary built from the working tree for this test run (`make
// testacc` builds it once for every package); without it, each test binary builds its own.
const ProviderBinaryEnv = "MLPLATFORM_TEST_PROVIDER"

// buildProvider builds the provider of the working tree, or of git revision rev (its files taken
// with git archive), and writes a CLI configuration that runs it. The working tree's is the one
// ProviderBinaryEnv names, when set.
func buildProvider(rev string) (string, error) {
	if bin := os.Getenv(ProviderBinaryEnv); bin != "" && rev == "" {
		dir, err := os.MkdirTemp("", "mlplatform-cli-")
		if err != nil {
			return "", err
		}
		return providerConfig(bin, dir)
	}
	gomod, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("finding the provider's module: %w", err)
	}
	root := filepath.Dir(strings.TrimSpace(string(gomod)))
	dir, err := os.MkdirTemp("", "mlplatform-provider-")
	if err != nil {
		return "", err
	}
	src := root
	if rev != "" {
		src = filepath.Join(dir, "src")
		archive := exec.Command("sh", "-c", `mkdir -p "$2" && git -C "$1" archive --format=tar "$3" | tar -x -C "$2"`, "sh", root, src, rev)
		if out, err := archive.CombinedOutput(); err != nil {
			return "", fmt.Errorf("taking the provider's files at %s: %w\n%s", rev, err, out)
		}
	}
	bin := filepath.Join(dir, "bin", "terraform-provider-mlplatform")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = src
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building the provider %s: %w\n%s", rev, err, out)
	}
	return providerConfig(bin, dir)
}

// providerConfig writes into dir (which RemoveBuiltProvider removes) a CLI configuration whose
// dev_overrides take mlplatform/mlplatform from the directory of the provider binary bin.
func providerConfig(bin, dir string) (string, error) {
	if _, err := os.Stat(bin); err != nil {
		return "", fmt.Errorf("the provider binary: %w", err)
	}
	rc := filepath.Join(dir, "cli.tfrc")
	return rc, os.WriteFile(rc, []byte(fmt.Sprintf(`provider_installation {
  dev_overrides {
    "registry.terraform.io/mlplatform/mlplatform" = %[1]q
    "registry.opentofu.org/mlplatform/mlplatform" = %[1]q
  }
  direct {}
}
`, filepath.Dir(bin))), 0o600)
}
