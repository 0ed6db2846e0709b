// Command controlplane runs the local control plane until it is sent SIGINT or SIGTERM, for
// `make demo` and for trying the provider by hand. It writes the admin kubeconfig to -write-kubeconfig (controller-runtime owns -kubeconfig).
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
	flag.Parse()
	if *kubeconfig == "" {
		log.Fatal("-write-kubeconfig is required")
	}
	dir, err := os.MkdirTemp("", "mlplatform-controlplane-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	c, err := testcluster.Start(dir)
	if err != nil {
		log.Fatal(err)
	}
	// Written last, so a waiter that sees the file knows the control plane is ready.
	data, err := os.ReadFile(c.Kubeconfig)
	if err == nil {
		err = os.WriteFile(*kubeconfig+".tmp", data, 0o600)
	}
	if err == nil {
		err = os.Rename(*kubeconfig+".tmp", *kubeconfig)
	}
	if err != nil {
		_ = c.Stop()
		log.Fatal(err)
	}
	fmt.Printf("local control plane ready at %s (kubeconfig %s)\n", c.Config.Host, *kubeconfig)
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGINT, syscall.SIGTERM)
	<-stop
	_ = os.Remove(*kubeconfig)
	if err := c.Stop(); err != nil {
		log.Fatal(err)
	}
}
