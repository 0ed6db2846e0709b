// Command bench measures the provider against Terraform's floor (terraform_data) and the API's
// floor (kubectl), for N ResourceFlavors + N ClusterQueues (W100: N = 50, W1000: N = 500) and for
// the seed platform (examples/complete), and checks the targets of the project's issue 15. It runs
// on the local control plane unless KUBECONFIG is set. `make bench` runs it; see PERFORMANCE.md.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/testcluster"
)

type options struct {
	runs        map[string]int
	only        map[string]bool
	parallelism int
	keep        bool
	// floors1000 also runs terraform_data, kubectl and peers at W1000 (its targets need only the
	// provider's figures).
	floors1000 bool
}

func main() {
	var o options
	r100 := flag.Int("runs-w100", 3, "runs of W100 (50 ResourceFlavors + 50 ClusterQueues)")
	r1000 := flag.Int("runs-w1000", 1, "runs of W1000 (500 + 500)")
	rseed := flag.Int("runs-seed", 2, "runs of the seed platform (examples/complete)")
	only := flag.String("only", "w100,w1000,seed", "the workloads to run, comma-separated")
	flag.IntVar(&o.parallelism, "parallelism", 10, "-parallelism of every Terraform command")
	flag.BoolVar(&o.floors1000, "w1000-floors", true, "also run terraform_data, kubectl and peer providers at W1000")
	flag.BoolVar(&o.keep, "keep", false, "keep the working directories (configurations, states, logs of each command)")
	flag.Parse()
	o.runs = map[string]int{"W100": *r100, "W1000": *r1000, "seed": *rseed}
	o.only = map[string]bool{}
	for _, w := range strings.Split(*only, ",") {
		o.only[strings.TrimSpace(strings.ToLower(w))] = true
	}
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, o)
	cancel()
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

// bench is one session: the tools, where it works, and what it measured.
type bench struct {
	options
	root     string // the repository
	dir      string // working directory of this session
	tf       string // the CLI
	tfName   string
	kubectl  string
	rc       string // CLI configuration (filesystem mirror)
	variants []variant
	res      results
	checks   validationCost
	failed   []string
}

func run(ctx context.Context, o options) error {
	root, err := os.Getwd()
	if err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(root, "examples/complete/main.tf")); err != nil {
		return fmt.Errorf("run from the repository's root (make bench): %w", err)
	}
	b := &bench{options: o, root: root, res: results{}}
	if b.dir, err = os.MkdirTemp("", "mlplatform-bench-"); err != nil {
		return err
	}
	if o.keep {
		fmt.Println("working directory (kept):", b.dir)
	} else {
		defer os.RemoveAll(b.dir)
	}
	b.tfName = os.Getenv("TF")
	if b.tfName == "" {
		b.tfName = "terraform"
	}
	if b.tf, err = testcluster.Tool(b.tfName); err != nil {
		return err
	}
	if b.kubectl, err = testcluster.Tool("kubectl"); err != nil {
		return err
	}
	if err := b.install(ctx); err != nil {
		return err
	}
	start := time.Now()
	env := describeMachine(b.tf)
	// What was measured is printed even when a step fails or the run is interrupted.
	defer func() {
		fmt.Println()
		fmt.Printf("%s; %s -parallelism=%d; %s; took %s\n\n", env, b.tfName, o.parallelism, loadAverage(), time.Since(start).Round(time.Second))
		b.res.table(os.Stdout)
		fmt.Println()
		b.res.targets(os.Stdout)
		fmt.Println()
		b.checks.print(os.Stdout)
	}()
	if o.only["w100"] {
		if b.checks, err = measureValidation(ctx); err != nil {
			return fmt.Errorf("measuring the validation engine: %w", err)
		}
	}
	if o.only["w100"] || o.only["w1000"] {
		err := b.onCluster(ctx, false, func(kc string, cfg *rest.Config) error {
			for _, w := range []workload{{"W100", 50}, {"W1000", 500}} {
				if !o.only[strings.ToLower(w.name)] {
					continue
				}
				if err := b.workload(ctx, w, kc, cfg); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	if o.only["seed"] {
		err := b.onCluster(ctx, true, func(kc string, cfg *rest.Config) error {
			return b.seed(ctx, kc, cfg)
		})
		if err != nil {
			return err
		}
	}
	if len(b.failed) > 0 {
		return fmt.Errorf("%d commands failed: %s", len(b.failed), strings.Join(b.failed, "; "))
	}
	return nil
}

// onCluster runs f against KUBECONFIG's cluster, else against a local control plane started for
// it (with Kueue's controller and kube-controller-manager's when full: the seed platform waits
// for its queues to turn Active and deletes namespaces).
func (b *bench) onCluster(ctx context.Context, full bool, f func(kubeconfig string, cfg *rest.Config) error) error {
	kc := os.Getenv("KUBECONFIG")
	if kc == "" {
		dir, err := os.MkdirTemp(b.dir, "controlplane-")
		if err != nil {
			return err
		}
		var opts []testcluster.Option
		what := "etcd and kube-apiserver"
		if full {
			opts = append(opts, testcluster.WithControllers(), testcluster.WithKueue())
			what += ", with kube-controller-manager and Kueue's controller manager"
		}
		fmt.Printf("starting a local control plane (%s)\n", what)
		c, err := testcluster.Start(dir, opts...)
		if err != nil {
			return err
		}
		defer func() {
			if err := c.Stop(); err != nil {
				fmt.Fprintln(os.Stderr, "stopping the local control plane:", err)
			}
		}()
		kc = c.Kubeconfig
	}
	cfg, err := clientcmd.BuildConfigFromFlags("", kc)
	if err != nil {
		return fmt.Errorf("reading %s: %w", kc, err)
	}
	if _, err := scrape(ctx, cfg); err != nil {
		return fmt.Errorf("the bench counts API requests from /metrics, which needs the right to GET it: %w", err)
	}
	return f(kc, cfg)
}
