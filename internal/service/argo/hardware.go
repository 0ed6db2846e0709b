package argo

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/mlplatform/terraform-provider-mlplatform/internal/gpu"
)

// migSuffix is a MIG profile at the end of a gpu_type such as "a100-1g.10gb", "h100-1g.10gb+me"
// or "rtx-pro-6000-1g.24gb-me" (attributes: the gpu catalog's profile names).
var migSuffix = regexp.MustCompile(`^(.+)-(\d+g\.\d+gb(?:[+.]me[+.]all|[+.]me|[+.]gfx|-me)?)$`)

// gpuRequest is what one training pod asks for, resolved through the GPU catalog.
type gpuRequest struct {
	Model    *gpu.Model
	Profile  *gpu.Profile // nil for whole GPUs
	Resource string       // nvidia.com/gpu or nvidia.com/mig-<profile>
	Count    int64
}

// resolveGPU resolves a gpu_type (any name the catalog accepts, optionally followed by a MIG
// profile) and a count. The error says what is wrong in words for the attribute it names.
func resolveGPU(gpuType string, count int64) (*gpuRequest, string, error) {
	m, lookupErr := gpu.Lookup(gpuType)
	req := &gpuRequest{Model: m, Resource: gpu.ResourceGPU, Count: count}
	if lookupErr != nil {
		parts := migSuffix.FindStringSubmatch(strings.TrimSpace(gpuType))
		if parts == nil {
			return nil, "gpu_type", lookupErr
		}
		if m, lookupErr = gpu.Lookup(parts[1]); lookupErr != nil {
			return nil, "gpu_type", lookupErr
		}
		p, err := m.Profile(parts[2])
		if err != nil {
			return nil, "gpu_type", err
		}
		req.Model, req.Profile, req.Resource = m, p, p.ResourceName()
	}
	most := int64(maxGPUsPerNode(req.Model))
	what := "GPUs"
	if req.Profile != nil {
		most *= int64(req.Profile.MaxInstances)
		what = req.Profile.Name + " MIG instances"
	}
	if count < 1 || count > most {
		return nil, "gpu_count", fmt.Errorf("a pod on %s can have 1 to %d %s (one node holds at most %d GPUs), not %d",
			req.Model.Name, most, what, maxGPUsPerNode(req.Model), count)
	}
	return req, "", nil
}

// maxGPUsPerNode is the most GPUs of the model any known instance type carries (8 when the
// catalog lists none, the most any GPU server has).
func maxGPUsPerNode(m *gpu.Model) int {
	most := 0
	for _, it := range m.InstanceTypes {
		most = max(most, it.GPUs)
	}
	if most == 0 {
		return 8
	}
	return most
}

// podResources are the requests (and limits) of a training pod: CPU, memory and the GPU resource.
func podResources(g *gpuRequest, cpuCores, memoryGB int64) map[string]string {
	out := map[string]string{
		"cpu":    strconv.FormatInt(cpuCores, 10),
		"memory": strconv.FormatInt(memoryGB, 10) + "Gi",
	}
	if g != nil {
		out[g.Resource] = strconv.FormatInt(g.Count, 10)
	}
	return out
}

// sortedKeys lists a map's keys in order, for a stable object.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
