package testcluster

import (
	"fmt"
	"os"
	"path/filepath"
)

// ArgoControllerEnv names the Argo Workflows workflow controller that WithArgo runs: "argo" (v3,
// the default: the provider compiles in v3's API and validator) or "argo4" (v4), by their
// tools/build.sh names. `make testacc` runs the Argo tests once more with "argo4", to prove on v4
// what the provider writes.
const ArgoControllerEnv = "MLPLATFORM_TEST_ARGO"

// argoRelease is one major version of Argo Workflows the harness can run: its build.sh tool, its
// Go module (which holds its CRDs) and the module that pins that version.
type argoRelease struct {
	tool, module string
	// pinnedIn is the tools module that requires module, relative to the repository; "" for the
	// provider's own go.mod.
	pinnedIn string
}

var argoReleases = map[string]argoRelease{
	"argo":  {tool: "argo", module: "github.com/argoproj/argo-workflows/v3"},
	"argo4": {tool: "argo4", module: "github.com/argoproj/argo-workflows/v4", pinnedIn: "internal/testcluster/tools/argo4"},
}

// argoV3 is the release whose CRDs the provider validates with at plan.
var argoV3 = argoReleases["argo"]

// argoFromEnv is the release ArgoControllerEnv names.
func argoFromEnv() (argoRelease, error) {
	name := os.Getenv(ArgoControllerEnv)
	if name == "" {
		return argoV3, nil
	}
	r, ok := argoReleases[name]
	if !ok {
		return argoRelease{}, fmt.Errorf("%s=%q: want argo (v3) or argo4 (v4)", ArgoControllerEnv, name)
	}
	return r, nil
}

// dir is the release's module directory in the module cache and its version.
func (r argoRelease) dir() (dir, version string, err error) {
	if r.pinnedIn == "" {
		return moduleDir(r.module)
	}
	root, err := repoRoot()
	if err != nil {
		return "", "", err
	}
	return moduleDirIn(filepath.Join(root, r.pinnedIn), r.module)
}

// crdDirectory holds the release's CRDs, the "full" ones a release install applies.
func (r argoRelease) crdDirectory() (string, error) {
	dir, _, err := r.dir()
	return filepath.Join(dir, "manifests/base/crds/full"), err
}

// binary is the cached controller, built from the version its module pins.
func (r argoRelease) binary() (string, error) {
	if r.pinnedIn == "" {
		return pinnedTool(r.tool, r.module)
	}
	// build.sh's check_pin compares its version with the tools module's go.mod.
	return Tool(r.tool)
}
