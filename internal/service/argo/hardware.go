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
	most := req.perNode(maxGPUsPerNode(req.Model))
	what := "GPUs"
	if req.Profile != nil {
		what = req.Profile.Name + " MIG instances"
	}
	if count < 1 || count > most {
		return nil, "gpu_count", fmt.Errorf("a pod on %s can have 1 to %d %s (one node holds at most %d GPUs), not %d",
			req.Model.Name, most, what, maxGPUsPerNode(req.Model), count)
	}
	return req, "", nil
}

// checkFitsANode refuses a pod that no node of its GPU model can ever hold: its CPU or memory
// above what the largest of the model's EC2 instance types offers pods (Karpenter's allocatable:
// capacity less kube-reserved, eviction threshold and VM overhead). It returns the attribute to
// blame; models the catalog lists no instance type for are not checked.
func checkFitsANode(g *gpuRequest, cpuCores, memoryGB int64) (string, error) {
	var cpuBest, memBest gpu.InstanceType
	for _, it := range g.Model.InstanceTypes {
		if !g.fitsGPUs(it) {
			continue
		}
		if it.AllocatableCPUMilli >= cpuCores*1000 && it.AllocatableMemoryMiB >= memoryGB*1024 {
			return "", nil
		}
		if it.AllocatableCPUMilli > cpuBest.AllocatableCPUMilli {
			cpuBest = it
		}
		if it.AllocatableMemoryMiB > memBest.AllocatableMemoryMiB {
			memBest = it
		}
	}
	if cpuBest.Name == "" {
		return "", nil // no instance type known, or none holds the GPUs (gpu_count says so)
	}
	if cpuCores*1000 > cpuBest.AllocatableCPUMilli {
		return "cpu_cores", fmt.Errorf("%d CPU cores do not fit on any node of %s: the most any offers pods is %.1f (%s)",
			cpuCores, g.Model.Name, float64(cpuBest.AllocatableCPUMilli)/1000, cpuBest.Name)
	}
	if memoryGB*1024 > memBest.AllocatableMemoryMiB {
		return "memory_gb", fmt.Errorf("%d GiB of memory do not fit on any node of %s: the most any offers pods is %d GiB (%s)",
			memoryGB, g.Model.Name, memBest.AllocatableMemoryMiB/1024, memBest.Name)
	}
	return "cpu_cores", fmt.Errorf("%d CPU cores and %d GiB of memory do not fit together on any node of %s: %s offers pods %.1f "+
		"cores and %d GiB, %s %.1f cores and %d GiB", cpuCores, memoryGB, g.Model.Name,
		cpuBest.Name, float64(cpuBest.AllocatableCPUMilli)/1000, cpuBest.AllocatableMemoryMiB/1024,
		memBest.Name, float64(memBest.AllocatableCPUMilli)/1000, memBest.AllocatableMemoryMiB/1024)
}

// fitsGPUs reports whether one node of instance type it holds the request's GPUs or MIG instances.
func (g *gpuRequest) fitsGPUs(it gpu.InstanceType) bool { return g.Count <= g.perNode(it.GPUs) }

// perNode is the most of the requested resource a node with gpus GPUs offers: the GPUs, or as
// many MIG instances of the profile as they hold.
func (g *gpuRequest) perNode(gpus int) int64 {
	if g.Profile != nil {
		return int64(gpus) * int64(g.Profile.MaxInstances)
	}
	return int64(gpus)
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
