package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"time"

	"k8s.io/client-go/rest"
)

const providerVersion = "0.1.0"

// The Terraform steps of one cycle, in order; stepChange applies the configuration with revLabel
// changed on every object.
const (
	stepApplyNew   = "apply (new)"
	stepPlan       = "plan (no change)"
	stepApplySame  = "apply (no change)"
	stepChange     = "apply (1 attr changed)"
	stepDestroy    = "destroy"
	stepKubectlSSA = "kubectl apply --server-side"
	stepKubectlGet = "kubectl get"
	stepKubectlDel = "kubectl delete"
)

var cycleSteps = []string{stepApplyNew, stepPlan, stepApplySame, stepChange, stepDestroy}

// kubectlFloor is the "variant" of one kubectl command for all of a workload's manifests.
const kubectlFloor = "kubectl (API floor)"

// install builds the provider and puts it, and any peer provider binaries named by their
// environment variables, into a filesystem mirror that the CLI configuration b.rc points at.
func (b *bench) install(ctx context.Context) error {
	bin := filepath.Join(b.dir, "terraform-provider-mlplatform_v"+providerVersion)
	fmt.Println("building the provider")
	build := exec.CommandContext(ctx, "go", "build", "-ldflags", "-X main.version="+providerVersion, "-o", bin, ".")
	build.Stdout, build.Stderr = os.Stdout, os.Stderr
	if err := build.Run(); err != nil {
		return fmt.Errorf("building the provider: %w", err)
	}
	type pkg struct{ source, version, path string }
	pkgs := []pkg{{mlplatform.source, providerVersion, bin}}
	for _, p := range peers {
		path := os.Getenv(p.env)
		if path == "" {
			continue
		}
		version := "0.0.1"
		if m := regexp.MustCompile(`_v(\d+\.\d+\.\d+[^_]*)$`).FindStringSubmatch(filepath.Base(path)); m != nil {
			version = m[1]
		}
		pkgs = append(pkgs, pkg{p.source, version, path})
		b.variants = append(b.variants, p.variant)
		fmt.Printf("comparing with %s %s (%s=%s)\n", p.source, version, p.env, path)
	}
	mirror := filepath.Join(b.dir, "mirror")
	var include []string
	platform := runtime.GOOS + "_" + runtime.GOARCH
	for _, p := range pkgs {
		typ := p.source[strings.Index(p.source, "/")+1:]
		// Terraform reads "ns/type" as registry.terraform.io/ns/type, OpenTofu as registry.opentofu.org/ns/type.
		for _, host := range []string{"registry.terraform.io", "registry.opentofu.org"} {
			dir := filepath.Join(mirror, host, p.source, p.version, platform)
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return err
			}
			if err := copyFile(p.path, filepath.Join(dir, "terraform-provider-"+typ+"_v"+p.version)); err != nil {
				return err
			}
			include = append(include, fmt.Sprintf("%q", host+"/"+p.source))
		}
	}
	b.rc = filepath.Join(b.dir, "terraformrc")
	rc := fmt.Sprintf("provider_installation {\n  filesystem_mirror {\n    path    = %q\n    include = [%s]\n  }\n  direct {\n    exclude = [%[2]s]\n  }\n}\n",
		mirror, strings.Join(include, ", "))
	return os.WriteFile(b.rc, []byte(rc), 0o644)
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// env is the environment of every CLI and kubectl command.
func (b *bench) env(kubeconfig string) []string {
	return append(os.Environ(),
		"TF_CLI_CONFIG_FILE="+b.rc, "TF_IN_AUTOMATION=1", "CHECKPOINT_DISABLE=1",
		"KUBECONFIG="+kubeconfig, "KUBE_CONFIG_PATH="+kubeconfig, "KUBE_CONFIG_PATHS="+kubeconfig)
}

// workload runs every variant of w, and kubectl, b.runs[w.name] times, interleaved so that the
// machine's load falls on all of them alike.
func (b *bench) workload(ctx context.Context, w workload, kc string, cfg *rest.Config) error {
	variants := []variant{mlplatform}
	floors := w.name != "W1000" || b.floors1000
	if floors {
		variants = append(variants, terraformData)
		variants = append(variants, b.variants...)
	}
	dirs := map[string]string{}
	for _, v := range variants {
		dir := filepath.Join(b.dir, w.name+"-"+v.prefix)
		write := func(rev string) error { return writeConfig(dir, config(w, v, rev)) }
		if err := write("v1"); err != nil {
			return err
		}
		if err := b.init(ctx, dir, kc); err != nil {
			return err
		}
		dirs[v.name] = dir
	}
	yamlPath := filepath.Join(b.dir, w.name+"-cli.yaml")
	y, err := manifests(w, "v1")
	if err != nil {
		return err
	}
	if err := os.WriteFile(yamlPath, y, 0o644); err != nil {
		return err
	}
	for r := range b.runs[w.name] {
		for _, v := range variants {
			fmt.Printf("%s run %d/%d: %s\n", w.name, r+1, b.runs[w.name], v.name)
			err := b.cycle(ctx, w, v, dirs[v.name], kc, cfg, func(rev string) error {
				return writeConfig(dirs[v.name], config(w, v, rev))
			})
			if err != nil {
				return err
			}
		}
		if !floors {
			continue
		}
		fmt.Printf("%s run %d/%d: kubectl\n", w.name, r+1, b.runs[w.name])
		for _, step := range []struct {
			name string
			args []string
		}{
			{stepKubectlSSA, []string{"apply", "--server-side", "--field-manager=bench", "-f", yamlPath}},
			{stepKubectlGet, []string{"get", "-f", yamlPath, "-o", "name"}},
			{stepKubectlDel, []string{"delete", "--wait=false", "-f", yamlPath}},
		} {
			s, err := b.measure(ctx, exec.CommandContext(ctx, b.kubectl, step.args...), kc, cfg, "", filepath.Join(b.dir, w.name+"-kubectl.log"))
			b.res.add(w.name, kubectlFloor, step.name, s)
			if err != nil {
				b.failed = append(b.failed, fmt.Sprintf("%s %s: %v", w.name, step.name, err))
				break
			}
		}
	}
	return ctx.Err()
}

// seed runs the seed platform's cycle b.runs["seed"] times.
func (b *bench) seed(ctx context.Context, kc string, cfg *rest.Config) error {
	if os.Getenv("KUBECONFIG") == "" {
		// The local control plane has no monitoring stack: its namespace stands in for one (as in make demo).
		create := exec.CommandContext(ctx, b.kubectl, "create", "namespace", "monitoring")
		create.Env = b.env(kc)
		if out, err := create.CombinedOutput(); err != nil && !strings.Contains(string(out), "AlreadyExists") {
			return fmt.Errorf("creating the monitoring namespace: %w: %s", err, out)
		}
	}
	dir := filepath.Join(b.dir, "seed")
	write := func(rev string) error {
		s, err := seedConfig(b.root, rev)
		if err != nil {
			return err
		}
		return writeConfig(dir, s)
	}
	if err := write("v1"); err != nil {
		return err
	}
	if err := b.init(ctx, dir, kc); err != nil {
		return err
	}
	w := workload{name: "seed"}
	for r := range b.runs["seed"] {
		fmt.Printf("seed run %d/%d\n", r+1, b.runs["seed"])
		if err := b.cycle(ctx, w, mlplatform, dir, kc, cfg, write); err != nil {
			return err
		}
	}
	return nil
}

func writeConfig(dir, config string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "main.tf"), []byte(config), 0o644)
}

func (b *bench) init(ctx context.Context, dir, kc string) error {
	cmd := exec.CommandContext(ctx, b.tf, "-chdir="+dir, "init", "-input=false", "-no-color")
	cmd.Env = b.env(kc)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%s init in %s: %w\n%s", b.tfName, dir, err, out)
	}
	return nil
}

// cycle runs the steps of one run of w through v in dir: write(rev) writes its configuration. A
// failed step is recorded and the rest of the cycle skipped, after a destroy that leaves the
// cluster clean for the next run. Only a cancelled context is returned.
func (b *bench) cycle(ctx context.Context, w workload, v variant, dir, kc string, cfg *rest.Config, write func(rev string) error) error {
	if err := write("v1"); err != nil {
		return err
	}
	p := fmt.Sprintf("-parallelism=%d", b.parallelism)
	for _, step := range cycleSteps {
		args := []string{"apply", "-input=false", "-auto-approve", "-no-color", p}
		switch step {
		case stepPlan:
			args = []string{"plan", "-input=false", "-no-color", "-detailed-exitcode", p}
		case stepChange:
			if err := write("v2"); err != nil {
				return err
			}
		case stepDestroy:
			args = []string{"destroy", "-input=false", "-auto-approve", "-no-color", p}
		}
		log := filepath.Join(dir, strings.NewReplacer(" ", "-", "(", "", ")", "").Replace(step)+".log")
		cmd := exec.CommandContext(ctx, b.tf, append([]string{"-chdir=" + dir}, args...)...)
		s, err := b.measure(ctx, cmd, kc, cfg, v.exe, log)
		var exit *exec.ExitError
		if step == stepPlan && errors.As(err, &exit) && exit.ExitCode() == 2 {
			s.note = "changes planned"
			err = errors.New("the plan of an unchanged configuration is not empty (see " + log + ")")
		}
		b.res.add(w.name, v.name, step, s)
		if err != nil {
			b.failed = append(b.failed, fmt.Sprintf("%s %s %s: %v", w.name, v.name, step, err))
			if ctxErr := ctx.Err(); ctxErr != nil {
				return ctxErr
			}
			if step == stepPlan {
				continue
			}
			fmt.Fprintf(os.Stderr, "%s %s %s failed: %v\n%s\n", w.name, v.name, step, err, tailOf(log, 30))
			if step != stepDestroy {
				cleanup := exec.CommandContext(ctx, b.tf, "-chdir="+dir, "destroy", "-input=false", "-auto-approve", "-no-color", p)
				cleanup.Env = b.env(kc)
				_ = cleanup.Run()
			}
			break
		}
	}
	return ctx.Err()
}

// measure runs cmd with its output in log, and measures its wall time, the API requests made
// meanwhile, and, when exe is set, the peak RSS and CPU time of its plugin processes named exe*.
func (b *bench) measure(ctx context.Context, cmd *exec.Cmd, kc string, cfg *rest.Config, exe, log string) (sample, error) {
	var s sample
	out, err := os.OpenFile(log, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return s, err
	}
	defer out.Close()
	fmt.Fprintf(out, "\n=== %s\n", strings.Join(cmd.Args, " "))
	cmd.Env = b.env(kc)
	cmd.Stdout, cmd.Stderr = out, out
	before, err := scrape(ctx, cfg)
	if err != nil {
		return s, err
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return s, err
	}
	var w *watch
	if exe != "" {
		w = startWatch(cmd.Process.Pid, exe)
	}
	runErr := cmd.Wait()
	s.wall = time.Since(start).Seconds()
	if w != nil {
		s.rss, s.cpu, s.procs = w.finish()
	}
	after, err := scrape(ctx, cfg)
	if err != nil {
		return s, err
	}
	s.reqs = after.minus(before)
	return s, runErr
}

func tailOf(path string, n int) string {
	data, _ := os.ReadFile(path)
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
