package testcluster

import (
	"cmp"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	// Blank import: keeps Argo Workflows in go.mod, so its CRDs come from the pinned version.
	_ "github.com/argoproj/argo-workflows/v3/pkg/apis/workflow/v1alpha1"
	awsapis "github.com/aws/karpenter-provider-aws/pkg/apis"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

// crdDirectories are the upstream CRD folders in the module cache, at the versions in go.mod (Argo's
// of the release given), the PrometheusRule CRD of the pinned prometheus-operator types and the GPU
// Operator's ClusterPolicy CRD.
func crdDirectories(argo argoRelease) ([]string, error) {
	kueue, _, err := moduleDir("sigs.k8s.io/kueue")
	if err != nil {
		return nil, err
	}
	workflows, err := argo.crdDirectory()
	if err != nil {
		return nil, err
	}
	rules, err := prometheusRuleCRD()
	if err != nil {
		return nil, err
	}
	prov, err := provisioningRequestCRDs()
	if err != nil {
		return nil, err
	}
	gpuOperator, _, err := moduleDir(gpuOperatorModule)
	if err != nil {
		return nil, err
	}
	return []string{filepath.Join(kueue, "config/components/crd/bases"), workflows, rules, prov,
		filepath.Join(gpuOperator, clusterPolicyCRD)}, nil
}

// gpuOperatorModule ships the ClusterPolicy CRD the GPU Operator's Helm chart installs; the
// preflight reads ClusterPolicies through the module's types.
const (
	gpuOperatorModule = "github.com/NVIDIA/gpu-operator"
	clusterPolicyCRD  = "deployments/gpu-operator/crds/nvidia.com_clusterpolicies.yaml"
)

// autoscalerAPIsModule holds Cluster Autoscaler's ProvisioningRequest CRD. Kueue's manager sets up
// its ProvisioningRequest admission check controller only when the API is served (else such checks
// stay inactive, and so do the queues that name them); the version is the one the pinned Kueue
// builds against, found through the Kueue tools module, as the provider itself does not need it.
const autoscalerAPIsModule = "k8s.io/autoscaler/cluster-autoscaler/apis"

func provisioningRequestCRDs() (string, error) {
	dir, err := toolModuleDir("kueue", autoscalerAPIsModule)
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "config", "crd"), nil
}

// monitoringModule holds prometheus-operator's API types. Its CRDs are not in it, and the module
// proxy does not serve the main module's zip (with example/prometheus-operator-crd-full) at the
// versions pinned, so the PrometheusRule CRD is generated from the pinned types with
// controller-gen, as upstream generates that file (`make generate-crds`: controller-gen
// crd:crdVersions=v1); the result equals upstream's but for its operator.prometheus.io/version
// annotation. It is cached next to controller-gen, per version of the types.
const monitoringModule = "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring"

// prometheusRuleCRD is the path of the PrometheusRule CRD of the pinned prometheus-operator types,
// generated on first use.
func prometheusRuleCRD() (string, error) {
	_, version, err := moduleDir(monitoringModule)
	if err != nil {
		return "", err
	}
	gen, err := Tool("controller-gen")
	if err != nil {
		return "", err
	}
	dir := filepath.Join(filepath.Dir(gen), "crds", "monitoring@"+version)
	file := filepath.Join(dir, "monitoring.coreos.com_prometheusrules.yaml")
	if _, err := os.Stat(file); err == nil {
		return file, nil
	}
	root, err := repoRoot()
	if err != nil {
		return "", err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(gen), "crds-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	// Run in the repository, so that the package resolves to the version go.mod pins.
	cmd := exec.Command(gen, "crd:crdVersions=v1", "paths="+monitoringModule+"/v1", "output:crd:dir="+tmp)
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("generating the PrometheusRule CRD from %s@%s with controller-gen: %w\n%s", monitoringModule, version, err, out)
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return "", err
	}
	// Kept whole or not at all: a rename, so that concurrent test binaries never read half a file.
	if err := os.Rename(tmp, dir); err != nil && !os.IsExist(err) {
		if _, statErr := os.Stat(file); statErr != nil {
			return "", fmt.Errorf("caching the PrometheusRule CRD: %w", err)
		}
	}
	return file, nil
}

// moduleDir is the directory in the module cache and the version of a module that the provider's
// go.mod requires (its replacement's, when go.mod replaces it).
func moduleDir(module string) (dir, version string, err error) { return moduleDirIn("", module) }

// moduleDirIn is moduleDir for the go.mod of the module in directory in ("": the working one).
func moduleDirIn(in, module string) (dir, version string, err error) {
	cmd := exec.Command("go", "list", "-m", "-f", "{{.Dir}} {{with .Replace}}{{.Version}}{{else}}{{.Version}}{{end}}", module)
	cmd.Dir = in
	out, err := cmd.Output()
	dir, version, _ = strings.Cut(strings.TrimSpace(string(out)), " ")
	if err != nil {
		return "", "", fmt.Errorf("locating %s in the module cache (go list -m): %w", module, err)
	}
	if dir == "" {
		return "", "", fmt.Errorf("%s is not in the module cache: run `go mod download` in %s", module, cmp.Or(in, "the repository"))
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

// UpstreamCRDFiles reads, from where the local control plane installs CRDs from, the files named
// by names (e.g. "kueue.x-k8s.io_clusterqueues.yaml"), keyed by name. It fails when one is found
// nowhere, so that a kind dropped upstream is noticed.
func UpstreamCRDFiles(names []string) (map[string][]byte, error) {
	paths, err := crdDirectories(argoV3)
	if err != nil {
		return nil, err
	}
	return readCRDFiles(paths, names)
}

// Argo4CRDFiles is UpstreamCRDFiles for the CRDs of Argo Workflows v4, at the version
// tools/argo4 pins: the CRDs a local control plane that runs v4's controller installs.
func Argo4CRDFiles(names []string) (map[string][]byte, error) {
	dir, err := argoReleases["argo4"].crdDirectory()
	if err != nil {
		return nil, err
	}
	return readCRDFiles([]string{dir}, names)
}

// readCRDFiles reads the files named by names from the first of paths that holds each.
func readCRDFiles(paths, names []string) (map[string][]byte, error) {
	out := map[string][]byte{}
	for _, name := range names {
		for _, p := range paths {
			file := filepath.Join(p, name)
			if filepath.Base(p) == name { // a file, not a directory (the PrometheusRule CRD)
				file = p
			}
			b, err := os.ReadFile(file)
			if os.IsNotExist(err) {
				continue
			}
			if err != nil {
				return nil, err
			}
			out[name] = b
			break
		}
		if _, ok := out[name]; !ok {
			return nil, fmt.Errorf("%s is in none of %s", name, strings.Join(paths, ", "))
		}
	}
	return out, nil
}
