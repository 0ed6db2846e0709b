package argo

import (
	"strings"
	"testing"
)

func TestResolveGPU(t *testing.T) {
	cases := []struct {
		gpuType  string
		count    int64
		resource string
		model    string
	}{
		{"a100-80gb", 1, "nvidia.com/gpu", "A100-SXM4-80GB"},
		{"A100", 8, "nvidia.com/gpu", "A100-SXM4-80GB"},
		{"H100", 2, "nvidia.com/gpu", "H100-SXM5-80GB"},
		{"a100-1g.10gb", 1, "nvidia.com/mig-1g.10gb", "A100-SXM4-80GB"},
		{"a100-80gb-3g.40gb", 2, "nvidia.com/mig-3g.40gb", "A100-SXM4-80GB"},
		{"a100-1g.10gb", 56, "nvidia.com/mig-1g.10gb", "A100-SXM4-80GB"},                  // 7 per GPU x 8 GPUs
		{"rtx-pro-6000-1g.24gb-me", 32, "nvidia.com/mig-1g.24gb-me", "RTX-PRO-6000-96GB"}, // 4 per GPU x 8 (g7e.48xlarge)
		{"rtx-pro-6000-2g.48gb+gfx", 1, "nvidia.com/mig-2g.48gb.gfx", "RTX-PRO-6000-96GB"},
		{"rtx-pro-6000-1g.24gb.me.all", 1, "nvidia.com/mig-1g.24gb.me.all", "RTX-PRO-6000-96GB"},
		{"b300-1g.34gb+me", 1, "nvidia.com/mig-1g.34gb.me", "B300-269GB"},
	}
	for _, tc := range cases {
		g, attr, err := resolveGPU(tc.gpuType, tc.count)
		if err != nil {
			t.Errorf("%s x%d: %s: %v", tc.gpuType, tc.count, attr, err)
			continue
		}
		if g.Resource != tc.resource || !strings.EqualFold(g.Model.Name, tc.model) {
			t.Errorf("%s: got %s on %s; want %s on %s", tc.gpuType, g.Resource, g.Model.Name, tc.resource, tc.model)
		}
	}
}

func TestResolveGPU_refused(t *testing.T) {
	cases := []struct {
		gpuType string
		count   int64
		attr    string
		want    string
	}{
		{"a200", 1, "gpu_type", `unknown GPU model "a200"`},
		{"a100-2g.7gb", 1, "gpu_type", "has no MIG profile"},
		{"t4-1g.5gb", 1, "gpu_type", "does not support MIG"},
		{"a100-80gb", 9, "gpu_count", "1 to 8 GPUs"},
		{"a100-80gb", 0, "gpu_count", "not 0"},
		{"a100-1g.10gb", 57, "gpu_count", "1 to 56 1g.10gb MIG instances"},
	}
	for _, tc := range cases {
		_, attr, err := resolveGPU(tc.gpuType, tc.count)
		if err == nil || attr != tc.attr || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s x%d: got %s: %v; want %s: %q", tc.gpuType, tc.count, attr, err, tc.attr, tc.want)
		}
	}
}

// A pod larger than every node of its GPU model is refused on the attribute that is too large;
// one that some instance type of the model holds passes.
func TestCheckFitsANode(t *testing.T) {
	cases := []struct {
		gpuType         string
		count, cpu, mem int64
		attr, want      string
	}{
		{"a100-80gb", 8, 90, 1000, "", ""},
		{"a100-1g.10gb", 1, 2, 16, "", ""},
		{"a100-80gb", 1, 200, 64, "cpu_cores", "200 CPU cores do not fit on any node of A100-SXM4-80GB: the most any offers pods is"},
		{"a100-80gb", 1, 8, 1100, "memory_gb", "1100 GiB of memory do not fit on any node of A100-SXM4-80GB: the most any offers pods is"},
		{"h100", 1, 8, 4000, "memory_gb", "4000 GiB of memory do not fit on any node of H100-SXM5-80GB"},
	}
	for _, tc := range cases {
		g, _, err := resolveGPU(tc.gpuType, tc.count)
		if err != nil {
			t.Fatal(err)
		}
		attr, err := checkFitsANode(g, tc.cpu, tc.mem)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s %d CPU %d GiB: %s: %v; want it to fit", tc.gpuType, tc.cpu, tc.mem, attr, err)
		case tc.want != "" && (err == nil || attr != tc.attr || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s %d CPU %d GiB: got %s: %v; want %s: %q", tc.gpuType, tc.cpu, tc.mem, attr, err, tc.attr, tc.want)
		default:
			t.Logf("%s %d CPU %d GiB: %s: %v", tc.gpuType, tc.cpu, tc.mem, attr, err)
		}
	}
}
