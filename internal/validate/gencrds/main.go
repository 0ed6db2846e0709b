// Command gencrds copies into internal/validate/crds the CRDs of the custom resources the provider
// writes, from the module cache at the versions go.mod pins (PrometheusRule's generated from its
// pinned types, as the local control plane does). Run through `go generate ./internal/validate`.
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/testcluster"
	"github.com/mlplatform/terraform-provider-mlplatform/internal/validate"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "gencrds:", err)
		os.Exit(1)
	}
}

// run writes the files in crds/, next to the package (go generate runs in its directory), and
// removes any it no longer copies.
func run() error {
	files, err := testcluster.UpstreamCRDFiles(validate.CopiedCRDFiles())
	if err != nil {
		return err
	}
	old, err := filepath.Glob(filepath.Join("crds", "*.yaml"))
	if err != nil {
		return err
	}
	for _, f := range old {
		if _, keep := files[filepath.Base(f)]; !keep {
			if err := os.Remove(f); err != nil {
				return err
			}
		}
	}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join("crds", name), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}
