// Command controlplane runs the local control plane until it is sent SIGINT or SIGTERM, for
// `make demo` and for trying the provider by hand. It writes the admin kubeconfig to -write-kubeconfig (controller-runtime owns -kubeconfig).
// With -kueue it also runs Kueue's controller manager and its webhooks, with -argo Argo Workflows'
// workflow controller (no kubelet runs: the pods it creates stay Pending).
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"os/signal"
	"syscall"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/testcluster"
)

func main() {
	kubeconfig := flag.String("write-kubeconfig", "", "where to write the admin kubeconfig (required)")
	kueue := flag.Bool("kueue", false, "also run Kueue's controller manager and its webhooks")
	argo := flag.Bool("argo", false, "also run Argo Workflows' workflow controller")
	controllers := flag.Bool("controllers", false, "also run kube-controller-manager's namespace and garbage-collector controllers")
	flag.Parse()
	if *kubeconfig == "" {
		log.Fatal("-write-kubeconfig is required")
	}
	if err := run(*kubeconfig, *controllers, *kueue, *argo); err != nil {
		log.Fatal(err)
	}
}

func run(kubeconfig string, controllers, kueue, argo bool) error {
	dir, err := os.MkdirTemp("", "mlplatform-controlplane-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	var opts []testcluster.Option
	if controllers {
		opts = append(opts, testcluster.WithControllers())
	}
	if kueue {
		opts = append(opts, testcluster.WithKueue())
	}
	if argo {
		opts = append(opts, testcluster.WithArgo())
	}
	c, err := testcluster.Start(dir, opts...)
	if err != nil {
		return err
	}
	// Written last, so a waiter that sees the file knows the control plane is ready.
	data, err := os.ReadFile(c.Kubeconfig)
	if err == nil {
		err = os.WriteFile(kubeconfig+".tmp", data, 0o600)
	}
	if err == nil {
		err = os.Rename(kubeconfig+".tmp", kubeconfig)
	}
	if err != nil {
		_ = c.Stop()
		return err
	}
	fmt.Printf("local control plane ready at %s (kubeconfig %s)\n", c.Config.Host, kubeconfig)
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGINT, syscall.SIGTERM)
	<-stop
	_ = os.Remove(kubeconfig)
	return c.Stop()
}
