package faulttest

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// workspace is a directory holding one configuration and its state, and the environment the CLI
// and the provider run with there.
type workspace struct {
	dir string
	env []string
}

// newWorkspace writes config into a new directory. env adds to a clean environment: without it
// the provider connects to the test cluster through KUBE_CONFIG_PATHS.
func newWorkspace(t *testing.T, config string, env ...string) *workspace {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	if len(env) == 0 {
		env = []string{"KUBE_CONFIG_PATHS=" + kubeconfig}
	}
	return &workspace{dir: dir, env: env}
}

// direct is the workspace with the provider connected to the test cluster itself.
func (w *workspace) direct() *workspace {
	return &workspace{dir: w.dir, env: []string{"KUBE_CONFIG_PATHS=" + kubeconfig}}
}

func (w *workspace) command(ctx context.Context, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, tfPath, args...)
	cmd.Dir = w.dir
	cmd.Env = append(cleanEnv(), "TF_CLI_CONFIG_FILE="+cliConfig, "TF_IN_AUTOMATION=1", "CHECKPOINT_DISABLE=1")
	cmd.Env = append(cmd.Env, w.env...)
	return cmd
}

// run runs the CLI with args (and -no-color) and returns its output, how long it took and its
// error.
func (w *workspace) run(t *testing.T, args ...string) (string, time.Duration, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	start := time.Now()
	out, err := w.command(ctx, append(args, "-no-color")...).CombinedOutput()
	took := time.Since(start)
	t.Logf("%s %s: %s", filepath.Base(tfPath), strings.Join(args, " "), took.Round(100*time.Millisecond))
	return string(out), took, err
}

// must runs the CLI and fails the test when it fails.
func (w *workspace) must(t *testing.T, args ...string) string {
	t.Helper()
	out, _, err := w.run(t, args...)
	if err != nil {
		t.Fatalf("%s %s failed: %v\n%s", filepath.Base(tfPath), strings.Join(args, " "), err, out)
	}
	return out
}

// background starts the CLI; wait returns its output and error.
func (w *workspace) background(t *testing.T, args ...string) (done <-chan struct{}, wait func() (string, error)) {
	t.Helper()
	var out bytes.Buffer
	cmd := w.command(context.Background(), append(args, "-no-color")...)
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

// stateEntry is one resource instance in the state file.
type stateEntry struct {
	Address string
	Name    string // the object's name (its `name` attribute)
	UID     string
	Tainted bool
}

// state reads the workspace's state file (local backend): every resource instance by address.
func (w *workspace) state(t *testing.T) map[string]stateEntry {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(w.dir, "terraform.tfstate"))
	if os.IsNotExist(err) {
		return map[string]stateEntry{}
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
	out := map[string]stateEntry{}
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
			out[addr] = stateEntry{Address: addr, Name: i.Attributes.Name, UID: i.Attributes.UID, Tainted: i.Status == "tainted"}
		}
	}
	return out
}
