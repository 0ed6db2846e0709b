package main

import (
	"flag"
	"log"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/provider"
)

// version is set by the release build (goreleaser -ldflags).
var version = "dev"

func main() {
	var debug bool
	flag.BoolVar(&debug, "debug", false, "run the provider with support for debuggers like delve")
	flag.Parse()
	if !debug {
		// With -debug the logs go to the developer's terminal, not through the CLI.
		quietUnlessLogged()
	}
	// MLPLATFORM_PPROF=<file> writes a CPU profile of this process to <file>.<pid> until it
	// exits, and then a heap profile to <file>.heap.<pid> (Terraform starts it several times).
	stop, err := startCPUProfile()
	if err != nil {
		log.Fatal(err)
	}
	var opts []tf6server.ServeOpt
	if debug {
		opts = append(opts, tf6server.WithManagedDebug())
	}
	err = tf6server.Serve("registry.terraform.io/mlplatform/mlplatform", provider.NewServer(version), opts...)
	stop()
	if err != nil {
		log.Fatal(err)
	}
}
