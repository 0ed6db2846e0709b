package main

import (
	"context"
	"flag"
	"log"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"

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
	err = providerserver.Serve(context.Background(), provider.New(version), providerserver.ServeOpts{
		Address: "registry.terraform.io/mlplatform/mlplatform",
		Debug:   debug,
	})
	stop()
	if err != nil {
		log.Fatal(err)
	}
}
