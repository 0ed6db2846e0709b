// Command controlplane runs the local control plane until it is sent SIGINT or SIGTERM, for
// `make demo` and for trying the provider by hand. It writes the admin kubeconfig to
// -write-kubeconfig (controller-runtime owns -kubeconfig). With -kueue it also runs Kueue's
// controller manager and its webhooks, with -argo Argo Workflows' workflow controller, with -nodes
// kube-scheduler and KWOK. Sent SIGUSR1 (once the platform is applied), it points the NodePools at
// a KWOKNodeClass and starts Karpenter with its KWOK cloud provider, which then launches nodes for
// the pods that need them; it writes <kubeconfig>.karpenter when Karpenter is ready. Sent SIGUSR2
// (before the platform is applied again), it puts the NodePools back as they were, so that the
// apply finds what it wrote, stops Karpenter and removes <kubeconfig>.karpenter.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"os/signal"
	"syscall"

	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/pricing"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/testcluster"
)

func main() {
	kubeconfig := flag.String("write-kubeconfig", "", "where to write the admin kubeconfig (required)")
	kueue := flag.Bool("kueue", false, "also run Kueue's controller manager and its webhooks")
	argo := flag.Bool("argo", false, "also run Argo Workflows' workflow controller")
	controllers := flag.Bool("controllers", false, "also run kube-controller-manager's namespace and garbage-collector controllers")
	nodes := flag.Bool("nodes", false, "also run kube-scheduler and KWOK; SIGUSR1 starts Karpenter on the NodePools applied by then")
	flag.Parse()
	if *kubeconfig == "" {
		log.Fatal("-write-kubeconfig is required")
	}
	var opts []testcluster.Option
	for on, opt := range map[*bool]testcluster.Option{controllers: testcluster.WithControllers(), kueue: testcluster.WithKueue(), argo: testcluster.WithArgo(), nodes: testcluster.WithNodes()} {
		if *on {
			opts = append(opts, opt)
		}
	}
	if err := run(*kubeconfig, opts); err != nil {
		log.Fatal(err)
	}
}

func run(kubeconfig string, opts []testcluster.Option) error {
	dir, err := os.MkdirTemp("", "mlplatform-controlplane-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	c, err := testcluster.Start(dir, opts...)
	if err != nil {
		return err
	}
	// Written last, so a waiter that sees the file knows the control plane is ready.
	if err := writeAtomically(kubeconfig, c.Kubeconfig); err != nil {
		_ = c.Stop()
		return err
	}
	fmt.Printf("local control plane ready at %s (kubeconfig %s; logs in %s)\n", c.Config.Host, kubeconfig, dir)
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGINT, syscall.SIGTERM)
	karpenter, restore := make(chan os.Signal, 1), make(chan os.Signal, 1)
	signal.Notify(karpenter, syscall.SIGUSR1)
	signal.Notify(restore, syscall.SIGUSR2)
	var originals []karpv1.NodePool
	for {
		select {
		case <-karpenter:
			_ = os.Remove(kubeconfig + ".karpenter")
			replaced, err := c.RunPoolsOnKWOK(context.Background(), pricing.DefaultRegion)
			originals = append(originals, replaced...)
			if err != nil {
				fmt.Println("starting Karpenter:", err)
				continue
			}
			if err := writeAtomically(kubeconfig+".karpenter", c.Kubeconfig); err != nil {
				fmt.Println(err)
			}
			fmt.Println("Karpenter runs on the NodePools, with KWOK's nodes")
		case <-restore:
			if err := c.StopPoolsOnKWOK(context.Background(), originals); err != nil {
				fmt.Println(err)
			}
			originals = nil
			_ = os.Remove(kubeconfig + ".karpenter")
			fmt.Println("NodePools restored, Karpenter stopped")
		case <-stop:
			_ = os.Remove(kubeconfig)
			_ = os.Remove(kubeconfig + ".karpenter")
			return c.Stop()
		}
	}
}

// writeAtomically copies src to dst through a rename, so that a waiter never reads half a file.
func writeAtomically(dst, src string) error {
	data, err := os.ReadFile(src)
	if err == nil {
		err = os.WriteFile(dst+".tmp", data, 0o600)
	}
	if err == nil {
		err = os.Rename(dst+".tmp", dst)
	}
	return err
}
