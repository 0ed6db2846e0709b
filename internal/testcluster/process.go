package testcluster

import (
	"context"
	"crypto/tls"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"k8s.io/apimachinery/pkg/util/wait"
)

// process is a controller running beside the control plane (Kueue's manager, Argo's workflow
// controller), its output going to a log file.
type process struct {
	cmd     *exec.Cmd
	log     *os.File
	done    chan struct{} // closed when the process has exited
	exitErr error         // the process's exit status, once done is closed
}

// startProcess starts cmd, which errors call what, with its output in logPath, and waits until
// ready returns nil. A process that does not get there is stopped, and the error ends with the
// last lines of its log. Every component beside the control plane starts through here.
func startProcess(what string, cmd *exec.Cmd, logPath string, ready func(*process) error) (*process, error) {
	log, err := os.Create(logPath)
	if err != nil {
		return nil, fmt.Errorf("starting %s: %w", what, err)
	}
	p := &process{cmd: cmd, log: log, done: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		_ = log.Close()
		return nil, fmt.Errorf("starting %s %s: %w", what, cmd.Path, err)
	}
	go func() { p.exitErr = cmd.Wait(); close(p.done) }()
	if err := ready(p); err != nil {
		tail := p.logTail()
		_ = p.stop()
		return nil, fmt.Errorf("starting %s: %w\n%s", what, err, tail)
	}
	return p, nil
}

// poll calls check until it succeeds, the process exits or ctx ends; what says what it waits for,
// within says how long ctx allows.
func (p *process) poll(ctx context.Context, what string, within time.Duration, check func() error) error {
	var last error
	err := wait.PollUntilContextCancel(ctx, 250*time.Millisecond, true, func(context.Context) (bool, error) {
		if last = check(); last == nil {
			return true, nil
		}
		select {
		case <-p.done:
			if p.exitErr != nil {
				return false, fmt.Errorf("it exited before %s: %w", what, p.exitErr)
			}
			return false, fmt.Errorf("it exited before %s", what)
		default:
			return false, nil
		}
	})
	if wait.Interrupted(err) {
		return fmt.Errorf("not %s within %s: %w", what, within, last)
	}
	return err
}

// waitHealthy polls url until it answers 200 OK, the process exits or within has passed. A
// component that serves HTTPS (kube-scheduler) does so with a certificate it made itself, which is
// not verified: only the answer matters.
func (p *process) waitHealthy(url string, within time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), within)
	defer cancel()
	client := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{
		TLSClientConfig: &tls.Config{InsecureSkipVerify: true}, //nolint:gosec // a local self-signed health endpoint
	}}
	return p.poll(ctx, "reporting healthy at "+url, within, func() error {
		resp, err := client.Get(url)
		if err != nil {
			return err
		}
		_ = resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("%s", resp.Status)
		}
		return nil
	})
}

// logTail is the end of the process's log, for an error message.
func (p *process) logTail() string {
	return fmt.Sprintf("last lines of %s:\n%s", p.log.Name(), tail(p.log.Name(), 40))
}

// stop ends the process (SIGTERM, then SIGKILL after 30s) and closes its log.
func (p *process) stop() error {
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(30 * time.Second):
		_ = p.cmd.Process.Kill()
		<-p.done
	}
	return p.log.Close()
}

// pinnedTool is the cached binary of tool, which must be built from the version of module that
// the provider's go.mod requires (its CRDs, and webhooks, come from there).
func pinnedTool(tool, module string) (string, error) {
	bin, err := Tool(tool)
	if err != nil {
		return "", err
	}
	_, version, err := moduleDir(module)
	if err != nil {
		return "", err
	}
	if got, want := filepath.Base(filepath.Dir(bin)), tool+"-"+strings.TrimPrefix(version, "v"); got != want {
		return "", fmt.Errorf("tools/build.sh builds %s but go.mod requires %s %s: pin the same version in both", got, module, version)
	}
	return bin, nil
}
