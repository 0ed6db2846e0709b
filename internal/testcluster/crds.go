package testcluster

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"

	// Blank import: keeps Argo Workflows in go.mod, so its CRDs come from the pinned version.
	_ "github.com/argoproj/argo-workflows/v3/pkg/apis/workflow/v1alpha1"
	awsapis "github.com/aws/karpenter-provider-aws/pkg/apis"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

// crdDirectories are the upstream CRD folders in the module cache, at the versions in go.mod.
func crdDirectories() ([]string, error) {
	var dirs []string
	for _, m := range []struct{ module, dir string }{
		{"sigs.k8s.io/kueue", "config/components/crd/bases"},
		{"github.com/argoproj/argo-workflows/v3", "manifests/base/crds/full"},
	} {
		root, _, err := moduleDir(m.module)
		if err != nil {
			return nil, err
		}
		dirs = append(dirs, filepath.Join(root, m.dir))
	}
	return dirs, nil
}

// moduleDir is the directory in the module cache and the version of a module that the provider's
// go.mod requires.
func moduleDir(module string) (dir, version string, err error) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}} {{.Version}}", module).Output()
	dir, version, _ = strings.Cut(strings.TrimSpace(string(out)), " ")
	if err != nil {
		return "", "", fmt.Errorf("locating %s in the module cache (go list -m): %w", module, err)
	}
	if dir == "" {
		return "", "", fmt.Errorf("%s is not in the module cache: run `go mod download`", module)
	}
	return dir, version, nil
}

// karpenterCRDs are Karpenter's NodePool, NodeClaim and NodeOverlay and the AWS EC2NodeClass, as
// the AWS provider ships them (with its nodeClassRef rules), embedded in its apis package.
func karpenterCRDs() []*apiextensionsv1.CustomResourceDefinition {
	out := make([]*apiextensionsv1.CustomResourceDefinition, len(awsapis.CRDs))
	for i, crd := range awsapis.CRDs {
		out[i] = crd.DeepCopy()
	}
	return out
}
