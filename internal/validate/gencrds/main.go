// Command gencrds copies into internal/validate/crds the CRDs of the custom resources the provider
// writes, from the module cache at the versions go.mod pins (PrometheusRule's generated from its
// pinned types, as the local control plane does), and into crds/argo4 Argo Workflows v4's, at the
// version tools/argo4 pins. Run through `go generate ./internal/validate`.
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
// Argo Workflows v4's in crds/argo4, and removes any it no longer copies.
func run() error {
	files, err := testcluster.UpstreamCRDFiles(validate.CopiedCRDFiles())
	if err != nil {
		return err
	}
	if err := write("crds", files); err != nil {
		return err
	}
	if files, err = testcluster.Argo4CRDFiles(validate.Argo4CRDFiles()); err != nil {
		return err
	}
	return write(filepath.Join("crds", "argo4"), files)
}

// write makes dir hold exactly files.
func write(dir string, files map[string][]byte) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	old, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
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
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}
